"""The argument errors of each form of Cython signature (:mod:`errdex.extract.cython.signature`).

Every expected message below is what Cython 3.3.1 printed for the same code, compiled and
called wrongly (``s() takes exactly 2 positional arguments (1 given)`` for ``P().s()``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from errdex.extract.cython import arguments, extract_cython
from errdex.extract.cython.arguments import NOTE

PYX = textwrap.dedent(
    """\
    cdef class K:
        @staticmethod
        def s(K a, b):
            return a
        @property
        def q(self):
            return 1
        @q.setter
        def q(self, v):
            pass
        def m(self, a, /):
            return a

    class P:
        def s(self, a):
            return a
        @staticmethod
        def st(a):
            return a

    def one(a, /):
        return a

    cpdef const char* g(x):
        raise ValueError("boom")

    class Q:
        @property
        def position(self):
            return 1
    """
)
#: Each function's generated messages, by the line its node starts at (a decorator's).
EXPECTED = {
    2: [
        "s() takes exactly 2 positional arguments ({given} given)",
        "s() got an unexpected keyword argument '{kw}'",
        "s() got multiple values for keyword argument '{kw}'",
        "Argument 'a' has incorrect type (expected pkg.m.K, got {type})",
    ],
    11: ["m() takes exactly one argument ({given} given)", "m() takes no keyword arguments"],
    15: [
        "s() takes exactly 2 positional arguments ({given} given)",
        "s() got an unexpected keyword argument '{kw}'",
        "s() got multiple values for keyword argument '{kw}'",
    ],
    17: [
        "st() takes exactly 1 positional argument ({given} given)",
        "st() got an unexpected keyword argument '{kw}'",
        "st() got multiple values for keyword argument '{kw}'",
    ],
    21: ["one() takes exactly one argument ({given} given)", "one() takes no keyword arguments"],
    24: [
        "g() takes exactly 1 positional argument ({given} given)",
        "g() got an unexpected keyword argument '{kw}'",
        "g() got multiple values for keyword argument '{kw}'",
    ],
}


def _generated(text: str) -> dict[int, list[str]]:
    found: dict[int, list[str]] = {}
    for s in extract_cython(text, "pkg/m.pyx", arguments=True):
        if NOTE in s.notes:
            found.setdefault(s.line, []).append(s.template.display)
    return found


def unread_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """The signature of every function named ``one`` is not read (AttributeError: args)."""
    real = arguments._templates

    def broken(node: object, *args: object) -> list[object]:
        if getattr(node, "name", None) == "one":
            raise AttributeError("args")
        return real(node, *args)

    monkeypatch.setattr(arguments, "_templates", broken)


def test_each_form_of_signature_gives_what_cython_prints() -> None:
    """A static method and a Python class's methods count every argument; one positional-only
    argument is METH_O; a property's getter or setter raises nothing; a cpdef returning a pointer is
    read under its pointer declarator, and the file's own raise stays."""
    assert _generated(PYX) == EXPECTED
    raises = [s for s in extract_cython(PYX, "pkg/m.pyx", arguments=True) if NOTE not in s.notes]
    assert [s.template.display for s in raises] == ["boom"]


def test_the_keywords_directive_makes_one_argument_meth_o() -> None:
    """``always_allow_keywords=False`` in the file's header or on the function: Cython 3.3.1
    printed ``one() takes exactly one argument (0 given)``, ``one() takes no keyword
    arguments``; two arguments parse as before (``three(1, b=2)`` ran)."""
    text = (
        "# cython: language_level=3, always_allow_keywords=False\n"
        "def one(a):\n    return a\n"
        "def three(a, b):\n    return a\n"
    )
    assert _generated(text) == {
        2: ["one() takes exactly one argument ({given} given)", "one() takes no keyword arguments"],
        4: [
            "three() takes exactly 2 positional arguments ({given} given)",
            "three() got an unexpected keyword argument '{kw}'",
            "three() got multiple values for keyword argument '{kw}'",
        ],
    }
    decorated = "cimport cython\n@cython.always_allow_keywords(False)\ndef two(a):\n    return a\n"
    assert _generated(decorated) == {
        2: ["two() takes exactly one argument ({given} given)", "two() takes no keyword arguments"]
    }


def test_a_signature_not_read_costs_its_own_sites_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """A function whose parsing this module cannot read is counted and left out; the file's
    raises and the other functions' sites stay."""
    unread_one(monkeypatch)
    before = arguments.SKIPPED["one"]
    found = _generated(PYX)
    assert 21 not in found and found[24] == EXPECTED[24]
    assert arguments.SKIPPED["one"] == before + 1


def test_a_tree_not_walked_costs_the_argument_sites_only(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> list[object]:
        raise AttributeError("declarator")

    monkeypatch.setattr(arguments, "_functions", broken)
    before = arguments.SKIPPED["pkg/m.pyx"]
    sites = extract_cython(PYX, "pkg/m.pyx", arguments=True)
    assert [s.template.display for s in sites] == ["boom"]
    assert arguments.SKIPPED["pkg/m.pyx"] == before + 1


def test_a_scan_counts_and_names_the_parts_it_left_out(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The scan's summary names a function whose argument errors were left out, beside the
    skipped files (which it named before: an unparsable ``.pyx``)."""
    import json

    from click.testing import CliRunner

    from errdex.cli import main

    unread_one(monkeypatch)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.pyx").write_text(PYX)
    (tmp_path / "pkg" / "bad.pyx").write_text("def f(:\n    raise ValueError('x')\n")
    args = [str(tmp_path), "--repo", "o/pkg", "--db", str(tmp_path / "e.db"), "--no-cache"]
    out = CliRunner().invoke(main, ["scan", *args, "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.stdout)
    assert [s["path"] for s in data["skipped"]] == ["pkg/bad.pyx"]
    (part,) = data["partsLeftOut"]
    assert part["path"] == "pkg/m.pyx"
    assert "argument errors of one() at line 21 not read (AttributeError: args)" in part["what"]
    text = CliRunner().invoke(main, ["scan", *args]).output
    assert "parts of read files left out" in text and "pkg/m.pyx: Cython" in " ".join(text.split())
