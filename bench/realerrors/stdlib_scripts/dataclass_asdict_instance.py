# ruff: noqa  (misuse on purpose: users write code like this)
from dataclasses import asdict

asdict({"x": 1})
