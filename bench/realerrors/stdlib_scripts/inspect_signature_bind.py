# ruff: noqa  (misuse on purpose: users write code like this)
import inspect


def f(a, b):
    pass


inspect.signature(f).bind(1)
