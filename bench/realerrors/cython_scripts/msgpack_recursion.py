# ruff: noqa  (misuse on purpose: users write code like this)
import msgpack

nested = []
nested.append(nested)
msgpack.packb(nested)
