# ruff: noqa  (misuse on purpose: users write code like this)
from pathlib import Path

Path("/usr/lib").relative_to("/etc")
