"""A ``return`` between the condition and the raise (``inspect.getfile``, run on CPython
3.11: ``getfile(sys)`` raises "is a built-in module", ``getfile(os)`` returns its file):
"the call raises when `ismodule(obj)`" is false, so no whole requirement is said."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import one_file_items

SOURCE = """
def ismodule(obj):
    return hasattr(obj, "__name__")


def getfile(obj):
    if ismodule(obj):
        if getattr(obj, "__file__", None):
            return obj.__file__
        raise TypeError("built-in module")
    return None


def check(obj):
    if ismodule(obj):
        raise TypeError("no modules")
    return obj
"""


def test_a_return_before_the_raise_leaves_the_condition_unsaid(tmp_path: Path) -> None:
    found = {r["lineNumber"]: r["solutions"] for r, _ in one_file_items(tmp_path, "m.py", SOURCE)}
    assert not any("raises `TypeError` when `ismodule(obj)`" in s for s in found[10])
    assert found[16][0].startswith("Pass `obj` to `check()` so that `not ismodule(obj)` holds")


LOOPS = """
def g(key, items):
    if key is None:
        return None
    else:
        for k in items:
            if k == key:
                return k
        raise KeyError(key)


def getit(obj, key):
    if key is not None:
        for k in obj:
            if k == key:
                return k
        else:
            raise KeyError(key)
    return None


def pick(type, default=None):
    if type is None:
        for t in (int, str):
            if t is default:
                return t
        else:
            raise ValueError("no type")
    return type
"""


def test_a_return_in_a_loop_before_the_raise_is_a_way_out(tmp_path: Path) -> None:
    # ``g("a", ["a"])``, ``getit(["a"], "a")`` and ``pick(None, int)`` return (rr4)
    found = {r["lineNumber"]: r["solutions"] for r, _ in one_file_items(tmp_path, "m.py", LOOPS)}
    assert not any("raises `KeyError` when `key is not None`" in s for s in found[9])
    assert not any("raises `KeyError` when `key is not None`" in s for s in found[18])
    assert not any("raises `ValueError` when `type is None`" in s for s in found[28])
