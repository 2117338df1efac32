# ruff: noqa  (misuse on purpose: users write code like this)
import msgpack

msgpack.unpackb(
    msgpack.packb(msgpack.ExtType(5, b"x")), ext_hook=msgpack._cmsgpack.default_read_extended_type
)
