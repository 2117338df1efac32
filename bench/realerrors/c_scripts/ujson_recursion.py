# ruff: noqa  (misuse on purpose: users write code like this)
# raises: unseen
import ujson

loop = []
loop.append(loop)
ujson.dumps(loop)
