# ruff: noqa  (misuse on purpose: users write code like this)
from importlib import metadata

metadata.version("no-such-distribution-xyz")
