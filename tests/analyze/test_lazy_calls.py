"""A generator's or coroutine's raise comes when its result is iterated or awaited, not
at the call (issue 10; blind review of stop 39: "Catch FilterArgumentError around the
call to select_or_reject()" false, "It comes from a call of restore()" misleading). Every
sentence that named the call as the place it raises or the place to catch now names the
iteration or the ``await``; a public caller that iterates the generator itself
(``list(g(...))``) is a call that raises, and says so."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

LIBRARY = """\
def restore(delta, which):
    if which not in (1, 2):
        raise ValueError("which must be 1 or 2")
    for line in delta:
        yield line


def _pairs(items):
    for item in items:
        if item is None:
            raise TypeError("an item is None")
        yield item, item


def pairs(items):
    return _pairs(items)


def pair_list(items):
    return list(_pairs(items))


def kept(items):
    held = _pairs(items)
    return held


class Fetcher:
    def _check(self):
        if self.lost:
            raise ConnectionError("connection lost")

    async def fetch(self, url):
        self._check()
        return url
"""


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    root: Path = tmp_path_factory.mktemp("lazy")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "core.py").write_text(LIBRARY)
    result = scan_checkout(open_source(str(root), repo="o/lazy"), repo="o/lazy")
    return {r["errorMessage"]: {**r, "_evidence": e} for r, e in result.items}


def test_a_generator_function_raises_when_iterated(records: dict[str, dict[str, Any]]) -> None:
    r = records["which must be 1 or 2"]
    assert r["commonSituations"].startswith(
        "It comes from iterating the result of a call of `restore()`"
    ), r["commonSituations"]
    assert (
        "`restore()` is a generator function: a call of it only makes a generator"
        in (r["triggerScenarios"])
    )
    assert "iterating the call's result raises `ValueError`" in " ".join(r["solutions"])


def test_a_generator_handed_on_is_said_of_the_public_call(
    records: dict[str, dict[str, Any]],
) -> None:
    r = records["an item is None"]
    said = r["commonSituations"]
    # pairs() returns the generator: its result raises; pair_list() iterates it: its call does
    assert "iterating the result of a call of `pairs()`" in said, said
    assert "a call of `pair_list()`" in said and "result of a call of `pair_list()`" not in said
    assert "`pairs()` returns a generator that reaches it" in r["triggerScenarios"]


def test_a_coroutine_is_caught_around_the_await(records: dict[str, dict[str, Any]]) -> None:
    r = records["connection lost"]
    assert "awaiting a call of `Fetcher.fetch()`" in r["commonSituations"], r["commonSituations"]
    catch = [s for s in r["solutions"] if s.startswith("Catch")]
    assert catch and "around the `await` of `Fetcher.fetch()`" in catch[0], r["solutions"]
    assert "around the call to" not in " ".join(r["solutions"])
