"""A scan's whole result in the cache, stored one part per file.

The analysed result of a jax-sized repository is some 27 MB pickled: written whole,
every edited re-scan pickled and wrote it again (0.6 s) for one file's records. Stored
by file, a scan writes only the parts whose records differ from the last result's
(:func:`split`); the others keep their row, named by their tag in the result's header.

Every analysed record carries this scan's ``analyzedAt``, so no part would stay the same:
a part whose records all have the header's ``analyzedAt`` is marked so, compared
without it, and has it set again when read (:func:`joined`).

The analyst's state (:func:`errdex.scan_reuse.analyst_state`: 11 MB on jax) is stored
the same way, its per-file and per-record tables in :data:`BUCKETS` parts by key
(:func:`split_maps`): an edit changes the few buckets holding what it changed.
"""

from __future__ import annotations

import pickle
import secrets
import zlib
from dataclasses import dataclass, field
from typing import Any

from errdex.scan_cache import PartsWrite, ScanCache

__all__ = [
    "BUCKETS",
    "LastResult",
    "joined",
    "joined_maps",
    "last_maps",
    "last_result",
    "split",
    "split_maps",
]

#: Parts each table of a state stored by :func:`split_maps` is spread over.
BUCKETS = 256

Item = tuple[dict[str, Any], dict[str, Any]]
#: A part's name, its tag, and whether its records have the header's ``analyzedAt``.
PartRow = tuple[str, str, bool]


@dataclass
class LastResult:
    """A stored result as read: its inputs' fingerprint, the result with its items, and
    its parts (name -> (tag, stamped, items)) for the next write to compare with."""

    fingerprint: str
    whole: dict[str, Any]
    parts: dict[str, tuple[str, bool, Any]] = field(default_factory=dict)


def _runs(items: list[Item]) -> list[tuple[str, list[Item]]]:
    """The items in runs of one file each, in order; a file's later run (never seen: a
    file's records are consecutive) is named apart."""
    runs: list[tuple[str, list[Item]]] = []
    seen: set[str] = set()
    for item in items:
        path = item[0]["filePath"]
        if runs and runs[-1][1][-1][0]["filePath"] == path:
            runs[-1][1].append(item)
            continue
        name = path
        while name in seen:
            name += "\x00"
        seen.add(name)
        runs.append((name, [item]))
    return runs


def _same(now: list[Item], last: list[Item], stamped: bool) -> bool:
    """The part's items are the last ones (``analyzedAt`` aside when ``stamped``)."""
    if len(now) != len(last):
        return False
    for (record, evidence), (old, old_evidence) in zip(now, last, strict=True):
        if stamped and record.get("analyzedAt") != old.get("analyzedAt"):
            record = {**record, "analyzedAt": old.get("analyzedAt")}
        if record != old or evidence != old_evidence:
            return False
    return True


def split(
    key: str, whole: dict[str, Any], last: LastResult | None
) -> tuple[dict[str, Any], PartsWrite]:
    """The header to store under ``key`` for ``whole`` (every field but its items, which
    it names by part) and the parts to write: those whose items differ from ``last``'s."""
    items: list[Item] = whole["items"]
    analyzed_at = max((r.get("analyzedAt") or "" for r, _ in items), default="")
    tag = secrets.token_hex(8)
    rows: list[PartRow] = []
    written: dict[str, tuple[str, bytes]] = {}
    kept = last.parts if last is not None else {}
    for name, run in _runs(items):
        stamped = all(r.get("analyzedAt") == analyzed_at for r, _ in run)
        old = kept.get(name)
        if old is not None and old[1] == stamped and _same(run, old[2], stamped):
            rows.append((name, old[0], stamped))
            continue
        rows.append((name, tag, stamped))
        written[name] = (tag, pickle.dumps(run, protocol=5))
    header = {k: v for k, v in whole.items() if k != "items"}
    header["parts"] = rows
    header["analyzed_at"] = analyzed_at
    return header, (key, written, {name for name, _, _ in rows})


