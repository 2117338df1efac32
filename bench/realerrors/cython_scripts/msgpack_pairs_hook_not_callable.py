# ruff: noqa  (misuse on purpose: users write code like this)
import msgpack

msgpack.Unpacker(object_pairs_hook=3)
