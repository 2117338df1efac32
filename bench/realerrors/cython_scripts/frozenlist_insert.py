# ruff: noqa  (misuse on purpose: users write code like this)
from frozenlist import FrozenList

items = FrozenList([1])
items.freeze()
items.insert(0, 2)
