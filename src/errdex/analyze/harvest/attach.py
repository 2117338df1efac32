"""Map captured runtime messages onto records: the raising frame's file and line -> records.

A capture belongs to the record at its raising frame's ``(filePath, lineNumber)`` whose
``messagePattern`` fully matches the message; the hole values come from that match. A
message that no record at its site matches, although a record of its class sits there,
is an extractor bug (the pattern is wrong) and is reported, not attached.
"""

from __future__ import annotations

import functools
import linecache
import os
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import re2

from errdex.evidence import Observed
from errdex.source import Checkout
from errdex.template import MessageTemplate

from .collect import Capture
from .confirm import confirm_links

__all__ = [
    "MAX_OBSERVED",
    "MAX_STORED_MESSAGE",
    "AttachResult",
    "Mismatch",
    "RepoLayout",
    "Unplaced",
    "attach",
    "summary_counts",
]

#: Distinct observed messages kept per record, the most frequent first.
MAX_OBSERVED = 5
#: Longer messages are checked against the pattern but not stored.
MAX_STORED_MESSAGE = 2000

_INSTALLED = frozenset({"site-packages", "dist-packages"})
#: A source line that is itself a raise/assert/warn: no record there is an extractor miss.
_SITE_LINE = re.compile(r"^\s*(?:raise\b|assert\b)|\bwarn(?:_explicit)?\(")

Envelope = dict[str, Any]
HoleMatcher = Callable[[str], dict[str, str] | None]


@dataclass(frozen=True)
class RepoLayout:
    """Which files on disk are the scanned repository, and their ``filePath`` in records.

    ``tops`` (installed packages only) are the distribution's top-level names: the
    checkout root is then site-packages, and only those entries under it are the repo.
    """

    root: Path
    path_prefix: str = ""
    tops: frozenset[str] | None = None

    @classmethod
    def from_checkout(cls, checkout: Checkout) -> RepoLayout:
        tops = (
            frozenset(PurePosixPath(f).parts[0] for f in checkout.files)
            if checkout.files is not None
            else None
        )
        return cls(Path(os.path.realpath(checkout.root)), checkout.path_prefix, tops)

    def roots(self) -> list[Path]:
        """Directories (or module files) the plugin treats as the target's code."""
        if self.tops is None:
            return [self.root]
        return [self.root / top for top in sorted(self.tops)]

    def file_path(self, filename: str) -> str | None:
        """``filePath`` as records spell it, or None for a file outside the repository."""
        return _file_path(self, filename)


@functools.lru_cache(maxsize=8192)
def _file_path(layout: RepoLayout, filename: str) -> str | None:
    if not os.path.isabs(filename):
        return None
    real = Path(os.path.realpath(filename))
    try:
        rel = real.relative_to(layout.root)
    except ValueError:
        return None
    parts = rel.parts
    if not parts or _INSTALLED.intersection(parts):
        return None
    if layout.tops is not None and parts[0] not in layout.tops:
        return None
    return layout.path_prefix + rel.as_posix()


@dataclass
class Mismatch:
    """Distinct message that its site's records failed to match (an extractor bug)."""

    file_path: str
    line: int
    error_class: str
    message: str
    records: list[dict[str, Any]]  # id, errorClass, errorMessage, messagePattern, style
    tests: list[str] = field(default_factory=list)
    count: int = 0


@dataclass
class Unplaced:
    """A raising frame in the repository with no record at its line."""

    file_path: str
    line: int
    source: str
    error_class: str
    message: str
    count: int = 0


@dataclass
class AttachResult:
    """What ``attach`` did with each capture, and the evidence updates to write."""

    captures: int = 0
    attached: int = 0
    by_range: int = 0  # attached to a multi-line statement's record through its end line
    outside: int = 0  # no raising frame inside the repository
    unscanned: int = 0  # raised in a repository file without records (tests, helpers)
    underneath: int = 0  # a repo line with no raise: builtin or C code under it raised
    truncated: int = 0  # too long to check
    mismatches: list[Mismatch] = field(default_factory=list)
    class_differs: list[Mismatch] = field(default_factory=list)
    missed: list[Unplaced] = field(default_factory=list)  # raise lines without a record
    records_total: int = 0
    confirmed: int = 0  # test links newly confirmed: the linked test raised at the site
    #: Record id -> node ids of the tests whose run raised there and passed
    #: (analyze.harvest.confirm).
    ran: dict[str, set[str]] = field(default_factory=dict)
    observed: dict[str, list[Observed]] = field(default_factory=dict)
    updates: list[tuple[dict[str, Any], dict[str, Any]]] = field(default_factory=list)

    @property
    def mismatched(self) -> int:
        """Captures (not distinct messages) that failed their own record's pattern."""
        return sum(m.count for m in self.mismatches)


