# ruff: noqa  (misuse on purpose: users write code like this)
# raises: simplejson/_speedups.c: encoding must be a string
import simplejson

simplejson.loads(b'"x"', encoding=5)
