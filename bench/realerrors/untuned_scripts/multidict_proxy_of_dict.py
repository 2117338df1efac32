# ruff: noqa  (misuse on purpose: users write code like this)
# raises: multidict/_multidict.c:1223
from multidict import MultiDictProxy

MultiDictProxy({})
