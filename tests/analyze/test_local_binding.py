"""An assert's "where `_x = …` (line N)" is said only of a local bound once in its
function's own scope (re-reading of d44: ``_n = 0`` then ``_n += 1``, a ``for _item in``
target, a nested ``def``'s own ``_x`` were each quoted as the value)."""

from __future__ import annotations

import ast
from pathlib import Path

from .stdlib_items import one_file_items

ASSERTS = """\
import os


def count(items):
    _n = 0
    for i in items:
        _n += 1
    assert _n < 10, "too many"
    return _n


def last(items):
    _item = None
    for _item in items:
        pass
    assert _item is not None, "empty input"
    return _item


def helper_scope(_x):
    def inner():
        _x = 5
        return _x
    assert _x > 0, "must be positive"
    return inner


def relative(path, top):
    _rel = os.path.relpath(path, top)
    rows = [_rel for _rel in ()]
    assert not _rel.startswith(".."), "outside the top"
    return rows
"""


def _docs(tmp_path: Path) -> dict[str, str]:
    items = one_file_items(tmp_path, "asserts.py", ASSERTS)
    return {str(r["errorMessage"]): str(r["documentation"]) for r, _ in items}


def test_a_local_bound_again_is_not_quoted(tmp_path: Path) -> None:
    docs = _docs(tmp_path)
    for message, test in (
        ("too many", "`_n >= 10`"),
        ("empty input", "`_item is None`"),
        ("must be positive", "`_x <= 0`"),
    ):
        assert f"when {test}" in docs[message], docs[message]
        assert "where" not in docs[message], docs[message]
    # a comprehension's own ``_rel`` is no second binding of the function's
    said = "where `_rel = os.path.relpath(path, top)` (line 29)"
    assert said in docs["outside the top"], docs["outside the top"]


def _function(text: str) -> ast.FunctionDef:
    node = ast.parse(text).body[0]
    assert isinstance(node, ast.FunctionDef)
    return node


def test_every_kind_of_binding_counts() -> None:
    from errdex.analyze.local_binding import sole_assignment  # new here: fails before

    for body in (
        "with f() as _x: pass",
        "(_x := 2)",
        "_x, y = 1, 2",
        "_x: int = 1",
        "del _x",
        "import _x",
        "global _x",
        "try: pass\n    except E as _x: pass",
        "def _x(): pass",
    ):
        func = _function(f"def f():\n    _x = 1\n    {body}\n")
        assert sole_assignment(func, "_x") is None, body
    kept = sole_assignment(_function("def f():\n    _x = 1\n    g = lambda _x: _x\n"), "_x")
    assert kept is not None and kept.lineno == 2
