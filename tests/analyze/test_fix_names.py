"""Fixes name the class as users write it (read-only review, session 38): "local
.__init__() not called" from a class ``local`` is not about a ``Local``; a private class
(``_RLock``, ``_BufferedIOMixin``) is no class users make or call by name."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import one_file_items

SOURCE = """
class local:
    def __init__(self):
        self._ready = True

    def get(self):
        if not getattr(self, "_ready", False):
            raise RuntimeError("local.__init__() not called")
        return 1


class _RLock:
    def release(self):
        if self._owner != get_ident():
            raise RuntimeError("cannot release un-acquired lock")


class _Mixin:
    def __getstate__(self):
        raise TypeError("cannot pickle mixin")


class _Pickler:
    def dump(self, obj):
        if not hasattr(self, "_file_write"):
            raise RuntimeError("Pickler.__init__() was not called by %s.__init__()" % (
                self.__class__.__name__,))


try:
    from _pickle import Pickler
except ImportError:
    Pickler = _Pickler


class _Base:
    def start(self):
        if not self._started:
            raise RuntimeError("_Base.__init__() not called")
"""


def _found(tmp_path: Path) -> dict[str, list[str]]:
    return {r["errorMessage"]: r["solutions"] for r, _ in one_file_items(tmp_path, "m.py", SOURCE)}


def test_the_class_name_is_written_as_defined(tmp_path: Path) -> None:
    (text,) = _found(tmp_path)["local.__init__() not called"]
    assert text.startswith(
        "A subclass of `local` that defines its own `__init__` must call `local.__init__()`"
    )
    assert "Local" not in text


def test_a_private_class_is_not_named(tmp_path: Path) -> None:
    found = _found(tmp_path)
    (lock,) = found["cannot release un-acquired lock"]
    assert lock.startswith("Call `release()` on the lock only while the calling thread holds")
    assert "_RLock" not in lock
    assert not any("_Mixin" in t for t in found["cannot pickle mixin"])
    assert not any("must call" in t for t in found["_Base.__init__() not called"])


def test_the_public_name_the_message_gives_for_a_private_fallback(tmp_path: Path) -> None:
    """``pickle._Pickler``: the C ``pickle.Pickler`` raises the same (run: "Pickler.__init__()
    was not called by P.__init__()"), and the module exports that name."""
    found = _found(tmp_path)
    (text,) = next(v for k, v in found.items() if k.startswith("Pickler.__init__()"))
    assert text.startswith("A subclass of `Pickler` that defines its own `__init__` must call")
