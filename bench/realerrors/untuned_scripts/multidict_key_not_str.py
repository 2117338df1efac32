# ruff: noqa  (misuse on purpose: users write code like this)
# raises: multidict/_multilib/identity.h:33
from multidict import CIMultiDict

CIMultiDict({1: 2})
