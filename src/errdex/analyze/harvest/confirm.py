"""Test links confirmed by running them: the linked test raised at this very site.

The static analyst links a test to a site by reading it (:mod:`errdex.analyze.tests_evidence`);
a harvest run shows which tests really made each site raise. A link whose test is among
those is marked ``confirmed``; the others stay as read, neither confirmed nor denied
(the run may not have collected that test).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["confirm_links", "same_test"]


def _parts(node_id: str) -> tuple[str, str]:
    """``tests/test_x.py::TestA::test_b[1-2]`` -> (``tests/test_x.py``, ``TestA::test_b``)."""
    path, _, rest = node_id.partition("::")
    bracket = rest.find("[")
    return path.replace("\\", "/"), rest if bracket < 0 else rest[:bracket]


def same_test(linked: str, ran: str) -> bool:
    """Whether a node id from a run names the linked test (parameters aside; the run's
    paths may be relative to another root, so one path must end the other)."""
    linked_path, linked_name = _parts(linked)
    ran_path, ran_name = _parts(ran)
    if linked_name != ran_name or not linked_name:
        return False
    short, long = sorted((linked_path, ran_path), key=len)
    return long == short or long.endswith("/" + short)


def confirm_links(
    tests: Iterable[dict[str, Any]], ran: Iterable[str]
) -> tuple[list[dict[str, Any]], int]:
    """``tests`` with each one that a run saw raise at the site marked ``confirmed``, and
    how many were newly confirmed."""
    seen = [r for r in ran if r]
    out: list[dict[str, Any]] = []
    newly = 0
    for test in tests:
        test = dict(test)
        if not test.get("confirmed") and any(same_test(str(test.get("name", "")), r) for r in seen):
            test["confirmed"] = True
            newly += 1
        out.append(test)
    return out, newly
