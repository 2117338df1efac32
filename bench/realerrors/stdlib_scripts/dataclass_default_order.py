from dataclasses import dataclass
@dataclass
class P:
    x: int = 0
    y: int
