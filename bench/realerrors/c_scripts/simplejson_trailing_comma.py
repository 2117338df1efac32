# ruff: noqa  (misuse on purpose: users write code like this)
# raises: simplejson/_speedups_scan.h: ERR_TRAILING_COMMA_ARRAY
import simplejson

simplejson.loads("[1,]")
