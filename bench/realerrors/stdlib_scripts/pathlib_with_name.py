# ruff: noqa  (misuse on purpose: users write code like this)
from pathlib import PurePosixPath

PurePosixPath("/").with_name("x")