def _short(name: str | None) -> str:
    return (name or "").rsplit(".", 1)[-1]


def _class_fits(envelope: Envelope, error_class: str) -> bool:
    """The record may raise ``error_class``: same name, same qualified name, or unknown."""
    record = envelope["record"]
    declared = record.get("errorClass")
    if not declared:
        return True
    qualified = envelope["evidence"].get("site", {}).get("qualifiedClass")
    return _short(declared) == _short(error_class) or qualified == error_class


def _compile(pattern: str) -> Callable[[str], tuple[str, ...] | None]:
    """Full match in RE2 (linear time); Python ``re`` with DOTALL when RE2 refuses it."""
    try:
        compiled = re2.compile(pattern)

        def run_re2(message: str) -> tuple[str, ...] | None:
            m = compiled.fullmatch(message)
            return None if m is None else tuple(g or "" for g in m.groups())

        return run_re2
    except re2.error:
        fallback = re.compile(pattern, re.DOTALL)

        def run_re(message: str) -> tuple[str, ...] | None:
            m = fallback.fullmatch(message)
            return None if m is None else tuple(g or "" for g in m.groups())

        return run_re


def _matcher(envelope: Envelope) -> HoleMatcher:
    """Hole values by name when a message fits the record's pattern, else None."""
    run = _compile(envelope["record"]["messagePattern"])
    template = envelope["evidence"].get("site", {}).get("template")
    names = [h.name for h in MessageTemplate.from_json(template).holes] if template else []

    def match(message: str) -> dict[str, str] | None:
        groups = run(message)
        if groups is None:
            return None
        keys = names if len(names) == len(groups) else [str(i) for i in range(len(groups))]
        holes: dict[str, str] = {}
        for key, value in zip(keys, groups, strict=True):
            holes.setdefault(key, value)
        return holes

    return match


def _describe(envelope: Envelope) -> dict[str, Any]:
    record = envelope["record"]
    return {
        "id": record["id"],
        "errorClass": record.get("errorClass"),
        "errorMessage": record["errorMessage"],
        "messagePattern": record["messagePattern"],
        "style": envelope["evidence"].get("site", {}).get("style"),
    }


class _Index:
    """Records of one repository by site, and by file for end-line lookups."""

    def __init__(self, envelopes: Iterable[Envelope]) -> None:
        self.at: dict[tuple[str, int], list[Envelope]] = {}
        self.by_file: dict[str, list[Envelope]] = {}
        self.by_id: dict[str, Envelope] = {}
        self._matchers: dict[str, HoleMatcher] = {}
        for envelope in envelopes:
            record = envelope["record"]
            key = (record["filePath"], int(record["lineNumber"]))
            self.at.setdefault(key, []).append(envelope)
            self.by_file.setdefault(record["filePath"], []).append(envelope)
            self.by_id[record["id"]] = envelope

    def spanning(self, file_path: str, line: int) -> list[Envelope]:
        """Records whose statement (``lineNumber``..``endLine``) contains ``line``."""
        found = []
        for envelope in self.by_file.get(file_path, ()):
            start = int(envelope["record"]["lineNumber"])
            end = int(envelope["evidence"].get("site", {}).get("endLine") or start)
            if start < line <= end:
                found.append(envelope)
        return found

    def matcher(self, envelope: Envelope) -> HoleMatcher:
        rid = envelope["record"]["id"]
        if rid not in self._matchers:
            self._matchers[rid] = _matcher(envelope)
        return self._matchers[rid]


class _Observations:
    """Distinct messages per record with counts and the first test that showed each."""

    def __init__(self) -> None:
        self.seen: dict[str, dict[str, Observed]] = {}

    def add(self, rid: str, message: str, holes: dict[str, str], test: str | None) -> None:
        per_record = self.seen.setdefault(rid, {})
        entry = per_record.get(message)
        if entry is None:
            per_record[message] = Observed(message=message, holes=holes, test=test, count=1)
        else:
            entry["count"] = entry.get("count", 0) + 1

    def capped(self, cap: int) -> dict[str, list[Observed]]:
        out: dict[str, list[Observed]] = {}
        for rid, per_record in self.seen.items():
            ranked = sorted(per_record.values(), key=lambda o: -o.get("count", 0))
            out[rid] = ranked[:cap]
        return out


