# ruff: noqa  (misuse on purpose: users write code like this)
import os, tempfile

d = tempfile.mkdtemp()
os.makedirs(d)
