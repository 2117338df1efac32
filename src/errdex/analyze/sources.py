"""Where a stored repository's source lives, so ``errdex analyze`` can read it again.

The static analyst needs the files, not just the records. ``errdex scan`` remembers
each repository's checkout through the store (:meth:`Store.note_source`, a table of
the catalogue itself on either backend, since it says where *this* catalogue's records
came from and is no cache); a catalogue written before that (or by another tool) falls
back to what the ``scans`` table says:
an installed package or the running standard library can be found again, a
directory cannot. Either way the files are checked against the records before use.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from errdex.extract.source_lines import source_lines
from errdex.record import source_window
from errdex.source import Checkout
from errdex.source.package import project_repo
from errdex.source.reading import SourceSkip, read_source
from errdex.source.stdlib import stdlib_checkout
from errdex.store.base import NotedSource, Store

__all__ = ["Remembered", "SourceGone", "check_windows", "recall", "remember", "reopen"]


class SourceGone(Exception):
    """The source a catalogue was scanned from cannot be read any more; says why."""


@dataclass(frozen=True)
class Remembered:
    checkout: Checkout
    include: tuple[str, ...]
    exclude: tuple[str, ...]


def _checkout_json(checkout: Checkout) -> str:
    data = asdict(checkout)
    data["root"] = str(checkout.root)
    data["files"] = list(checkout.files) if checkout.files is not None else None
    return json.dumps(data)


def _checkout_from(text: str) -> Checkout:
    data: dict[str, Any] = json.loads(text)
    data["root"] = Path(data["root"])
    if data.get("files") is not None:
        data["files"] = tuple(data["files"])
    return Checkout(**data)


def remember(
    store: Store,
    repo: str,
    scan_id: int,
    checkout: Checkout,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
) -> None:
    """Note where ``repo`` was scanned from (the latest scan wins)."""
    store.note_source(repo, scan_id, NotedSource(_checkout_json(checkout), [*include], [*exclude]))


def recall(store: Store, repo: str) -> Remembered | None:
    noted = store.noted_source(repo)
    if noted is None:
        return None
    return Remembered(_checkout_from(noted.checkout), tuple(noted.include), tuple(noted.exclude))


def _find_package(repo: str, version: str | None) -> Checkout | None:
    from errdex.source import open_source

    for dist in metadata.distributions():
        info = project_repo(dist.metadata)
        if info is None or info.repo != repo:
            continue
        if version is not None and dist.version != version:
            continue
        name = dist.metadata["Name"]
        return open_source(package=name, repo=repo)
    return None


def reopen(store: Store, repo: str, scan: dict[str, Any] | None) -> Remembered:
    """The checkout ``repo`` was scanned from, or :class:`SourceGone` saying why not."""
    found = recall(store, repo)
    if found is not None:
        root = found.checkout.root
        if not root.is_dir():
            raise SourceGone(
                f"{repo} was scanned from {root}, which no longer exists; scan it again "
                "where its source is (errdex scan PATH) and rerun errdex analyze"
            )
        return found
    if scan is None:
        raise SourceGone(f"{repo} has no scans in this catalogue")
    origin, version = scan.get("origin"), scan.get("version")
    if origin == "stdlib":
        checkout = stdlib_checkout()
        if version is not None and checkout.version != version:
            raise SourceGone(
                f"{repo} was scanned from Python {version}'s standard library, but this is "
                f"Python {checkout.version}; run errdex analyze with that Python"
            )
        return Remembered(checkout, (), ())
    if origin == "package":
        checkout_or_none = _find_package(repo, version)
        if checkout_or_none is None:
            raise SourceGone(
                f"{repo} was scanned from an installed package (version {version}), which is "
                "not installed here any more; install it or scan the source again"
            )
        return Remembered(checkout_or_none, (), ())
    raise SourceGone(
        f"this catalogue does not say where {repo} was scanned from (origin {origin!r}); "
        "scan it again with this errdex (errdex scan PATH), which remembers the source"
    )


def check_windows(
    checkout: Checkout, records: Sequence[dict[str, Any]]
) -> tuple[list[int], list[str]]:
    """Which records still match the files (their source window is unchanged): indexes of
    those that do, and the paths of files that changed or went missing since the scan."""
    prefix = checkout.path_prefix
    cache: dict[str, list[str] | None] = {}
    fresh: list[int] = []
    changed: set[str] = set()
    for i, record in enumerate(records):
        path = str(record["filePath"])
        rel = path[len(prefix) :] if prefix and path.startswith(prefix) else path
        if rel not in cache:
            try:
                cache[rel] = source_lines(read_source(checkout.root / rel))
            except SourceSkip:
                cache[rel] = None
        lines = cache[rel]
        if lines is not None:
            code, start, end = source_window(lines, int(record["lineNumber"]))
            if (code, start, end) == (
                record.get("sourceCode"),
                record.get("sourceCodeStart"),
                record.get("sourceCodeEnd"),
            ):
                fresh.append(i)
                continue
        changed.add(path)
    return fresh, sorted(changed)
