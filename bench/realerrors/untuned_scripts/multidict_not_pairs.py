# ruff: noqa  (misuse on purpose: users write code like this)
# raises: multidict/_multilib/bulk_update.h:792
from multidict import MultiDict

MultiDict([1])
