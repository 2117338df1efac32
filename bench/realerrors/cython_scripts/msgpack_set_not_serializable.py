# ruff: noqa  (misuse on purpose: users write code like this)
import msgpack

msgpack.packb({"tags": {1, 2}})
