# ruff: noqa  (misuse on purpose: users write code like this)
import zipfile, io

b = io.BytesIO()
with zipfile.ZipFile(b, "w") as z:
    z.writestr("a.txt", "hi")
zipfile.ZipFile(b).read("b.txt")
