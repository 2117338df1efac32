# ruff: noqa  (misuse on purpose: users write code like this)
# raises: simplejson/_speedups.c: int_as_string_bitcount must be None or an integer
import simplejson

simplejson.dumps([1], int_as_string_bitcount="53")
