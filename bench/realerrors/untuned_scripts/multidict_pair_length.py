# ruff: noqa  (misuse on purpose: users write code like this)
# raises: multidict/_multilib/bulk_update.h:801
from multidict import MultiDict

MultiDict([("a",)])
