# ruff: noqa  (misuse on purpose: users write code like this)
from dataclasses import dataclass, replace


@dataclass
class P:
    x: int


replace(P(1), y=2)
