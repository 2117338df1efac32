# ruff: noqa  (misuse on purpose: users write code like this)
from frozenlist import FrozenList

items = FrozenList([1, 2])
items.freeze()
del items[0]
