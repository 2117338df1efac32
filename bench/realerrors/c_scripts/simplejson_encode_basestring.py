# ruff: noqa  (misuse on purpose: users write code like this)
# raises: simplejson/_speedups.c: first argument must be a string
from simplejson import _speedups

_speedups.encode_basestring(3.5)
