from typing import NamedTuple
class P(NamedTuple):
    x: int = 0
    y: int
