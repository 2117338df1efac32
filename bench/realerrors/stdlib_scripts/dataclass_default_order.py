# ruff: noqa  (misuse on purpose: users write code like this)
from dataclasses import dataclass


@dataclass
class P:
    x: int = 0
    y: int
