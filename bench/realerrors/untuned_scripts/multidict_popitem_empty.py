# ruff: noqa  (misuse on purpose: users write code like this)
# raises: multidict/_multilib/hashtable.h:2434
from multidict import MultiDict

MultiDict().popitem()
