import contextlib
with contextlib.ExitStack() as s:
    s.enter_context(object())
