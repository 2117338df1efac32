"""Without a message, a test is linked to a raise several calls below its call when the
class is the repository's own and the calls reach exactly that raise through exact
edges (or it is a warning, or a builtin class where every call on the way lands in the
repository); two reachable raises link neither, nor does a path through a raise or a
call errdex cannot follow."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from errdex.analyze.callgraph import Reach
from errdex.analyze.deep_links import deep_link, inside, repository_classes
from errdex.analyze.repo import build_index
from errdex.scan import scan_checkout
from errdex.source import open_source

ARCHIVE = """\
class ArchiveError(Exception):
    pass


class StreamError(ArchiveError):
    pass


def _seek(pos, to):
    if to < pos:
        raise StreamError("seeking backwards is not allowed")
    return to


def _skip(size):
    if size < 0:
        raise ValueError("negative skip")
    return size


def _check(pos):
    if pos < 0:
        raise ArchiveError("before the start")
    if pos > 100:
        raise ArchiveError("past the end")


class Archive:
    def __init__(self, name):
        self.pos = 0

    def extract(self, member):
        self._rewind(member)
        return b""

    def _rewind(self, member):
        self._goto(member)

    def _goto(self, member):
        self.pos = _seek(self.pos, member)

    def advance(self, size):
        self._step(size)

    def _step(self, size):
        self._move(size)

    def _move(self, size):
        self.pos += _skip(size)

    def verify(self, pos):
        self._look(pos)

    def _look(self, pos):
        self._at(pos)

    def _at(self, pos):
        _check(pos)


def open(name):
    return Archive(name)


class HeaderError(ArchiveError):
    pass


class TrailingError(ArchiveError):
    pass


def _validate(data):
    if not data:
        raise HeaderError("empty header")


def _check_end(data):
    if data:
        raise TrailingError("trailing data")


class Reader:
    def load(self, data):
        self._parse(data)

    def _parse(self, data):
        self._header(data)

    def _header(self, data):
        err = data.error()
        if err is not None:
            raise err
        _validate(data)

    def dispatch(self, kind, data):
        self._run(kind, data)

    def _run(self, kind, data):
        handler = _HANDLERS[kind]
        handler.feed(data)
        self._finish(data)

    def _finish(self, data):
        _check_end(data)


_HANDLERS = {}

import warnings  # noqa: E402


def _old_option(flag):
    if flag:
        warnings.warn("flag is deprecated", DeprecationWarning)


class Options:
    def configure(self, flag):
        self._apply(flag)

    def _apply(self, flag):
        self._set(flag)

    def _set(self, flag):
        _old_option(flag)


import os  # noqa: E402


def _fresh_dir(path):
    if path is None:
        raise FileExistsError("no usable name")
    return path


class Dirs:
    def make(self, path):
        self._make(path)

    def _make(self, path):
        os.mkdir(path)
        self._name(path)

    def _name(self, path):
        _fresh_dir(path)


class BoxError(ArchiveError):
    pass


class Box:
    def __getitem__(self, key):
        raise BoxError("no such key")

    def pop(self, key):
        result = self[key]
        self._discard(key)
        return result

    def _discard(self, key):
        self._remove(key)

    def _remove(self, key):
        raise BoxError("remove is not implemented")
"""

TESTS = """\
import unittest

from pkg import archive


class ArchiveTests(unittest.TestCase):
    def test_stream_error(self):
        tar = archive.open("x")
        with self.assertRaises(archive.StreamError):
            tar.extract(0)

    def test_negative_skip(self):
        tar = archive.open("x")
        with self.assertRaises(ValueError):
            tar.advance(-1)

    def test_empty_header(self):
        reader = archive.Reader()
        with self.assertRaises(archive.HeaderError):
            reader.load(b"")

    def test_trailing(self):
        reader = archive.Reader()
        with self.assertRaises(archive.TrailingError):
            reader.dispatch("x", b"y")

    def test_old_flag(self):
        options = archive.Options()
        with self.assertWarns(DeprecationWarning):
            options.configure(True)

    def test_existing_dir(self):
        dirs = archive.Dirs()
        with self.assertRaises(FileExistsError):
            dirs.make("there")

    def test_pop(self):
        box = archive.Box()
        with self.assertRaises(archive.BoxError):
            box.pop("k")

    def test_either_bound(self):
        tar = archive.open("x")
        with self.assertRaises(archive.ArchiveError):
            tar.verify(-1)
