"""Matching across releases: a traceback's lines belong to the user's release.

The match index holds each record at its line in the release catalogued last; a
traceback from another catalogued release names other lines, and its innermost frame
may even land on a *different* site of the same file. When the catalogue knows more
than one release of a repository (:mod:`errdex.versions`), :func:`align` reads the
paste's frames in the release they come from and moves them to the index's lines
before ranking:

1. the release is taken from the paste when a frame's path names it
   (``…/attrs-25.4.0/src/attr/_make.py``, an egg, an unpacked sdist);
2. else it is inferred: the release in which the innermost frame of every error
   stands on a raise site of that error's class (its lines agree with all the frames);
   the release whose lines the index holds (the current one: the newest scanned) wins a tie, so a
   paste that fits it is left as it is;
3. a frame on a raise site of that release moves to the same record's line in the
   index (or, when a reworded message changed the record's id, to the one current site
   of that function and class); any other frame of the file moves by the shift of the
   nearest site both releases hold.

When no catalogued release's lines agree with the innermost frames, the clues are
left as they are and weigh less (:data:`DISAGREE_WEIGHT`): the confidence drops
because the paste comes from a release errdex does not know.

The tables come from a store (:func:`release_tables`) and are attached to the index
they describe (:func:`attach`); an index without them is matched as before.
"""

from __future__ import annotations

import bisect
import re
import weakref
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from errdex.match.layouts import frame_keys, record_keys
from errdex.store.releases import current_scan
from errdex.versions import parse_version, releases

if TYPE_CHECKING:  # rank calls align: importing it here would be a cycle
    from errdex.match.index import MatchIndex
    from errdex.match.rank import Clue
    from errdex.store.base import Store

__all__ = [
    "DISAGREE_WEIGHT",
    "ReleaseTables",
    "align",
    "attach",
    "named_release",
    "release_tables",
    "store_tables",
    "tables_of",
]

#: What a paste's clues weigh when its innermost frames agree with no catalogued release.
DISAGREE_WEIGHT = 0.85

_Frame = tuple[str, int | None, str | None]
#: A current record as the index has it: (line, short class, function).
_Known = tuple[int, str | None, str | None]


@dataclass
class ReleaseTables:
    """Per repository, its releases oldest first; per release and file, line -> record."""

    releases: dict[str, list[str]] = field(default_factory=dict)
    #: per repository, the release scanned last: the one whose lines the index holds
    current: dict[str, str] = field(default_factory=dict)
    #: (repo, release) -> filePath -> sorted [(line, record id)]
    sites: dict[tuple[str, str], dict[str, list[tuple[int, str]]]] = field(default_factory=dict)
    #: record key of a file (``attr/_make.py``) -> (repo, filePath)
    files: dict[str, tuple[str, str]] = field(default_factory=dict)

    def multi(self) -> bool:
        return any(len(labels) > 1 for labels in self.releases.values())


def release_tables(
    scans: Iterable[Mapping[str, Any]], places: Iterable[tuple[str, str, Mapping[str, Any]]]
) -> ReleaseTables:
    """Tables from a store's scans (every repository's) and ``(record id, repo, place)``
    rows, a place being a :class:`~errdex.store.base.RecordVersion`."""
    tables = ReleaseTables()
    by_repo: dict[str, list[Mapping[str, Any]]] = {}
    for scan in scans:
        by_repo.setdefault(str(scan["repo"]), []).append(scan)
    label_of: dict[tuple[str, str], str] = {}
    for repo, repo_scans in by_repo.items():
        catalogued = releases(repo_scans)
        tables.releases[repo] = [r.label for r in catalogued]
        # the index holds each record where the scan that made it current saw it: the
        # latest, unless that read an older release (errdex.store.releases)
        heads = [
            (int(s["id"]), s.get("version"), s.get("ref"), s.get("ref_kind")) for s in repo_scans
        ]
        head = current_scan(heads)
        tables.current[repo] = next(r.label for r in catalogued if head in r.scan_ids)
        for release in catalogued:
            for pin in release.pins:
                label_of[(repo, pin)] = release.label
    for record_id, repo, place in places:
        pin = place.get("commit") or place.get("ref") or ""
        label = label_of.get((repo, pin))
        if label is None:
            continue
        path = str(place["filePath"])
        tables.sites.setdefault((repo, label), {}).setdefault(path, []).append(
            (int(place["lineNumber"]), record_id)
        )
        for key in record_keys(path):
            tables.files.setdefault(key, (repo, path))
    for files in tables.sites.values():
        for rows in files.values():
            rows.sort()
    return tables


