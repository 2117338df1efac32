# ruff: noqa  (misuse on purpose: users write code like this)
import msgpack

unpacker = msgpack.Unpacker(max_buffer_size=4)
unpacker.feed(b"123456")
