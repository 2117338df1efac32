"""A pickling refusal is said only of the calls that really run the method that refuses
(read-only review, session 38): a ``__reduce__`` beside a raising ``__getstate__``
pickles and copies fine; a ``__copy__`` makes ``copy.copy`` work. Each claim is checked
here by running ``pickle.dumps``, ``copy.copy`` and ``copy.deepcopy`` on the code."""

from __future__ import annotations

import copy
import pickle
import sys
import types
from collections.abc import Callable
from pathlib import Path

import pytest

from errdex.analyze.quoting import NO_FIX

from .stdlib_items import one_file_items

SOURCE = """
class Handle:
    def __init__(self, path=None):
        self.path = path

    def __reduce__(self):
        return (Handle, (self.path,))

    def __getstate__(self):
        raise TypeError("cannot pickle Handle state")


class Conn:
    def __getstate__(self):
        raise TypeError("cannot pickle Conn")

    def __copy__(self):
        return Conn()


class Plain:
    def __getstate__(self):
        raise TypeError("cannot pickle Plain")


class Failing(Exception):
    def __getstate__(self):
        raise TypeError("cannot pickle Failing")
"""

_CALLS: dict[str, Callable[[object], object]] = {
    "pickle": pickle.dumps,
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
}


def _refused(name: str) -> set[str]:
    """What the class really refuses, run."""
    module = types.ModuleType("errdex_pickle_fixture")
    exec(SOURCE, module.__dict__)  # the fixture's own classes, nothing else
    cls = getattr(module, name)
    refused = set()
    sys.modules[module.__name__] = module  # pickle finds the class by its module
    try:
        for op, call in _CALLS.items():
            try:
                call(cls())
            except (TypeError, pickle.PicklingError):
                refused.add(op)
    finally:
        del sys.modules[module.__name__]
    return refused


@pytest.fixture
def found(tmp_path: Path) -> dict[str, list[str]]:
    return {r["errorMessage"]: r["solutions"] for r, _ in one_file_items(tmp_path, "m.py", SOURCE)}


def test_a_reduce_beside_the_raising_getstate_says_nothing(found: dict[str, list[str]]) -> None:
    assert _refused("Handle") == set()
    assert found["cannot pickle Handle state"] == [NO_FIX]


def test_a_copy_method_leaves_copy_copy_out(found: dict[str, list[str]]) -> None:
    assert _refused("Conn") == {"pickle", "deepcopy"}
    (text,) = found["cannot pickle Conn"]
    assert text.startswith(
        "Objects of `Conn` cannot be pickled or deep-copied: `Conn.__getstate__` raises "
        "`TypeError` on every call, with no condition, and `pickle.dumps` and "
        "`copy.deepcopy` call it."
    )
    assert _refused("Plain") == {"pickle", "copy", "deepcopy"}
    assert found["cannot pickle Plain"][0].startswith(
        "Objects of `Plain` cannot be pickled or copied:"
    )


def test_a_base_whose_reduce_runs_instead(found: dict[str, list[str]]) -> None:
    """``BaseException.__reduce__`` pickles an exception without ``__getstate__``."""
    assert _refused("Failing") == set()
    assert found["cannot pickle Failing"] == [NO_FIX]


def test_the_situation_names_only_what_runs_it(tmp_path: Path) -> None:
    said = {
        r["errorMessage"]: r["commonSituations"]
        for r, _ in one_file_items(tmp_path, "m.py", SOURCE)
    }
    assert said["cannot pickle Conn"].startswith("It comes from pickling or deep-copying `x`")
    assert "pickling" not in said["cannot pickle Handle state"]
