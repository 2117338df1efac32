# ruff: noqa  (misuse on purpose: users write code like this)
from typing import NamedTuple


class P(NamedTuple):
    x: int = 0
    y: int
