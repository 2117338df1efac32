# ruff: noqa  (misuse on purpose: users write code like this)
# raises: src/wrapt/_wrappers.c:5387
import wrapt

wrapt.FunctionWrapper(len)
