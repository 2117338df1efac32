# ruff: noqa  (misuse on purpose: users write code like this)
import base64

base64.b32decode("MZXW6===x")
