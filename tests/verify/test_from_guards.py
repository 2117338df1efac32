"""Reproducers built from a guard over a public function's parameter, run for real."""

from __future__ import annotations

import ast
from typing import Any

from errdex.store import SqliteStore
from errdex.verify._guard_solver import EMPTY, parse_guards, solve
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


def _verified(tree: Tree, module: str, code: str, test: str) -> dict[str, Any]:
    """The one record of ``acme/MODULE.py`` after a scan and a verify with its test."""
    (tree.root / "acme" / f"{module}.py").write_text(code)
    (tree.root / "tests" / f"test_{module}.py").write_text(test)
    _rescan(tree)
    result = tree.verify()
    assert result.exit_code == 0, result.output
    path = f"acme/{module}.py"
    with SqliteStore(tree.db) as store:
        (env,) = [e for e in store.iter_envelopes(REPO) if e["record"]["filePath"] == path]
    return env


def test_a_guard_made_true_in_a_tests_call_reproduces(tree: Tree) -> None:
    env = _verified(tree, "limits", LIMITS, TEST_LIMITS)
    rep = env["evidence"]["reproducer"]
    assert rep["raised"] == "ValueError: factor must be non-negative, got -1"
    assert rep["site"] == "acme/limits.py:3"
    assert rep["snippet"].endswith("scale(None, -1)")
    assert "(factor=-1 makes `factor < 0` true)" in rep["test"]
    # errdex built that call, no test made it: the call it ran comes first, then the
    # analyst's situation as written (no test is said to expect it)
    text = str(env["record"])
    assert env["record"]["commonSituations"] == (
        "For example, `scale(None, -1)` raises it (errdex ran it). "
        "It comes from a call of `scale()` that passes `factor` as a negative value."
    )
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
    assert shown("len(x) < 2") == ("x", [0])  # a list of a length the guard names
    assert shown("dim != 2") == ("dim", 3)
    assert shown("p > 1 or p < 0") == ("p", 2)
    assert shown("not (d % 2 == 0)") == ("d", 1)
    assert shown("not callable(f)") == ("f", -1)
    assert shown("not isinstance(arrows, bool)") == ("arrows", -1)
    assert shown("b is not None and b not in G") == ("b", MISSING)
    assert shown("a < b") is None  # two unknowns: no value of one decides it
    assert shown("G.is_directed()") is None  # an attribute: errdex has no value for it
    assert shown("f(x) > 0") is None  # a call outside the whitelist is never made


def test_solve_keeps_the_known_values_and_rejects_a_false_guard() -> None:
    guards = parse_guards(["m < 1 or m >= n", "for x in y", "n > 0"])
    assert len(guards) == 2  # the loop is no condition
    assert solve(guards, {"n": 10}, ["m"]) == [("m", 0)]
    assert solve(guards, {"n": -5}, ["m"]) == []  # ``n > 0`` is false whatever m is
    # an argument that is an object, not a literal: an empty one of its type first
    (found,) = solve(parse_guards(["len(G) == 0"]), {}, ["G"], objects=frozenset({"G"}))
    assert found == ("G", EMPTY)


CALLER = """def _check(k):
    if k < 1:
        raise ValueError(f"k must be positive, got {k}")
    return k


def build(size, k=2):
    return [_check(k)] * size
"""

TEST_CALLER = """import pytest

from acme.grow import build


def test_build_needs_a_whole_size():
    with pytest.raises(TypeError):
        build(1.5, k=2)
"""


def test_a_public_caller_that_passes_the_parameter_on_reproduces(tree: Tree) -> None:
    rep = _verified(tree, "grow", CALLER, TEST_CALLER)["evidence"]["reproducer"]
    shown = (rep["raised"], rep["site"], rep["snippet"].splitlines()[-1], rep["test"])
    assert shown == (
        "ValueError: k must be positive, got 0",
        "acme/grow.py:3",
        "build(1.5, k=0)",
        "tests/test_grow.py::test_build_needs_a_whole_size (k=0 makes `k < 1` true)",
    )


def test_the_solver_tries_the_value_another_parameter_is_passed() -> None:
    assert solve(parse_guards(["s == t"]), {"t": "x"}, ["s"]) == [("s", "x")]


BOXES = """class Box:
    def __init__(self, items=()):
        self.items = list(items)

    def is_empty(self):
        return not self.items


def first(box):
    if box.is_empty():
        raise LookupError("the box is empty")
    return box.items[0]
"""

TEST_BOXES = """from acme.boxes import Box, first


def test_first():
    box = Box([1, 2])
    assert first(box) == 1


def test_a_new_box_is_empty():
    box = Box()
    assert box.is_empty()
"""


