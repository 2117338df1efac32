# ruff: noqa  (misuse on purpose: users write code like this)
# raises: src/ujson/decode.c:735: Unexpected character in found when decoding object value
import ujson

ujson.loads('{"a": 1')
