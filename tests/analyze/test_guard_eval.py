"""A guard on a caller's known values: false only when it is surely false."""

from __future__ import annotations

import pytest

from errdex.analyze.guard_eval import guard_value


@pytest.mark.parametrize(
    ("guard", "known", "expected"),
    [
        ("mode not in ('r', 'w', 'a')", {"mode": "r"}, False),
        ("mode not in ('r', 'w', 'a')", {"mode": "x"}, True),
        ("level < 0", {"level": -1}, True),
        ("0 <= level <= 9", {"level": 12}, False),
        ("strict and len(buf) != BLOCK", {"strict": False}, False),
        ("strict and len(buf) != BLOCK", {"strict": True}, None),  # buf, BLOCK unknown
        ("not silent", {"silent": True}, False),
        ("x is None or y", {"x": 3}, None),
        ("x is None or y", {"x": None}, True),
        ("isinstance(n, (int, float))", {"n": "3"}, False),
        ("isinstance(n, MyType)", {"n": 3}, None),  # not a builtin type
        ("name < 3", {"name": "a"}, None),  # str < int raises: undecided, not false
        ("len(s) == 0", {"s": ""}, True),
        ("len(items) == 0", {}, None),
        ("x is 300", {"x": 300}, None),  # identity of ints is the interpreter's business
        ("f(x)", {"x": 1}, None),
        ("not (", {"x": 1}, None),  # does not parse
        # zipfile.ZipInfo.__init__(filename, date_time=(1980, 1, 1, 0, 0, 0))
        ("date_time[0] < 1980", {"date_time": (1980, 1, 1, 0, 0, 0)}, False),
        ("date_time[0] < 1980", {"date_time": ()}, None),  # IndexError: undecided
        ("mode[:1] != 'r'", {"mode": "rb"}, False),
        # imp.load_module: ``mode and (not mode.startswith('r') or '+' in mode)``
        ("mode and (not mode.startswith('r') or '+' in mode)", {"mode": "rb"}, False),
        ("mode and (not mode.startswith('r') or '+' in mode)", {"mode": "r+"}, True),
        ("name.isidentifier()", {"name": "1x"}, False),
        ("s.index('z') > 0", {"s": "ab"}, None),  # ValueError: undecided
        ("name.format(x)", {"name": "a"}, None),  # not a pure method here
        ("path.exists()", {"path": "a"}, None),  # not a str method at all
        ("l % 8 or n", {"l": 16, "n": 0}, False),
        ("'%s' % x", {"x": 1}, None),  # formatting is not arithmetic
        ("s + s", {"s": "a" * 6000}, None),  # too large to build
    ],
)
def test_guard_value(guard: str, known: dict[str, object], expected: bool | None) -> None:
    assert guard_value(guard, known) is expected


def test_a_shadowed_builtin_is_unknown() -> None:
    assert guard_value("len(x) > 2", {"x": "abc", "len": 0}) is None