def _read_parts(
    cache: ScanCache, scope: str, key: str, header: Any, marker: str
) -> tuple[list[PartRow], dict[str, Any] | None]:
    """A header's part rows and the parts read (None: a part is missing, or the header
    lacks ``marker``, the field its form writes)."""
    if not isinstance(header, dict) or marker not in header:
        return [], None
    rows: list[PartRow] = header["parts"]
    return rows, cache.parts(scope, key, {name: tag for name, tag, _ in rows})


def joined(
    cache: ScanCache, scope: str, key: str, fingerprint: str, header: Any
) -> LastResult | None:
    """The result whose ``header`` (:func:`split`) was stored under ``key``, its parts
    read back; None when a part is missing (or the header is of another form)."""
    rows, stored = _read_parts(cache, scope, key, header, "analyzed_at")
    if stored is None:
        return None
    analyzed_at = header["analyzed_at"]
    items: list[Item] = []
    parts: dict[str, tuple[str, bool, list[Item]]] = {}
    for name, tag, stamped in rows:
        run: list[Item] = stored[name]
        if stamped:
            for record, _ in run:
                record["analyzedAt"] = analyzed_at
        parts[name] = (tag, stamped, run)
        items.extend(run)
    whole = {k: v for k, v in header.items() if k not in ("parts", "analyzed_at")}
    whole["items"] = items
    return LastResult(fingerprint, whole, parts)


def last_result(
    cache: ScanCache, scope: str, key: str, fingerprint: str | None = None
) -> LastResult | None:
    """The result stored under ``key``: only if made from inputs with ``fingerprint``
    when one is given (else whatever they were)."""
    if fingerprint is not None:
        header = cache.result(scope, key, fingerprint)
        return None if header is None else joined(cache, scope, key, fingerprint, header)
    found = cache.stored_result(scope, key)
    return None if found is None else joined(cache, scope, key, found[0], found[1])


def _bucket(name: str, key: str) -> str:
    return f"{name}\x00{zlib.crc32(key.encode('utf-8', 'surrogateescape')) % BUCKETS}"


def split_maps(
    key: str, value: dict[str, Any], tables: tuple[str, ...], last: LastResult | None
) -> tuple[dict[str, Any], PartsWrite]:
    """As :func:`split` for a state whose ``tables`` (dicts keyed by str; None: kept in
    the header) are stored in buckets by key; a bucket equal to the last state's is not
    written again."""
    tables = tuple(name for name in tables if value[name] is not None)
    tag = secrets.token_hex(8)
    buckets: dict[str, dict[str, Any]] = {}
    for name in tables:
        for k, v in value[name].items():
            buckets.setdefault(_bucket(name, k), {})[k] = v
    kept = last.parts if last is not None else {}
    rows: list[PartRow] = []
    written: dict[str, tuple[str, bytes]] = {}
    for part, content in buckets.items():
        old = kept.get(part)
        if old is not None and old[2] == content:
            rows.append((part, old[0], False))
        else:
            rows.append((part, tag, False))
            written[part] = (tag, pickle.dumps(content, protocol=5))
    header = {k: v for k, v in value.items() if k not in tables}
    header["tables"] = tables
    header["parts"] = rows
    return header, (key, written, set(buckets))


def joined_maps(
    cache: ScanCache, scope: str, key: str, fingerprint: str, header: Any
) -> LastResult | None:
    """The state whose ``header`` (:func:`split_maps`) was stored under ``key``."""
    rows, stored = _read_parts(cache, scope, key, header, "tables")
    if stored is None:
        return None
    tables: tuple[str, ...] = header["tables"]
    value = {k: v for k, v in header.items() if k not in ("tables", "parts")}
    value.update((name, {}) for name in tables)
    parts: dict[str, tuple[str, bool, Any]] = {}
    for name, tag, _ in rows:
        content = stored[name]
        value[name.partition("\x00")[0]].update(content)
        parts[name] = (tag, False, content)
    return LastResult(fingerprint, value, parts)


def last_maps(cache: ScanCache, scope: str, key: str) -> LastResult | None:
    """The state stored under ``key`` by :func:`split_maps`, whatever its inputs."""
    found = cache.stored_result(scope, key)
    return None if found is None else joined_maps(cache, scope, key, found[0], found[1])
