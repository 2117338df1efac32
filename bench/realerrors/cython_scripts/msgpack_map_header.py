# ruff: noqa  (misuse on purpose: users write code like this)
import msgpack

msgpack.Packer().pack_map_header(2**32)
