# ruff: noqa  (misuse on purpose: users write code like this)
import shutil

shutil.unpack_archive("data.rar", "/tmp", format="rar")
