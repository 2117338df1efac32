"""Templates as the runtime prints them: each site's template must match ``str()`` of the
exception that its raise really raises (the fixture's functions are run to get it)."""

from __future__ import annotations

import textwrap
from typing import Any

from errdex.extract.python import extract_python

GROUPS = """\
class Collector:
    def __init__(self):
        self.errors = []

    def finalize(self, msg):
        if self.errors:
            raise ExceptionGroup(msg, self.errors)


def two(msg):
    raise ExceptionGroup(msg, [ValueError("a"), KeyError("b")])


def one():
    raise BaseExceptionGroup("one failed", [ValueError("a")])
"""


def _sites(code: str) -> dict[int, Any]:
    return {s.line: s for s in extract_python(textwrap.dedent(code), "m.py", module="m")}


def _raised(code: str, call: str) -> BaseException:
    scope: dict[str, Any] = {}
    exec(compile(textwrap.dedent(code), "m.py", "exec"), scope)
    try:
        exec(call, scope)
    except BaseException as exc:  # noqa: BLE001 - whatever it raises is what we check
        return exc
    raise AssertionError(f"{call} raised nothing")


def _prints(site: Any, exc: BaseException) -> bool:
    return site.template.match(str(exc)) is not None


def test_exception_groups_print_their_count_of_sub_exceptions() -> None:
    sites = _sites(GROUPS)
    collector = _raised(
        GROUPS, "c = Collector(); c.errors = [ValueError('x')]; c.finalize('data was invalid')"
    )
    many = _raised(GROUPS, "c = Collector(); c.errors = [ValueError(), KeyError()]; c.finalize('m')")
    assert str(collector) == "data was invalid (1 sub-exception)"
    assert _prints(sites[7], collector) and _prints(sites[7], many)
    assert sites[7].template.match("('data was invalid', [ValueError('x')])") is None
    assert sites[11].template.display == "{msg} (2 sub-exceptions)"
    assert _prints(sites[11], _raised(GROUPS, "two('both')"))
    assert sites[15].template.display == "one failed (1 sub-exception)"
