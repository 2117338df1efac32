# ruff: noqa  (misuse on purpose: users write code like this)
# raises: multidict/_multidict.c:377
from multidict import MultiDict

MultiDict(a=1).getone("b")
