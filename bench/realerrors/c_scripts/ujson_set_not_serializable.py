# ruff: noqa  (misuse on purpose: users write code like this)
# raises: src/ujson/encode.c: is not JSON serializable
import ujson

ujson.dumps({"ids": {1, 2}})
