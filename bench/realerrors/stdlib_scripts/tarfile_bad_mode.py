# ruff: noqa  (misuse on purpose: users write code like this)
import tarfile

tarfile.open("x.tar", "rw")
