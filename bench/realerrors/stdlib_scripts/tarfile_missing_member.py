# ruff: noqa  (misuse on purpose: users write code like this)
import tarfile, io

b = io.BytesIO()
with tarfile.open(fileobj=b, mode="w") as t:
    pass
b.seek(0)
tarfile.open(fileobj=b).getmember("x.txt")
