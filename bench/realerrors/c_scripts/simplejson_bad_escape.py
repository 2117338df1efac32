# ruff: noqa  (misuse on purpose: users write code like this)
# raises: simplejson/_speedups.c: ERR_STRING_ESC1
import simplejson

simplejson.loads(r'"C:\path"')
