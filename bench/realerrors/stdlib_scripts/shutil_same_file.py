# ruff: noqa  (misuse on purpose: users write code like this)
import shutil, tempfile, os

d = tempfile.mkdtemp()
p = os.path.join(d, "f")
open(p, "w").close()
shutil.copyfile(p, p)
