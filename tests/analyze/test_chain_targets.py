"""The chains' call targets carried by file from the last scan: reused for an unchanged
file when the context they were resolved in is the same, resolved again otherwise."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

from errdex.analyze.chain_targets import CONTEXT, CarriedTargets
from errdex.analyze.facts import FuncFacts
from errdex.analyze.repo import Carried


def _func(path: str, sites: int) -> FuncFacts:
    return cast(
        FuncFacts, SimpleNamespace(qualname="m.f", line=1, path=path, call_sites=[object()] * sites)
    )


def _resolve(calls: list[Any]) -> Any:
    def resolve(site: Any) -> list[tuple[str, str | None]]:
        calls.append(site)
        return [("m.g", None)]

    return resolve


def test_an_unchanged_files_targets_are_the_last_scans() -> None:
    last = {CONTEXT: ("ctx",), "a.py": {("m.f", 1): ([("m.old", None)],)}}
    carried = Carried(frozenset({"b.py"}), {}, last_targets=last)
    targets = CarriedTargets(carried, ("ctx",))
    calls: list[Any] = []
    assert targets.of(_func("a.py", 1), _resolve(calls)) == ([("m.old", None)],)
    assert calls == []
    assert targets.of(_func("b.py", 2), _resolve(calls)) == ([("m.g", None)], [("m.g", None)])
    assert len(calls) == 2
    assert carried.targets is not None and set(carried.targets) == {CONTEXT, "a.py", "b.py"}


def test_a_changed_context_or_a_change_not_local_resolves_every_call() -> None:
    last = {CONTEXT: ("ctx",), "a.py": {("m.f", 1): ([("m.old", None)],)}}
    for carried, context in (
        (Carried(frozenset(), {}, last_targets=last), ("another subclass",)),
        (Carried(None, {}, last_targets=last), ("ctx",)),
    ):
        calls: list[Any] = []
        found = CarriedTargets(carried, context).of(_func("a.py", 1), _resolve(calls))
        assert found == ([("m.g", None)],) and len(calls) == 1
