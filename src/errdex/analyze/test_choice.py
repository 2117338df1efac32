"""Which test links a record lists when more tests expect its error than a record shows.

A record lists at most :data:`MAX_TESTS_PER_SITE` tests (a generic ``TypeError`` check is
expected by dozens of tests; a page and an API answer show the few that explain it best).
Those kept are the best evidenced, in this order: a harvest run saw the test raise here;
the test checks the message and names the site's own class; it checks the message; it
names the class; then the test file nearest the site's module (``test_json/test_decode``
for ``json/decoder.py``); a test that states the expectation itself before one that goes
through a suite's helper; then path and line, so the choice is the same on every scan.
The record says how many more there are (``evidence.testsMore``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from errdex.evidence import TestEvidence

__all__ = ["MAX_TESTS_PER_SITE", "best_tests", "link_rank"]

#: Tests listed per site, at most.
MAX_TESTS_PER_SITE = 10

_WORD = re.compile(r"[a-z0-9]+")


def _words(module: str) -> list[str]:
    """A module's names as a test file would name them: ``_pydecimal`` -> ``decimal``,
    ``json.decoder`` -> ``json``, ``decoder``."""
    out = []
    for part in module.split("."):
        part = part.lstrip("_")
        if part.startswith("py") and len(part) > 4 and part not in ("pydoc", "pyclbr"):
            part = part[2:]  # ``_pyio`` is tested by ``test_io``
        if part and part not in ("__init__", "init"):
            out.append(part.lower())
    return out


def _proximity(path: str, module: str) -> int:
    """0: the test file or its folder is named for the site's module (``test_decimal``,
    ``test_json/``); 1: its path names a part of the module; 2: neither."""
    words = _words(module)
    if not words:
        return 2
    parts = [p.removesuffix(".py").lower() for p in path.split("/")]
    named = {p.removeprefix("test_").removesuffix("_test") for p in parts if "test" in p}
    if words[-1] in named or (len(words) > 1 and words[0] in named):
        return 0
    tokens = {w for p in parts for w in _WORD.findall(p)}
    return 1 if any(w in tokens for w in words) else 2


def link_rank(test: TestEvidence, error_class: str | None, module: str) -> tuple[object, ...]:
    """How well a link is evidenced, lowest first (this module's docstring)."""
    messaged = test.get("match") is not None
    shown = str(test.get("errorClass") or "").rpartition(".")[2]
    exact = error_class is not None and shown == error_class.rpartition(".")[2]
    evidence = (0 if exact else 1) if messaged else (2 if exact else 3)
    return (
        0 if test.get("confirmed") else 1,
        evidence,
        _proximity(test.get("path", ""), module),
        1 if test.get("via") else 0,
        test.get("path", ""),
        test.get("line", 0),
        test.get("name", ""),
    )


def best_tests(
    tests: Sequence[TestEvidence],
    error_class: str | None,
    module: str,
    cap: int = MAX_TESTS_PER_SITE,
) -> tuple[list[TestEvidence], int]:
    """The links to list (in path and line order) and how many more there are."""
    if len(tests) <= cap:
        return list(tests), 0
    ranked = sorted(tests, key=lambda t: link_rank(t, error_class, module))
    kept = sorted(ranked[:cap], key=lambda t: (t.get("path", ""), t.get("line", 0)))
    return kept, len(tests) - cap
