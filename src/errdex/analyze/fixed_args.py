"""What a caller's fixed arguments still say of a ``**kwargs`` the callee pops from.

``logging.basicConfig(**kwargs)`` pops ``force``, ``encoding`` and ``errors`` before it
tests ``"stream" in kwargs and "filename" in kwargs``; ``lib2to3.main.main`` calls it with
``format=`` and ``level=`` alone. The chain walk knew a ``**kwargs`` only when the call
left it empty, since the body may remove items before the test, and named ``main`` as a
way to "'stream' and 'filename' should not be specified together" (blind review stop 36,
issue 10). Removing items never adds a key: whatever the body pops, a key the call does
not pass is not in the mapping at the test. :class:`KeysAtMost` holds that and nothing
more: ``"stream" in kwargs`` is false, ``"format" in kwargs``, its length and its truth
are not known (a ``pop`` may have taken them).
"""

from __future__ import annotations

from collections.abc import Iterable
from types import MappingProxyType

__all__ = ["KeysAtMost", "after_removals"]


class KeysAtMost:
    """A ``**kwargs`` whose keys are among ``keys``; which of them remain is not known."""

    __slots__ = ("keys",)

    def __init__(self, keys: Iterable[str]) -> None:
        self.keys = frozenset(keys)

    def __contains__(self, key: object) -> bool:
        if key in self.keys:
            raise LookupError("the body may have removed it")  # undecided (guard_eval)
        return False

    def __bool__(self) -> bool:
        raise TypeError("the body may have removed every key")

    def __len__(self) -> int:
        raise TypeError("the body may have removed some keys")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, KeysAtMost) and other.keys == self.keys

    def __hash__(self) -> int:
        return hash(("KeysAtMost", self.keys))

    def __repr__(self) -> str:
        return f"KeysAtMost({sorted(self.keys)!r})"


def after_removals(value: object) -> object | None:
    """What a ``**kwargs`` the body removes items from is known as at the test, given
    what the call collects in it (:meth:`Chains._arguments`): an empty one stays empty,
    one with keywords holds at most those; None for anything else."""
    if not isinstance(value, MappingProxyType):
        return None
    return value if not value else KeysAtMost(value.keys())
