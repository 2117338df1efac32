# ruff: noqa  (misuse on purpose: users write code like this)
# raises: src/ujson/encode.c: expected str as key separator
import ujson

ujson.dumps({"a": 1}, separators=(",", 1))
