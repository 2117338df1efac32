# ruff: noqa  (misuse on purpose: users write code like this)
# raises: src/wrapt/_wrappers.c:3459
import wrapt

proxy = wrapt.ObjectProxy([])
del proxy.__wrapped__
