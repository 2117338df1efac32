# ruff: noqa  (misuse on purpose: users write code like this)
import msgpack

next(msgpack.Unpacker())
