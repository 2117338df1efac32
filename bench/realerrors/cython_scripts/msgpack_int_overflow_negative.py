# ruff: noqa  (misuse on purpose: users write code like this)
import msgpack

msgpack.packb(-(2**64))