"""


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[dict[str, Any], Any]]:
    root: Path = tmp_path_factory.mktemp("deep")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "archive.py").write_text(ARCHIVE)
    (root / "tests").mkdir()
    (root / "tests" / "test_archive.py").write_text(TESTS)
    result = scan_checkout(open_source(str(root), repo="o/deep"), repo="o/deep")
    return list(result.items)


def _names(scanned: list[tuple[dict[str, Any], Any]], line: int) -> list[str]:
    return sorted(
        t["name"].rpartition("::")[2]
        for record, evidence in scanned
        if record["filePath"].endswith("archive.py") and record["lineNumber"] == line
        for t in evidence["tests"]
    )


def test_a_repository_class_three_calls_down(scanned: list[tuple[dict[str, Any], Any]]) -> None:
    """``tar.extract(0)`` reaches ``_seek``'s raise through ``_rewind`` and
    ``_goto``: the only ``StreamError`` it reaches."""
    assert _names(scanned, 11) == ["test_stream_error"]


def test_a_builtin_class_through_repository_calls_alone(
    scanned: list[tuple[dict[str, Any], Any]],
) -> None:
    """The same depth to a ``ValueError`` where every call on the way lands in the
    repository: nothing else there could raise one."""
    assert _names(scanned, 17) == ["test_negative_skip"]


def test_a_builtin_class_past_a_call_outside_the_repository(
    scanned: list[tuple[dict[str, Any], Any]],
) -> None:
    """``os.mkdir(path)`` on the way raises its own ``FileExistsError`` (C)."""
    assert _names(scanned, 134) == []


def test_two_reachable_raises_link_neither(scanned: list[tuple[dict[str, Any], Any]]) -> None:
    assert _names(scanned, 23) == []
    assert _names(scanned, 25) == []


def test_a_warning_three_calls_down(scanned: list[tuple[dict[str, Any], Any]]) -> None:
    """A warning of a builtin category is linked as deep: the interpreter does not
    issue a ``DeprecationWarning`` for a call the way it raises a ``ValueError``."""
    assert _names(scanned, 115) == ["test_old_flag"]


def test_a_raise_of_no_known_class_on_the_way_links_nothing(
    scanned: list[tuple[dict[str, Any], Any]],
) -> None:
    """``_header`` raises ``err``, an exception errdex cannot name, before calling
    ``_validate``: it may be the ``HeaderError`` the test expects (``configparser``'s
    ``_read`` raising the ``ParsingError`` it collected)."""
    assert _names(scanned, 75) == []


def test_a_call_on_an_object_of_no_known_class_on_the_way_links_nothing(
    scanned: list[tuple[dict[str, Any], Any]],
) -> None:
    """``handler.feed(data)`` on an object from a table may raise anything
    (``plistlib.load``'s ``p.parse(fp)`` through its table of formats)."""
    assert _names(scanned, 80) == []


def test_a_method_of_a_class_with_syntax_hooks_on_the_way_links_nothing(
    scanned: list[tuple[dict[str, Any], Any]],
) -> None:
    """``Box.pop`` runs ``self[key]``, ``__getitem__``'s raise, before ``_remove``'s: the
    graph sees no call there (``mailbox.Mailbox.pop``)."""
    assert _names(scanned, 167) == []


def test_repository_classes(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "archive.py").write_text(ARCHIVE)
    index = build_index(open_source(str(tmp_path), repo="o/d"))
    assert repository_classes(index, [("archive.StreamError", "pkg.archive.StreamError")])
    assert not repository_classes(
        index,
        [("archive.StreamError", "pkg.archive.StreamError"), ("ValueError", "builtins.ValueError")],
    )
    assert not repository_classes(index, [])


_PORTS = """\
class Port(int):
    pass


class Note(ValueError):
    pass


class Empty:
    pass


class Sub(Empty):
    pass


def to_port(text):
    return Port(text)


def to_note(text):
    return Note(text), Sub()
"""


def test_a_class_with_a_base_outside_the_repository_may_raise(tmp_path: Path) -> None:
    """``Port('x')`` runs ``int.__new__``, whose ``ValueError`` no repository raise
    shows; a class of the repository's own or an exception's bases builds with nothing
    run."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "ports.py").write_text(_PORTS)
    index = build_index(open_source(str(tmp_path), repo="o/p"))
    assert not inside(index, ["pkg.ports.to_port"])
    assert inside(index, ["pkg.ports.to_note"])


_CHAIN = "".join(f"def f{i}():\n    f{i + 1}()\n\n" for i in range(6)) + "def f6():\n    pass\n"


def test_every_exact_path_down_must_be_short(tmp_path: Path) -> None:
    """The docstring's rule: each exact path from an exact callee is at most
    ``DEEP_DEPTH`` long, not only the shortest (a linker whose walk went deeper)."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "chain.py").write_text(_CHAIN)
    index = build_index(open_source(str(tmp_path), repo="o/c"))
    names = [f"pkg.chain.f{i}" for i in range(7)]
    linker = SimpleNamespace(
        index=index,
        sites=[SimpleNamespace(function=names[-1], canonical_class="x")],
        by_function={},
        reaches={
            names[0]: {names[-1]: Reach(6, tuple(names), "exact")},
            names[5]: {names[-1]: Reach(1, tuple(names[5:]), "exact")},
        },
        class_key=lambda expect: ((), True),
    )
    short: dict[str, Any] = {names[5]: "exact"}
    assert deep_link(linker, None, short, 0)  # type: ignore[arg-type]
    both: dict[str, Any] = {names[0]: "exact", names[5]: "exact"}
    assert not deep_link(linker, None, both, 0)  # type: ignore[arg-type]
