# ruff: noqa  (misuse on purpose: users write code like this)
import msgpack

msgpack.Packer().pack_array_header(2**32)
