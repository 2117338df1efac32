# ruff: noqa  (misuse on purpose: users write code like this)
# raises: simplejson/_speedups.c:1949: "On|zi:scanstring"
import simplejson.decoder

simplejson.decoder.scanstring('"abc"', 1, 5)
