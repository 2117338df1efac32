"""Why a record's calls built from its guards gave no reproducer: what they did instead.

A record with no reproducer used to say only "no snippet from the tests raised at this
site", whether errdex built no call for it or built nine that all raised
``ModuleNotFoundError`` in an import the sandbox's interpreter lacks. The runs of the
calls built for a record (:mod:`.from_guards`) are summed up here, the most common
outcome first, so the reason says where the calls went: raised elsewhere (class, the
innermost frame inside the repository, the message), returned, timed out or crashed.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from .from_tests import Candidate
from .sandbox import RunResult
from .sites import RepoSites

__all__ = ["MISSED", "miss_kind", "missed"]

#: The start of every reason :func:`missed` gives (the summary counts records by it).
MISSED = "errdex's calls built from its guards did not raise here"


def miss_kind(result: RunResult) -> str:
    """One run's outcome in a word or two: ``raised ModuleNotFoundError``, ``returned``."""
    if result.status == "raised":
        return f"raised {(result.error_class or '?').rsplit('.', 1)[-1]}"
    return {"ok": "returned"}.get(result.status, result.status.replace("timeout", "timed out"))


def _where(result: RunResult, sites: RepoSites) -> str:
    found = sites.innermost(result.frames)
    if found is None:
        return " outside the repository"
    return f" at {found[0]}:{found[1]}"


def missed(runs: Iterable[tuple[Candidate, RunResult]], sites: RepoSites) -> tuple[str, str] | None:
    """(the most common outcome, the reason) for a record whose ``runs`` (the calls built
    for it) raised nowhere near it: how many ran and what the most common outcomes were,
    the first with where and its message; None when none ran."""
    kinds: Counter[str] = Counter()
    first: dict[str, RunResult] = {}
    for _, result in runs:
        kind = miss_kind(result)
        kinds[kind] += 1
        first.setdefault(kind, result)
    if not kinds:
        return None
    parts = []
    for kind, n in kinds.most_common(3):
        result = first[kind]
        said = f"{n} {kind}"
        if result.status == "raised":
            message = (result.message or "").strip().splitlines()[:1]
            said += _where(result, sites) + (f" ({message[0][:120]})" if message else "")
        parts.append(said)
    reason = f"{MISSED}: {sum(kinds.values())} ran; " + ", ".join(parts)
    return kinds.most_common(1)[0][0], reason
