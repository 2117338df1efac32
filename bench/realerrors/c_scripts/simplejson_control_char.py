# ruff: noqa  (misuse on purpose: users write code like this)
# raises: simplejson/_speedups.c: ERR_STRING_CONTROL
import simplejson

simplejson.loads('"tab\there"')
