# ruff: noqa  (misuse on purpose: users write code like this)
import contextlib

with contextlib.ExitStack() as s:
    s.enter_context(object())