def _source_line(filename: str, line: int) -> str:
    return linecache.getline(filename, line).strip()


def attach(
    captures: Sequence[Capture],
    envelopes: Iterable[Envelope],
    layout: RepoLayout,
    *,
    cap: int = MAX_OBSERVED,
    failed: Iterable[str] = (),
) -> AttachResult:
    """Place every capture on its record; collect the ``evidence.observed`` updates.

    A record that gets observations has its ``observed`` replaced (a second harvest of
    the same tests gives the same evidence, not doubled counts); other records and every
    other evidence key are left as they are. A test in ``failed`` confirms no link: its
    expectation took the error, but the test did not pass.
    """
    index = _Index(envelopes)
    result = AttachResult(captures=len(captures), records_total=len(index.by_id))
    observations = _Observations()
    ran = result.ran
    mismatches: dict[tuple[str, int, str, str], Mismatch] = {}
    differs: dict[tuple[str, int, str, str], Mismatch] = {}
    missed: dict[tuple[str, int], Unplaced] = {}
    for capture in captures:
        file_path = layout.file_path(capture.site[0]) if capture.site else None
        if capture.site is None or file_path is None:
            result.outside += 1
            continue
        line = capture.site[1]
        candidates = index.at.get((file_path, line), [])
        spanned = False
        if not candidates:
            candidates = index.spanning(file_path, line)
            spanned = bool(candidates)
        if not candidates:
            if file_path not in index.by_file:
                result.unscanned += 1
                continue
            source = _source_line(capture.site[0], line)
            if _SITE_LINE.search(source):
                entry = missed.setdefault(
                    (file_path, line),
                    Unplaced(file_path, line, source, capture.error_class, capture.message),
                )
                entry.count += 1
            else:
                result.underneath += 1
            continue
        if capture.truncated:
            result.truncated += 1
            continue
        fitting = [e for e in candidates if _class_fits(e, capture.error_class)]
        ordered = fitting + [e for e in candidates if e not in fitting]
        placed = False
        for envelope in ordered:
            holes = index.matcher(envelope)(capture.message)
            if holes is None:
                continue
            placed = True
            result.attached += 1
            result.by_range += spanned
            if len(capture.message) <= MAX_STORED_MESSAGE:
                observations.add(envelope["record"]["id"], capture.message, holes, capture.test)
            if capture.test:
                ran.setdefault(envelope["record"]["id"], set()).add(capture.test)
            break
        if placed:
            continue
        bucket = mismatches if fitting else differs
        key = (file_path, line, capture.error_class, capture.message)
        mismatch = bucket.get(key)
        if mismatch is None:
            mismatch = bucket[key] = Mismatch(
                file_path,
                line,
                capture.error_class,
                capture.message,
                [_describe(e) for e in (fitting or candidates)],
            )
        mismatch.count += 1
        if capture.test and capture.test not in mismatch.tests and len(mismatch.tests) < 5:
            mismatch.tests.append(capture.test)
    result.mismatches = sorted(mismatches.values(), key=lambda m: (m.file_path, m.line))
    result.class_differs = sorted(differs.values(), key=lambda m: (m.file_path, m.line))
    result.missed = sorted(missed.values(), key=lambda m: (m.file_path, m.line))
    result.observed = observations.capped(cap)
    for tests in ran.values():  # only a test that passed confirms its link
        tests.difference_update(failed)
    for rid, observed in result.observed.items():
        envelope = index.by_id[rid]
        evidence = dict(envelope["evidence"])
        evidence["observed"] = observed
        if evidence.get("tests"):
            evidence["tests"], newly = confirm_links(evidence["tests"], ran.get(rid, ()))
            result.confirmed += newly
        result.updates.append((envelope["record"], evidence))
    return result


def summary_counts(result: AttachResult) -> dict[str, int]:
    """The figures a report prints, by name (also the ``--json`` output)."""
    return dict(
        {
            "captures": result.captures,
            "attached": result.attached,
            "attachedThroughEndLine": result.by_range,
            "mismatched": result.mismatched,
            "classDiffers": sum(m.count for m in result.class_differs),
            "missedRaiseLines": sum(m.count for m in result.missed),
            "raisedUnderneath": result.underneath,
            "inFilesWithoutRecords": result.unscanned,
            "outsideRepository": result.outside,
            "truncated": result.truncated,
            "recordsWithObserved": len(result.observed),
            "testLinksConfirmed": result.confirmed,
            "records": result.records_total,
        }
    )
