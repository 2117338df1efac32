# ruff: noqa  (misuse on purpose: users write code like this)
import msgpack

msgpack.unpackb(b"\x01", timestamp=7)
