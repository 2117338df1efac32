# ruff: noqa  (misuse on purpose: users write code like this)
# raises: simplejson/_speedups.c: ERR_STRING_ESC4
import simplejson

simplejson.loads(r'"\u12"')
