# ruff: noqa  (misuse on purpose: users write code like this)
import msgpack

unpacker = msgpack.Unpacker()
unpacker.feed(b"\x92\x01")
unpacker.unpack()
