# ruff: noqa  (misuse on purpose: users write code like this)
import tomllib

tomllib.loads("a = 1\na = 2\n")
