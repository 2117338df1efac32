from dataclasses import dataclass
@dataclass
class P:
    items: list = []
