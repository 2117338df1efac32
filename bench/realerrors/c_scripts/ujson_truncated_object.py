# ruff: noqa  (misuse on purpose: users write code like this)
# raises: unseen
import ujson

ujson.loads('{"a": 1')
