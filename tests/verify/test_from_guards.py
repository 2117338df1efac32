"""Reproducers built from a guard over a public function's parameter, run for real."""

from __future__ import annotations

import ast

from errdex.analyze.fields import NO_TEST_FOUND
from errdex.store import SqliteStore
from errdex.verify.from_guards import MISSING, violating_value

from .conftest import REPO, Tree
from .test_test_cases import _rescan

LIMITS = """\
def scale(x, factor=2):
    if factor < 0:
        raise ValueError(f"factor must be non-negative, got {factor}")
    return x * factor
"""

TEST_LIMITS = """\
import pytest

from acme.limits import scale


def test_scale_needs_a_number():
    with pytest.raises(TypeError):
        scale(None, 3)
"""


def test_a_guard_made_true_in_a_tests_call_reproduces(tree: Tree) -> None:
    (tree.root / "acme" / "limits.py").write_text(LIMITS)
    (tree.root / "tests" / "test_limits.py").write_text(TEST_LIMITS)
    _rescan(tree)
    result = tree.verify()
    assert result.exit_code == 0, result.output
    with SqliteStore(tree.db) as store:
        (env,) = [
            e for e in store.iter_envelopes(REPO) if e["record"]["filePath"] == "acme/limits.py"
        ]
    rep = env["evidence"]["reproducer"]
    assert rep["raised"] == "ValueError: factor must be non-negative, got -1"
    assert rep["site"] == "acme/limits.py:3"
    assert rep["snippet"].endswith("scale(None, -1)")
    assert "guard `factor < 0` made true" in rep["test"]
    # errdex built that call: the analyst's "no test expects it" stays true and is kept
    text = str(env["record"])
    assert NO_TEST_FOUND.split("{noun}")[0] in text  # the analyst's own sentence, as written
    assert "ran the statements it needs" not in text


def test_violating_values() -> None:
    def shown(guard: str) -> tuple[str, object] | None:
        found = violating_value(guard)
        return None if found is None else (found[0], ast.literal_eval(found[1]))

    assert shown("n < 0") == ("n", -1)
    assert shown("n >= 10") == ("n", 10)
    assert shown("k > 2.5") == ("k", 3.5)
    assert shown("mode == 'x'") == ("mode", "x")
    assert shown("t not in G") == ("t", MISSING)
    assert shown("flag < True") is None
    assert shown("len(x) < 2") is None
    assert shown("a < b") is None