def store_tables(store: Store) -> ReleaseTables | None:
    """The tables of ``store``; None (nothing read) when no repository has two releases."""
    scans = store.scans()
    by_repo: dict[str, list[Mapping[str, Any]]] = {}
    for scan in scans:
        by_repo.setdefault(scan["repo"], []).append(scan)
    if not any(len(releases(group)) > 1 for group in by_repo.values()):
        return None
    return release_tables(scans, store.iter_record_versions())


_ATTACHED: weakref.WeakKeyDictionary[MatchIndex, ReleaseTables] = weakref.WeakKeyDictionary()


def attach(index: MatchIndex, tables: ReleaseTables | None) -> None:
    """Let :func:`align` read ``index``'s pastes by release (None detaches)."""
    if tables is None or not tables.multi():
        _ATTACHED.pop(index, None)
    else:
        _ATTACHED[index] = tables


def tables_of(index: MatchIndex) -> ReleaseTables | None:
    return _ATTACHED.get(index)


def _short(name: str | None) -> str | None:
    return name.rsplit(".", 1)[-1] if name else None


def _file_of(tables: ReleaseTables, path: str) -> tuple[str, str] | None:
    for key in frame_keys(path):
        found = tables.files.get(key)
        if found is not None:
            return found
    return None


def named_release(tables: ReleaseTables, repo: str, paths: Sequence[str]) -> str | None:
    """The catalogued release of ``repo`` a frame's path names (``attrs-25.4.0/``)."""
    labels = tables.releases.get(repo, [])
    name = re.escape(repo.rsplit("/", 1)[-1])
    wanted = re.compile(
        rf"(?:^|[/\\]){name}[-_]v?(\d[\w.+!]*?)(?:[-_./\\]py\d|\.dist-info|[/\\]|$)", re.I
    )
    for path in paths:
        match = wanted.search(path)
        if match is None:
            continue
        parsed = parse_version(match.group(1).rstrip("."))
        for label in labels:
            if label == match.group(1) or (parsed is not None and parse_version(label) == parsed):
                return label
    return None


def _site_at(rows: list[tuple[int, str]], line: int) -> str | None:
    at = bisect.bisect_left(rows, (line, ""))
    if at < len(rows) and rows[at][0] == line:
        return rows[at][1]
    return None


class _Current:
    """The index's side of one paste: each catalogued file's records, their lines and classes."""

    def __init__(self, index: MatchIndex) -> None:
        self.index = index
        self._files: dict[str, dict[str, _Known]] = {}

    def of(self, path: str) -> dict[str, _Known]:
        """record id -> (its line in the index, short class, function), for the file ``path`` names."""
        found = self._files.get(path)
        if found is None:
            found = {}
            for i, _ in self.index.by_frame(path, None):
                entry = self.index.entry(i)
                found[entry.id] = (entry.line, _short(entry.error_class), entry.function)
            self._files[path] = found
        return found


def _agrees(
    rows: list[tuple[int, str]] | None,
    line: int,
    cls: str | None,
    function: str | None,
    known: dict[str, _Known],
) -> bool:
    """Whether a frame at ``line`` in ``function`` stands on a site of that release in that
    function that can raise ``cls`` (a record no longer current has neither to check)."""
    record = _site_at(rows, line) if rows else None
    if record is None:
        return False
    if record not in known:
        return True
    _, recorded, in_function = known[record]
    if function and in_function and function != in_function.rsplit(".", 1)[-1]:
        return False
    return cls is None or recorded is None or recorded == cls


