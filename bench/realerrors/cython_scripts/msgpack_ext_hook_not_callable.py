# ruff: noqa  (misuse on purpose: users write code like this)
import msgpack

msgpack.Unpacker(ext_hook=3)
