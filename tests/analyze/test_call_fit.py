"""Keyword-only and positional-only parameters in the fit of a call: a test that passes
a keyword-only parameter by position (or a positional-only one by keyword) meets the
interpreter's ``TypeError``, not the function's own; and a library call that cannot
bind is no way up to a raise."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from errdex.analyze.call_fit import takes
from errdex.analyze.walk import module_facts
from errdex.scan import scan_checkout
from errdex.source import open_source

SIGNATURES = """\
class Archive:
    def __init__(self, name, mode="r", *, level=9):
        pass


def pair(a, b, /, c=0):
    pass


def rest(a, *args, key):
    pass


def loose(a, /, **options):
    pass
"""


def _funcs() -> dict[str, Any]:
    facts = module_facts(SIGNATURES, "sig.py", "sig.py", "sig", is_test=False)
    assert facts is not None
    return {f.name: f for f in facts.functions}


def test_parameters_are_marked_by_kind() -> None:
    funcs = _funcs()
    assert funcs["__init__"].kwonly == ("level",)
    assert funcs["pair"].posonly == ("a", "b")
    assert funcs["rest"].kwonly == ("key",)


def test_a_keyword_only_parameter_takes_no_position() -> None:
    init = _funcs()["__init__"]
    assert takes(init, 2)
    assert takes(init, 1, ["level"])
    assert not takes(init, 3)


def test_a_positional_only_parameter_takes_no_keyword() -> None:
    funcs = _funcs()
    assert takes(funcs["pair"], 2, ["c"])
    assert not takes(funcs["pair"], 1, ["b"])
    assert takes(funcs["loose"], 1, ["a"])  # into ``**options``


def test_a_required_keyword_only_parameter_and_a_value_given_twice() -> None:
    funcs = _funcs()
    assert not takes(funcs["rest"], 3)
    assert takes(funcs["rest"], 3, ["key"])
    assert not takes(funcs["pair"], 3, ["c"])
    assert not takes(funcs["pair"], 2, ["d"])


LIBRARY = """\
class Archive:
    def __init__(self, name, mode="r", *, level=9):
        if not isinstance(name, str):
            raise TypeError("name must be a str")
        self.name = name


def _open(name, mode, level):
    return Archive(name, mode, level)


def open_archive(name, mode="r", level=9):
    return _open(name, mode, level)


def open_kept(name):
    return Archive(name, "r", level=3)
"""

TESTS = """\
import unittest

from pkg.lib import Archive


class ArchiveTests(unittest.TestCase):
    path = None

    def test_level_by_position(self):
        self.assertRaises(TypeError, Archive, self.path, "r", 3)

    def test_bad_name(self):
        self.assertRaises(TypeError, Archive, 1.5)
"""


def _scan(root: Path) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "lib.py").write_text(LIBRARY)
    (root / "tests").mkdir()
    (root / "tests" / "test_lib.py").write_text(TESTS)
    result = scan_checkout(open_source(str(root), repo="o/fit"), repo="o/fit")
    return [(r, ev) for r, ev in result.items if r["lineNumber"] == 4]


def test_a_keyword_only_argument_passed_by_position_links_no_test(tmp_path: Path) -> None:
    """``Archive(self.path, "r", 3)`` fails binding ``level``: only the test passing a
    float name reaches the raise."""
    ((_record, evidence),) = _scan(tmp_path)
    assert [t["name"].rpartition("::")[2] for t in evidence["tests"]] == ["test_bad_name"]


def test_a_library_call_that_cannot_bind_is_no_entry_point(tmp_path: Path) -> None:
    """``_open`` passes ``level`` by position: the interpreter stops it, so neither it
    nor ``open_archive`` above it reaches the raise; ``open_kept`` does."""
    ((record, _evidence),) = _scan(tmp_path)
    text = repr(record["triggerScenarios"])
    assert "open_kept" in text
    assert "open_archive" not in text
    assert "_open" not in text.replace("open_kept", "")
