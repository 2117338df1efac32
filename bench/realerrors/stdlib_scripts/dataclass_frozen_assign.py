# ruff: noqa  (misuse on purpose: users write code like this)
from dataclasses import dataclass


@dataclass(frozen=True)
class P:
    x: int


P(1).x = 2