def _innermost(tables: ReleaseTables, clue: Clue) -> tuple[str, str, int] | None:
    """(repo, filePath, line) of the clue's innermost frame, when it is in a catalogued file."""
    if not clue.frames:
        return None
    path, line, _ = clue.frames[-1]
    found = _file_of(tables, path)
    if found is None or line is None:
        return None
    return found[0], found[1], line


def _choose(
    tables: ReleaseTables, repo: str, clues: Sequence[Clue], current: _Current
) -> tuple[str | None, bool]:
    """(release, whether the lines agree with it) for the clues' frames in ``repo``."""
    labels = tables.releases.get(repo, [])
    if not labels:
        return None, True
    named = named_release(tables, repo, [f[0] for c in clues for f in c.frames])
    if named is not None:
        return named, True
    points = [
        (where[1], where[2], _short(c.error_class), c.frames[-1][2], current.of(c.frames[-1][0]))
        for c in clues
        if (where := _innermost(tables, c)) is not None and where[0] == repo
    ]
    if not points:
        return None, True
    best: str | None = None
    best_count = 0
    first = tables.current.get(repo)
    # the index's own release first, then the newest: the earlier wins a tie
    for label in [*([first] if first else []), *(x for x in reversed(labels) if x != first)]:
        files = tables.sites.get((repo, label), {})
        count = sum(
            _agrees(files.get(path), line, cls, function, known)
            for path, line, cls, function, known in points
        )
        if count > best_count:
            best, best_count = label, count
    return best, best_count == len(points)


def _moved(
    rows: list[tuple[int, str]],
    known: dict[str, _Known],
    line: int,
    function: str | None,
    cls: str | None,
) -> int:
    """``line`` of a release moved into the index's release: to the same record's line;
    for a raise whose id changed (a reworded message), to the one current site of that
    function and class; else by the shift of the nearest site both releases hold."""
    record = _site_at(rows, line)
    if record is not None and record in known:
        return known[record][0]
    if record is not None and function:
        same = [
            at
            for at, recorded, in_function in known.values()
            if in_function
            and in_function.rsplit(".", 1)[-1] == function
            and (cls is None or recorded is None or recorded == cls)
        ]
        if len(same) == 1:
            return same[0]
    anchors = [(abs(at - line), at, rid) for at, rid in rows if rid in known]
    if not anchors:
        return line
    _, at, rid = min(anchors)
    return line + known[rid][0] - at


def align(clues: Sequence[Clue], index: MatchIndex) -> Sequence[Clue]:
    """``clues`` with their frames read in the release they come from (see the module)."""
    tables = tables_of(index)
    if tables is None:
        return clues
    repos = {w[0] for c in clues if (w := _innermost(tables, c)) is not None}
    current = _Current(index)
    moves: dict[str, str] = {}  # repo -> the release its frames are read in
    disagree = False
    for repo in repos:
        release, agreed = _choose(tables, repo, clues, current)
        disagree = disagree or not agreed
        labels = tables.releases.get(repo, [])
        if release is not None and labels and release != tables.current.get(repo):
            moves[repo] = release
    if disagree and not moves:
        return [replace(c, weight=c.weight * DISAGREE_WEIGHT) for c in clues]
    if not moves:
        return clues
    out: list[Clue] = []
    for clue in clues:
        frames: list[_Frame] = []
        innermost = len(clue.frames) - 1
        for depth, (path, line, function) in enumerate(clue.frames):
            found = _file_of(tables, path)
            if found is None or line is None or found[0] not in moves:
                frames.append((path, line, function))
                continue
            repo, file_path = found
            rows = tables.sites.get((repo, moves[repo]), {}).get(file_path, [])
            cls = _short(clue.error_class) if depth == innermost else None
            moved = _moved(rows, current.of(path), line, function, cls)
            frames.append((path, moved, function))
        out.append(replace(clue, frames=tuple(frames)))
    return out