def test_a_value_the_tests_give_the_name_is_tried_for_a_guard_no_value_decides(
    tree: Tree,
) -> None:
    rep = _verified(tree, "boxes", BOXES, TEST_BOXES)["evidence"]["reproducer"]
    assert rep["raised"] == "LookupError: the box is empty"
    assert rep["site"] == "acme/boxes.py:11"
    assert rep["snippet"].splitlines()[-1] == "first(Box())"
    assert "(box=Box(): a value the tests give `box`, tried for `box.is_empty()`)" in rep["test"]


UNITS = """_UNITS = {"m": 1, "km": 1000}


def to_metres(value, unit="m"):
    try:
        factor = _UNITS[unit]
    except KeyError:
        raise ValueError(f"unknown unit {unit!r}") from None
    return value * factor
"""

TEST_UNITS = """from acme.units import to_metres


def test_km():
    assert to_metres(2, unit="km") == 2000
"""


def test_a_key_no_mapping_holds_for_a_raise_under_a_key_error_handler(tree: Tree) -> None:
    rep = _verified(tree, "units", UNITS, TEST_UNITS)["evidence"]["reproducer"]
    assert rep["raised"] == f"ValueError: unknown unit {MISSING!r}"
    assert rep["site"] == "acme/units.py:8"
    assert rep["snippet"].splitlines()[-1] == f"to_metres(2, unit={MISSING!r})"


def test_a_tests_program_is_parsed_once_for_every_record_that_calls_its_function(
    monkeypatch: Any,
) -> None:
    """Each record left without a reproducer walks the programs calling its function;
    parsing each program again per record was most of the stdlib's time between runs."""
    from errdex.verify import from_guards

    from_guards._parsed.cache_clear()
    parses: list[str] = []
    real = ast.parse

    def counting(source: Any, *args: Any, **kwargs: Any) -> Any:
        parses.append(str(source))
        return real(source, *args, **kwargs)

    monkeypatch.setattr(from_guards.ast, "parse", counting)
    program = "from acme.limits import scale\nscale(None, 3)\n"
    first, again = from_guards._parsed(program), from_guards._parsed(program)
    assert first is again and isinstance(first, ast.Module)
    assert parses.count(program) == 1
    assert from_guards._parsed("def (:\n") is None


def _constructor_env(signature: str, qualname: str, guard: str) -> dict[str, Any]:
    """A record raised in a constructor under the ``if guard``, its only entry point."""
    return {
        "record": {"id": "r1", "filePath": "Lib/box.py", "lineNumber": 5, "errorClass": "E"},
        "evidence": {
            "function": {"signature": signature},
            "site": {
                "qualname": qualname,
                "function": qualname.rsplit(".", 1)[-1],
                "guards": [{"kind": "if", "text": guard, "line": 4}],
            },
            "entryPoints": [{"qualname": qualname, "depth": 0, "precision": "exact"}],
        },
    }


def test_a_constructors_guard_is_met_in_a_call_of_its_class() -> None:
    """``UUID.__init__``'s guard was met in the tests' ``super().__init__(1)`` and a
    ``Fraction.__new__`` guard in ``object.__new__(int)`` (9 runs raising TypeError
    outside the repository, per record); the class's own call is the one to rewrite."""
    from errdex.verify.from_guards import guard_candidates
    from errdex.verify.from_tests import Candidate

    env = _constructor_env("def __init__(self, size=None)", "box.Box.__init__", "size < 0")
    body = "from box import Box\nsuper().__init__(1)\nb = Box(size=3)\nb.fill()"
    source = Candidate(
        body, "Lib/test/test_box.py::test_fill", "Lib/test/test_box.py", 1, "body", False
    )
    programs = [c.program for c in guard_candidates([env], [source])]
    assert programs == ["from box import Box\nsuper().__init__(1)\nBox(size=-1)"]


def test_a_constructors_first_parameter_is_skipped_whatever_its_name() -> None:
    """``weakref.KeyedRef.__new__(type, ob, callback, key)``: ``type`` was read as the
    call's first argument, every argument shifted by one, and ``key`` came as a keyword
    on top of the three given (``KeyedRef(o, None, 3, key=-1)``: TypeError)."""
    from errdex.verify.from_guards import guard_candidates
    from errdex.verify.from_tests import Candidate

    signature = "def __new__(type, ob, callback, key)"
    env = _constructor_env(signature, "weakref.KeyedRef.__new__", "key < 0")
    body = "from weakref import KeyedRef\no = 1\nr = KeyedRef(o, None, 3)"
    source = Candidate(body, "Lib/test/test_w.py::test_k", "Lib/test/test_w.py", 1, "body", False)
    got = [(c.program, c.test) for c in guard_candidates([env], [source])]
    assert got == [
        (
            "from weakref import KeyedRef\no = 1\nKeyedRef(o, None, -1)",
            "Lib/test/test_w.py::test_k (key=-1 makes `key < 0` true)",
        )
    ]
