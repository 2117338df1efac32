# ruff: noqa  (misuse on purpose: users write code like this)
import collections

collections.namedtuple("P", ["x", "class"])
