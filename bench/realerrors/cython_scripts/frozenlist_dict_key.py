# ruff: noqa  (misuse on purpose: users write code like this)
from frozenlist import FrozenList

cache = {FrozenList(["a"]): 1}
