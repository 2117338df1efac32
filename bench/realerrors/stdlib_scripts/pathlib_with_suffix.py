# ruff: noqa  (misuse on purpose: users write code like this)
from pathlib import Path

Path("a.txt").with_suffix("txt")
