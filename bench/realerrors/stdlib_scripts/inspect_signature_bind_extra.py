# ruff: noqa  (misuse on purpose: users write code like this)
import inspect


def f(a):
    pass


inspect.signature(f).bind(1, 2, c=3)
