# ruff: noqa  (misuse on purpose: users write code like this)
import msgpack

unpacker = msgpack.Unpacker()
unpacker.feed(b"\xc1")
unpacker.unpack()
