# ruff: noqa  (misuse on purpose: users write code like this)
import heapq, itertools

heapq.nlargest(2, [1, 2], key=None)
import collections

collections.namedtuple("P", ["x", "x"])
