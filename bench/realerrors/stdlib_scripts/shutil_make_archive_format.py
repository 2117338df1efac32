# ruff: noqa  (misuse on purpose: users write code like this)
import shutil

shutil.make_archive("/tmp/x", "rar", "/tmp")
