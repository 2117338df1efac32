# ruff: noqa  (misuse on purpose: users write code like this)
import msgpack


class Source:
    read = b"not a method"


msgpack.Unpacker(Source())
