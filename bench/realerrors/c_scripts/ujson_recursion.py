# ruff: noqa  (misuse on purpose: users write code like this)
# raises: src/ujson/encode.c: Maximum recursion level reached
import ujson

loop = []
loop.append(loop)
ujson.dumps(loop)
