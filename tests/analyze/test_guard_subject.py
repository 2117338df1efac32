"""What a raise's condition tests decides its cause family before the class's name does
(blind review 2026-12-04: record 44, ``Process.close()`` "Cannot close a process while it
is still running" tagged ``invalid-value`` though ``close()`` takes no argument; record
27, netrc's permission check tagged ``parse-error`` for the class's name)."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.guard_subject import guard_subject
from errdex.analyze.walk import module_facts

from .stdlib_items import ON_311, Item, one_file_items, stdlib_items

SOURCE = """\
import os
import stat

LIMIT = 3


class ParseError(Exception):
    pass


class Option:
    def __init__(self, kind):
        self.kind = kind
        self._check_kind()

    def _check_kind(self):
        if self.kind not in ("a", "b"):
            raise ValueError("invalid kind: must be a or b")


class Worker:
    def __init__(self, mode):
        self.mode = mode
        if self.mode not in ("r", "w"):
            raise ValueError("invalid mode: must be r or w")

    def close(self):
        if self._child is not None:
            if self._child.poll() is None:
                raise ValueError("Cannot close a worker while it is still running")

    def put(self, key):
        if key not in self._seen:
            if self._strict:
                raise ValueError("unexpected key: must be declared first")

    def show(self, key):
        if self._closed:
            raise ValueError(f"unknown key {key}: the worker must be open")

    def check(self, fp):
        prop = os.fstat(fp.fileno())
        if prop.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise ParseError("access too permissive: permissions must restrict access to the owner")

    def parse(self, text):
        if text[0] != "(":
            raise ParseError("expected an opening parenthesis")

    def send(self, input):
        if self._started and input:
            raise ValueError("cannot send input after starting")

    def wait(self):
        if self._error is not None:
            raise self._error

    def climb(self, node):
        top = top.parent()
        if top is None:
            raise ValueError("no root above the node")

    def chunks(self):
        if not self._comm_chunk_read:
            raise ValueError("COMM chunk missing: the file must hold one")

    def size(self):
        if self._header_size < 24:
            raise ValueError("header size too small: must be 24 or more")
"""


def _facts() -> dict[str, object]:
    facts = module_facts(SOURCE, "m.py", "m.py", "m", is_test=False)
    assert facts is not None
    return {f.name: f for f in facts.functions}


def test_each_name_is_classed_by_where_its_value_comes_from() -> None:
    funcs = _facts()
    imports = {"os": "os", "stat": "stat"}
    assert guard_subject("self._child.poll() is None", funcs["close"], imports) == "state"
    assert guard_subject("key not in self._seen", funcs["put"], imports) == "argument"
    # a parameter named like a builtin is still the caller's value
    assert guard_subject("self._started and input", funcs["send"], imports) == "argument"
    # ``prop = os.fstat(...)``: the system answers, whatever file the caller passed
    mode = "prop.st_mode & (stat.S_IRWXG | stat.S_IRWXO)"
    assert guard_subject(mode, funcs["check"], imports) == "environment"
    # in ``__init__`` the object's attributes are what the call passed
    assert guard_subject("self.mode not in ('r', 'w')", funcs["__init__"], imports) is None
    assert guard_subject("len(self._items) > LIMIT", funcs["close"], imports) == "state"
    assert guard_subject("undefined_global", funcs["close"], imports) is None
    # ``top = top.parent()``: bound to itself, of no known origin (and no endless search)
    assert guard_subject("top is None", funcs["climb"], imports) is None


def _tags(tmp_path: Path) -> dict[str, str | None]:
    items: list[Item] = one_file_items(tmp_path, "m.py", SOURCE)
    return {r["errorMessage"].partition(":")[0]: r["backgroundTag"] for r, _ in items}


def test_the_family_follows_the_condition_before_the_class_name(tmp_path: Path) -> None:
    tags = _tags(tmp_path)
    solutions = {
        r["errorMessage"]: r["solutions"] for r, _ in one_file_items(tmp_path, "m.py", SOURCE)
    }
    close = "Cannot close a worker while it is still running"
    # no handler for a call on an object in the wrong state, nor an empty "no fix"
    assert solutions[close] == [
        "The check reads only the object's own state, none of the call's arguments: call "
        "`Worker.close()` only on an object that is not in the state the message describes "
        f"(“{close}”), rather than catching `ValueError`."
    ]
    # the object's own state, no argument anywhere: not a bad value
    assert tags["Cannot close a worker while it is still running"] == "invalid-state"
    # a file's permission bits, not its syntax, though the class says Parse
    assert tags["access too permissive"] == "permission-denied"
    # an argument on the way or in the message keeps the value's family
    assert tags["unexpected key"] == "invalid-value"
    # a flag, but of what a file held: the message says nothing of the object's life
    assert tags["COMM chunk missing"] == "invalid-value"
    # the object's data (a header read from a file), not where it is in its life
    assert tags["header size too small"] == "out-of-range"
    assert tags["unknown key {key}"] == "invalid-value"
    assert tags["invalid mode"] == "invalid-value"
    assert tags["expected an opening parenthesis"] == "parse-error"
    # only the constructor reaches the check: ``self.kind`` is the call's argument
    assert tags["invalid kind"] == "invalid-value"


@ON_311
def test_stdlib_netrc_and_multiprocessing_close() -> None:
    items = stdlib_items("netrc.py", "multiprocessing/process.py")
    by_message = {r["errorMessage"]: r["backgroundTag"] for r, _ in items}
    close = "Cannot close a process while it is still running. You should first call join() or terminate()."
    assert by_message[close] == "invalid-state"
    permissive = [m for m in by_message if m.startswith("~/.netrc access too permissive")]
    owner = [m for m in by_message if "does not match current user" in m]
    assert [by_message[m] for m in permissive + owner] == ["permission-denied"] * 2
    # the file's syntax is still a parse error
    assert {by_message[m] for m in by_message if m.startswith("bad toplevel token")} == {
        "parse-error"
    }
