"""A message picked from a literal table by subscript is one of the table's values
(extract/python/picked.py): httpx's AsyncClient.__aenter__ shape, run here, prints one of
the two texts, and each is a template of the site."""

from __future__ import annotations

import textwrap

import pytest

from errdex.extract.python import extract_python

CODE = textwrap.dedent(
    """\
    import enum

    class State(enum.Enum):
        UNOPENED = 1
        OPENED = 2
        CLOSED = 3

    class Client:
        def __init__(self, state):
            self._state = state

        def __enter__(self):
            if self._state != State.UNOPENED:
                msg = {
                    State.OPENED: "Cannot open a client instance more than once.",
                    State.CLOSED: (
                        "Cannot reopen a client instance, once it has been closed."
                    ),
                }[self._state]
                raise RuntimeError(msg)

    def pick(kind, n):
        raise ValueError(("bad a", f"bad b {n}")[kind])

    def merged(kind, base):
        raise ValueError({**base, "a": "bad a"}[kind])
    """
)


def _printed(call: str) -> str:
    space: dict[str, object] = {}
    exec(compile(CODE, "m.py", "exec"), space)
    with pytest.raises(Exception) as caught:
        exec(call, space)
    return str(caught.value)


def test_each_value_of_the_table_is_a_template() -> None:
    sites = extract_python(CODE, "m.py", module="m")
    at = {}
    for site in sites:
        at.setdefault(site.line, []).append(site.template)
    printed = [
        _printed("Client(State.OPENED).__enter__()"),
        _printed("Client(State.CLOSED).__enter__()"),
    ]
    assert {t.display for t in at[20]} == set(printed)
    for text in printed:
        assert sum(t.match(text) is not None for t in at[20]) == 1
    assert all(t.match("anything at all") is None for t in at[20])
    assert [t.match(_printed("pick(1, 7)")) is not None for t in at[23]] == [False, True]


def test_an_open_table_stays_one_hole() -> None:
    (site,) = [s for s in extract_python(CODE, "m.py", module="m") if s.line == 26]
    assert site.template.match("anything at all") is not None
