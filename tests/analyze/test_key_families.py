"""A ``KeyError``'s family follows its guard and message, not the class name alone (paired
blind review, stop 38: ``missing-key`` false on logging's "Attempt to overwrite",
misleading on ``Mailbox.popitem`` of an empty mailbox; ``missing-attribute`` misleading on
``sysconfig._subst_vars``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .stdlib_items import one_file_items

Item = tuple[dict[str, Any], dict[str, Any]]

KEYS = """\
def make_record(name, extra=None):
    rv = dict(name=name, msg=name)
    if extra is not None:
        for key in extra:
            if (key in ["message", "asctime"]) or (key in rv):
                raise KeyError("Attempt to overwrite %r in LogRecord" % key)
            rv[key] = extra[key]
    return rv


class Box:
    def __init__(self):
        self.items = {}

    def popitem(self):
        for key in list(self.items):
            return key, self.items.pop(key)
        raise KeyError("No messages in mailbox")

    def get(self, key):
        if key not in self.items:
            raise KeyError(key)
        return self.items[key]


def subst_vars(s, local_vars):
    try:
        return s.format(**local_vars)
    except KeyError as var:
        raise AttributeError(f"{var}") from None


class Namespace:
    def __init__(self):
        self.values = {}

    def __getattr__(self, name):
        try:
            return self.values[name]
        except KeyError:
            raise AttributeError(name) from None


class member:
    def __get__(self, instance, owner=None):
        try:
            return owner.members[self.name]
        except KeyError:
            raise AttributeError("%r has no attribute %r" % (owner, self.name)) from None
"""


@pytest.fixture(scope="module")
def by_line(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Item]:
    root = tmp_path_factory.mktemp("keys")
    items = one_file_items(root, "keys.py", KEYS)
    return {r["lineNumber"]: (r, e) for r, e in items}


def _run(root: Path, script: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=root, capture_output=True, text=True, check=False
    )
    return done.stderr


def test_a_key_that_is_there_already_is_no_missing_key(
    by_line: dict[int, Item], tmp_path: Path
) -> None:
    record, _ = by_line[6]
    assert record["backgroundTag"] == "invalid-value"
    assert "missing-key" not in record["tags"]
    # the condition reads only the caller's arguments: checked before the call
    assert record["handlingStrategy"] == "validation"
    (tmp_path / "keys.py").write_text(KEYS)
    err = _run(tmp_path, "from keys import make_record; make_record('n', {'msg': 1})")
    assert "Attempt to overwrite 'msg'" in err  # the key was there, not missing


def test_an_empty_container_is_empty_input(by_line: dict[int, Item]) -> None:
    record, _ = by_line[18]
    assert record["backgroundTag"] == "empty-input"
    assert "missing-key" not in record["tags"]
    # a key looked up and absent keeps its family
    assert by_line[22][0]["backgroundTag"] == "missing-key"


def test_an_attribute_error_made_from_a_key_error_is_a_missing_key(
    by_line: dict[int, Item],
) -> None:
    record, _ = by_line[30]
    assert record["backgroundTag"] == "missing-key"
    assert "missing-attribute" not in record["tags"]
    # in ``__getattr__`` the AttributeError is the attribute protocol's answer
    assert by_line[41][0]["backgroundTag"] == "missing-attribute"
    # nor in a descriptor's ``__get__`` saying "has no attribute" (``enum.property``)
    assert by_line[49][0]["backgroundTag"] == "missing-attribute"


#: Review rr6: each was tagged by c46 with what the code does not say.
LOOSE = """\
def remove(name, removed):
    if name in removed:
        raise KeyError(name)


def unreg(name, d):
    if name not in d:
        raise KeyError("%r is not already registered" % name)


def find(name, cat):
    if cat not in ("a", "b"):
        raise KeyError("No items named %r" % name)


def need(d, key):
    if key not in d:
        raise KeyError("a non-empty value for %r" % key)


def first(d):
    if not d:
        raise KeyError("first(): dictionary is empty")
    return next(iter(d))


class Obj:
    def __init__(self):
        self._d = {}

    def _lookup(self, name):
        try:
            return self._d[name]
        except KeyError:
            raise AttributeError(name) from None

    def __getattr__(self, name):
        return self._lookup(name)
"""


@pytest.fixture(scope="module")
def loose(tmp_path_factory: pytest.TempPathFactory) -> dict[int, str | None]:
    root = tmp_path_factory.mktemp("loose")
    items = one_file_items(root, "loose.py", LOOSE)
    return {r["lineNumber"]: r["backgroundTag"] for r, _ in items}


def test_membership_alone_or_a_negated_already_is_no_clash(loose: dict[int, str | None]) -> None:
    assert loose[3] == "missing-key"  # ``name in removed``: the key is gone, not there
    assert loose[8] == "missing-key"  # "not already registered" under ``not in``


def test_empty_needs_an_emptiness_guard(loose: dict[int, str | None]) -> None:
    assert loose[13] == "missing-key"  # "No items named": a lookup, no empty container
    assert loose[18] == "missing-key"  # "non-empty" is no "empty"
    assert loose[23] == "empty-input"  # ``not d`` and "is empty": both say it


def test_an_attribute_read_through_getattr_stays_a_missing_attribute(
    loose: dict[int, str | None], tmp_path: Path
) -> None:
    assert loose[35] == "missing-attribute"  # the user reads ``obj.x``
    (tmp_path / "loose.py").write_text(LOOSE)
    assert "AttributeError: x" in _run(tmp_path, "from loose import Obj; Obj().x")
