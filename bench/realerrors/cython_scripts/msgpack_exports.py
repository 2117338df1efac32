# ruff: noqa  (misuse on purpose: users write code like this)
import msgpack

packer = msgpack.Packer(autoreset=False)
packer.pack(1)
view = memoryview(packer)
packer.pack(2)
