# ruff: noqa  (misuse on purpose: users write code like this)
import functools, operator

functools.reduce(operator.add, [])
