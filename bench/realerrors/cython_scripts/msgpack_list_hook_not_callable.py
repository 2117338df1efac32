# ruff: noqa  (misuse on purpose: users write code like this)
import msgpack

msgpack.unpackb(b"\x90", list_hook="list")
