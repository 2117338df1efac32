# ruff: noqa  (misuse on purpose: users write code like this)
import tomllib

tomllib.loads("a = ")
