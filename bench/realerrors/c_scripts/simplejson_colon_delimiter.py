# ruff: noqa  (misuse on purpose: users write code like this)
# raises: simplejson/_speedups_scan.h: ERR_OBJECT_PROPERTY_DELIMITER
import simplejson

simplejson.loads('{"a" 1}')
