# ruff: noqa  (misuse on purpose: users write code like this)
import array

import msgpack

msgpack.unpackb(array.array("i", [1, 2]))
