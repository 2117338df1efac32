"""A helper's own tests before it raises, said in the call's terms (stop-39 paired
review: ``_pydecimal``'s ``Context._raise_error`` raises only when the trap is set)."""

from __future__ import annotations

from pathlib import Path

from errdex.scan import scan_checkout
from errdex.source import open_source

DEC = '''\
class DivisionByZero(ZeroDivisionError):
    """Division by 0."""


class InvalidOperation(ArithmeticError):
    """Bad."""


class DivisionUndefined(InvalidOperation):
    """Undefined."""


_condition_map = {DivisionUndefined: InvalidOperation}


class Context:
    def __init__(self, traps=()):
        self.traps = {DivisionByZero: DivisionByZero in traps, InvalidOperation: True}
        self.flags = {}
        self._ignored_flags = []

    def _raise_error(self, condition, explanation=None, *args):
        """Handles an error."""
        error = _condition_map.get(condition, condition)
        if error in self._ignored_flags:
            return error()

        self.flags[error] = 1
        if not self.traps[error]:
            return condition()

        raise error(explanation)


class Number:
    def __init__(self, v):
        self.v = v

    def floordiv(self, other, context=None):
        """self // other"""
        if context is None:
            context = Context()
        if not other.v:
            if self.v:
                return context._raise_error(DivisionByZero, 'x // 0', self.v)
            else:
                return context._raise_error(DivisionUndefined, '0 // 0')
        return Number(self.v // other.v)
'''


def test_the_trap_is_part_of_the_condition(tmp_path: Path) -> None:
    (tmp_path / "dec.py").write_text(DEC)
    result = scan_checkout(open_source(str(tmp_path), repo="o/t"), repo="o/t")
    by_line = {r["lineNumber"]: r for r, _ in result.items}
    zero = by_line[45]
    assert zero["errorClass"] == "DivisionByZero"
    said = (
        "and then only if `context.traps[DivisionByZero]` (tested by the helper"
        " `_raise_error`, with another condition over private names)"
    )
    assert said in zero["triggerScenarios"], zero["triggerScenarios"]
    assert said in zero["documentation"]
    # the class the helper raises is the mapped one: its trap is the one tested
    undefined = by_line[47]
    assert "`context.traps[InvalidOperation]`" in undefined["triggerScenarios"]


STATEFUL = """\
class Err(Exception):
    pass


class Ctx:
    def __init__(self):
        self.count = 0
        self.traps = {}
        self.flags = {}

    def _fail(self, cls, msg):
        error = cls
        self.count += 1
        if self.count < 3:
            return None
        raise error(msg)

    def _trap(self, cls, msg):
        error = cls
        self.traps[error] = True
        if not self.traps[error]:
            return None
        raise error(msg)

    def _flagged(self, cls, msg):
        error = cls
        self.flags[error] = True
        if not self.traps[error]:
            return None
        raise error(msg)

    def run(self, x):
        if x:
            return self._fail(Err, "bad")
        return 0

    def run2(self, x):
        if x:
            return self._trap(Err, "bad")
        return 0

    def run3(self, x):
        if x:
            return self._flagged(Err, "bad")
        return 0
"""


def test_a_store_the_test_reads_drops_the_helper_s_condition(tmp_path: Path) -> None:
    # ``self.count += 1`` before ``if self.count < 3`` is not "when self.count >= 3" at
    # the call, and ``self.traps[error] = True`` makes the test always pass (rr5, f4.py)
    (tmp_path / "ctx.py").write_text(STATEFUL)
    result = scan_checkout(open_source(str(tmp_path), repo="o/t"), repo="o/t")
    by_line = {r["lineNumber"]: r for r, _ in result.items}
    for line in (34, 39):
        said = by_line[line]["triggerScenarios"] + by_line[line]["documentation"]
        assert "tested by the helper" not in said, said
    # a store to another attribute leaves the test as it was
    assert "`self.traps[Err]` (tested by the helper `_flagged`)" in by_line[44]["triggerScenarios"]
