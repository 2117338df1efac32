# ruff: noqa  (misuse on purpose: users write code like this)
# raises: simplejson/_speedups.c: keys must be str
import simplejson

simplejson.dumps({(1, 2): "pair"})
