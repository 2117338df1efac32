# ruff: noqa  (misuse on purpose: users write code like this)
# raises: simplejson/_speedups.c: ERR_STRING_UNTERMINATED
from simplejson import _speedups

_speedups.scanstring("abc", 10)
