"""Conditions over private names said in the caller's terms: from the message, from the
raised class's docstring, or left out, with provenance saying which and why; platform
guards in words."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from errdex.analyze.private_terms import module_aliases, readable, said_from
from errdex.template import MessageTemplate

from .stdlib_items import one_file_items

STREAM = '''\
import sys as _sys


class Unavailable(Exception):
    """Raised when the stream's buffer has been handed to another reader."""


_WINDOWS = _sys.platform == "win32"


class Stream:
    def __init__(self):
        self._closed = False
        self._owner = None
        self._state = 0

    def read(self, n):
        if self._closed:
            raise ValueError("I/O operation on closed file.")
        if self._owner is not None:
            raise Unavailable(self._owner)
        if n > 0 and self._state == 3:
            raise RuntimeError(self._state)
        return b""

    def fileno(self):
        if _sys.platform == "win32" and not self._closed:
            raise OSError("no descriptor for this stream")
        if not _WINDOWS:
            raise OSError("no handle for this stream")
        return 3

    def open_pipe(self, family):
        if _sys.platform != "win32" and family == "AF_PIPE":
            raise ValueError(family)
'''


def _scan(tmp_path: Path) -> dict[int, tuple[dict[str, Any], dict[str, Any]]]:
    items = one_file_items(tmp_path, "stream.py", STREAM)
    return {record["lineNumber"]: (record, evidence) for record, evidence in items}


def test_a_short_private_check_is_said_as_code_not_as_the_message(tmp_path: Path) -> None:
    """``self._closed``: the message ("I/O operation on closed file") is in the record
    already; "in the case the message states" said nothing more (blind review
    2026-12-06), the short condition says which state decides."""
    record, evidence = _scan(tmp_path)[19]
    trigger = record["triggerScenarios"]
    assert trigger.startswith("Triggered when `self._closed`.")
    assert "the message states" not in trigger + record["documentation"]
    note = evidence["provenance"]["triggerScenarios"]["privateConditions"]
    assert note["conditions"] == ["self._closed"] and note["saidAs"] == "guard"
    assert "site.guards" in evidence["provenance"]["triggerScenarios"]["basis"]


def test_else_from_the_class_docstring_when_it_says_when_it_is_raised(tmp_path: Path) -> None:
    record, evidence = _scan(tmp_path)[21]
    assert record["triggerScenarios"].startswith(
        "Triggered in the case the docstring of `Unavailable` gives: “Raised when the "
        "stream's buffer has been handed to another reader”."
    )
    note = evidence["provenance"]["triggerScenarios"]["privateConditions"]
    assert note["saidAs"] == "classDocstring" and note["conditions"] == ["self._owner is not None"]


def test_a_private_part_said_as_code_joins_the_callers_condition(tmp_path: Path) -> None:
    """``n > 0 and self._state == 3``: the caller's part and the short private part."""
    record, evidence = _scan(tmp_path)[23]
    trigger = record["triggerScenarios"]
    assert trigger.startswith(
        "Triggered only when the arguments passed to `Stream.read()` make `n > 0` true, "
        "and then when `self._state == 3`."
    ), trigger
    note = evidence["provenance"]["triggerScenarios"]["privateConditions"]
    assert note["saidAs"] == "guard" and note["conditions"] == ["self._state == 3"]


def test_readable_private_conditions() -> None:
    """Short, one test, private names only as attributes: said as code; else left out."""
    assert readable("self._writing")
    assert readable("newChild.nodeType not in self._child_node_types")
    assert readable("tcl_version != _tkinter.TCL_VERSION", {"_tkinter"})  # a module
    assert not readable("_relpath.startswith('..')")  # a local the reader cannot see
    assert readable("not hasattr(klass, '_set_' + name)")
    assert not readable("self._a and self._b")  # two tests
    assert not readable("self._check(x)")  # a private function called
    assert not readable("_depth > 3")  # a private local or global
    assert not readable("self._buffer_size_limit_for_the_reader > self._high_water_mark_x")


def test_platform_guards_are_said_in_words(tmp_path: Path) -> None:
    """``_sys.platform == "win32"`` through the module's alias, and a module constant
    bound to that test."""
    found = _scan(tmp_path)
    first, _ = found[28]
    assert first["triggerScenarios"].startswith("Triggered on Windows, when `not self._closed`.")
    second, _ = found[30]
    assert second["triggerScenarios"].startswith("Triggered on platforms other than Windows.")
    third, _ = found[35]  # a platform test joined to a caller's condition by `and`
    assert third["triggerScenarios"].startswith(
        "Triggered when `family == 'AF_PIPE'`, on platforms other than Windows."
    )
    for record in (first, second, third):
        assert "sys.platform" not in record["triggerScenarios"] + record["documentation"]
        assert "_WINDOWS" not in record["triggerScenarios"] + record["documentation"]


def test_said_from_needs_words_of_a_message_or_a_raised_when() -> None:
    assert said_from(MessageTemplate.literal("negative")) == (None, "omitted", ())
    base = said_from(MessageTemplate.literal("x"), "Error", "Base class for errors here.")
    assert base[1] == "omitted"  # says what it is, not when it is raised
    words, how, _ = said_from(MessageTemplate.literal("x"), "Full", "Exception raised by put().")
    assert how == "classDocstring" and words == (
        "in the case the docstring of `Full` gives: “Exception raised by put()”"
    )
    # the message is not restated as the case, an assert's no more than a raise's
    assert said_from(MessageTemplate.literal("whole minute"), kind="assert")[0] is None
    assert said_from(MessageTemplate.literal("I/O operation on closed file"))[0] is None
    assert module_aliases({"_os": "import os as _os", "re": "import re"}) == {
        "_os": "os",
        "re": "re",
    }


PIPES = """\
import sys


if sys.platform == "win32":

    class PipeConnection:
        def recv_bytes(self, size):
            if size < 0:
                raise ValueError("negative size")
            return b""

else:

    def unix_only(path):
        raise OSError("no named pipes at " + path)
"""


def test_a_definition_under_a_platform_if_is_said_to_exist_only_there(tmp_path: Path) -> None:
    """``multiprocessing.connection.PipeConnection`` exists on Windows only: the review
    found its records never said so."""
    found = {r["lineNumber"]: r for r, _ in one_file_items(tmp_path, "pipes.py", PIPES)}
    assert found[9]["triggerScenarios"].startswith(
        "Triggered on Windows when the arguments passed to `PipeConnection.recv_bytes()` make "
        "`size < 0` true"
    )
    # no condition of its own: it runs whenever it is called, where it exists
    assert found[15]["triggerScenarios"].startswith(
        "Triggered on every call of `pipes.unix_only`: line 15 is its first statement "
        "(it is defined only on platforms other than Windows)."
    ), found[15]["triggerScenarios"]
    assert " on platforms other than Windows." in found[15]["documentation"].split(". ")[0] + "."


def test_a_generator_or_coroutine_is_not_said_to_raise_on_every_call(tmp_path: Path) -> None:
    """Calling a generator or a coroutine function runs none of its body (re-read, stop
    34): "Triggered on every call" is said only of a plain function."""
    text = (
        "def plain(x):\n"
        "    raise ValueError('plain')\n"
        "\n\n"
        "def gen(x):\n"
        "    raise ValueError('gen')\n"
        "    yield x\n"
        "\n\n"
        "async def coro(x):\n"
        "    raise ValueError('coro')\n"
    )
    found = {
        r["lineNumber"]: r["triggerScenarios"] for r, _ in one_file_items(tmp_path, "g.py", text)
    }
    assert found[2].startswith("Triggered on every call of `g.plain`")
    assert "every call" not in found[6] and "every call" not in found[11]


def test_a_builtin_raised_with_no_message_says_so(tmp_path: Path) -> None:
    """``errorMessage`` shows the class name where the message is empty; reviewers read it
    as the message (stop 34): the documentation says what a run prints."""
    text = (
        "def empty(x):\n"
        "    if x:\n"
        "        raise EOFError\n"
        "    try:\n"
        "        int(x)\n"
        "    except ValueError as e:\n"
        "        raise TypeError from e\n"
        "\n\n"
        "def worded(x):\n"
        "    if x:\n"
        "        raise EOFError('truncated')\n"
    )
    docs = {r["lineNumber"]: r["documentation"] for r, _ in one_file_items(tmp_path, "e.py", text)}
    said = "It is raised with no message: its text is empty"
    assert said in docs[3] and said in docs[7]
    assert said not in docs[12]
