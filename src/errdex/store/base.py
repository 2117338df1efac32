"""What every store offers, independent of the database behind it.

SQLite is the embedded default and PostgreSQL serves a shared deployment; the CLI, the
web app and the matcher speak only to :class:`Store`, so either can sit behind them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from types import TracebackType
from typing import Any, Literal, NamedTuple, Protocol, Self, TypedDict, runtime_checkable

from errdex.db_url import is_server_url, shown_url

from .listing import ErrorFilters, RecordPage, RepoInfo, SearchHit, SearchQuery

__all__ = [
    "Closing",
    "CountColumn",
    "NotedSource",
    "RecordStatus",
    "RecordVersion",
    "ReleaseRow",
    "RepoStats",
    "ScanInfo",
    "ScanSummary",
    "Store",
    "StoreStats",
    "is_server_url",
    "shown_url",
]


@dataclass
class ScanSummary:
    """What one scan of one repository did, kept so a site can say how complete it is.

    ``commit``/``ref``/``ref_kind``/``origin``/``version`` are those of the checkout
    (see ``errdex.source.checkout.Checkout``); ``skipped`` lists ``(path, reason)``
    for every file that was read but could not be analysed.
    """

    repo: str
    commit: str | None
    ref: str | None
    ref_kind: str
    origin: str
    version: str | None
    started_at: str
    finished_at: str
    seconds: float
    files_read: int
    files_excluded: int
    sites: int
    records: int
    skipped: list[tuple[str, str]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """The fields as a plain dict (``skipped`` as a list of pairs)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: ScanInfo | dict[str, Any]) -> ScanSummary:
        """Rebuild a summary from :meth:`as_dict` or a store's :class:`ScanInfo`."""
        names = cls.__dataclass_fields__
        values: dict[str, Any] = {key: value for key, value in data.items() if key in names}
        values["skipped"] = [(str(p), str(r)) for p, r in values.get("skipped", [])]
        return cls(**values)


class ScanInfo(TypedDict):
    """A stored scan: the :class:`ScanSummary` fields plus its id and dataset version.

    ``records`` is the number of records actually written by the scan.
    """

    id: int
    repo: str
    commit: str | None
    ref: str | None
    ref_kind: str
    origin: str
    version: str | None
    started_at: str
    finished_at: str
    seconds: float
    files_read: int
    files_excluded: int
    sites: int
    records: int
    skipped: list[tuple[str, str]]
    dataset_version: str


class RepoStats(TypedDict):
    """One repository in :class:`StoreStats`.

    ``commits`` are the pins scanned (the commit, else the tag), newest first;
    ``records`` counts what ``stats`` counts, ``stale`` the records no longer seen.
    """

    repo: str
    commits: list[str]
    records: int
    stale: int


class StoreStats(TypedDict):
    """Counts for an overview page; ``byClass`` puts records without a class under ``"(none)"``."""

    repos: list[RepoStats]
    records: int
    byClass: dict[str, int]
    byType: dict[str, int]
    bySeverity: dict[str, int]
    scans: list[ScanInfo]


class RecordVersion(TypedDict):
    """Where a record sat in one scanned version of its repository."""

    scanId: int
    commit: str | None
    ref: str | None
    filePath: str
    lineNumber: int


class ReleaseRow(TypedDict):
    """A record as one release holds it: at its file and line there (newest scan of it)."""

    id: str
    slug: str
    errorClass: str | None
    errorMessage: str
    filePath: str
    lineNumber: int
    stale: bool


class NotedSource(NamedTuple):
    """Where a repository was scanned from: its checkout as JSON text (the analyst's own
    encoding, opaque to the store) and the include/exclude globs of that scan."""

    checkout: str
    include: list[str]
    exclude: list[str]


class RecordStatus(TypedDict):
    """Whether a record is current, and every version it appears in (oldest first).

    A stale record is one its repository's current release (its latest scan, or the
    newest release when an older one was scanned after it) does not hold; it is kept
    so that its page and URL stay valid. ``lastSeenScan`` is the scan that last saw it.
    """

    id: str
    stale: bool
    firstSeenScan: int
    lastSeenScan: int
    versions: list[RecordVersion]


class Closing:
    """``with store:`` closes it: the context manager both backends share."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


#: The columns :meth:`Store.repo_counts` counts by.
CountColumn = Literal["error_class", "error_type", "severity"]
COUNT_COLUMNS: tuple[CountColumn, ...] = ("error_class", "error_type", "severity")


@runtime_checkable
class Store(Protocol):
    """A catalogue of error records, one current record per id, with scan history."""

    #: Where it is: a file path (SQLite) or a database URL (PostgreSQL).
    path: str

    def write_scan(
        self,
        summary: ScanSummary,
        items: Iterable[tuple[dict[str, Any], dict[str, Any]]],
        dataset_version: str,
        inputs: str | None = None,
    ) -> int:
        """Store one scan's ``(record, evidence)`` pairs atomically; return the scan id.

        ``inputs`` is the fingerprint of the scan's inputs (incremental scans)."""
        ...

    def vouched_fingerprint(self, repo: str) -> str | None:
        """The inputs fingerprint ``repo``'s current records came from, while nothing
        has written since."""
        ...

    def touch_scan(self, summary: ScanSummary, dataset_version: str, inputs: str) -> int:
        """A scan with unchanged inputs: a new scan over the same records, none rewritten."""
        ...

    def update_records(self, items: Iterable[tuple[dict[str, Any], dict[str, Any]]]) -> int:
        """Replace record and evidence of existing ids (analysts); return how many."""
        ...

    def data_version(self) -> int:
        """Grows with every write; derived indexes rebuild when it changes."""
        ...

    def get(self, record_id: str) -> dict[str, Any] | None:
        """The envelope ``{"record", "evidence", "datasetVersion"}``, stale or not."""
        ...

    def status(self, record_id: str) -> RecordStatus | None:
        """Whether the record is stale, and the versions it appears in."""
        ...

    def iter_envelopes(
        self, repo: str | None = None, *, include_stale: bool = False
    ) -> Iterator[dict[str, Any]]:
        """Envelopes ordered by repo, filePath, lineNumber."""
        ...

    def iter_record_versions(
        self, repo: str | None = None
    ) -> Iterator[tuple[str, str, RecordVersion]]:
        """``(record id, repo, version)`` for every version of every record, stale ones
        too: what :meth:`status` lists, for a whole catalogue at once (the matcher reads
        a paste from an older release with it)."""
        ...

    def version_windows(self, record_id: str) -> dict[int, tuple[str, int]]:
        """The record's source window per version, ``{scan id: (sourceCode, first line)}``
        (the scan ids of :meth:`status`'s versions; versions stored before windows were
        kept have none)."""
        ...

    def release_rows(
        self, repo: str, pins: Sequence[str], limit: int, offset: int
    ) -> list[ReleaseRow]:
        """The records of ``repo`` seen at any of ``pins`` (one release), each at its place
        in the newest scan of those pins, stale ones too, in file order; one page."""
        ...

    def note_source(self, repo: str, scan_id: int, source: NotedSource) -> None:
        """Keep where ``repo``'s scan ``scan_id`` read its files (the latest note wins)."""
        ...

    def noted_source(self, repo: str) -> NotedSource | None:
        """What :meth:`note_source` kept for ``repo``."""
        ...

    def stats(self, *, include_stale: bool = False) -> StoreStats:
        """Counts by repo, class, type and severity, and the latest scans."""
        ...

    def scans(self, repo: str | None = None) -> list[ScanInfo]:
        """Stored scans, newest first."""
        ...

    # -- what the site reads ----------------------------------------------------------

    def store_version(self) -> tuple[int, int]:
        """``(latest scan id, write counter)``: cached pages and indexes compare it."""
        ...

    def refresh_search(self) -> bool:
        """Bring the search index up to date; whether anything was re-indexed. Raises
        :class:`~errdex.store.listing.SearchUnavailable` when it cannot be built."""
        ...

    def search(self, query: SearchQuery) -> tuple[list[SearchHit], bool]:
        """One page of current records matching ``query``, and whether more follow."""
        ...

    def raw_envelope(self, record_id: str) -> bytes | None:
        """The API envelope as JSON bytes, joined from the stored JSON."""
        ...

    def record_page(self, record_id: str) -> RecordPage | None:
        """The record, its evidence, whether stale, and the records it relates."""
        ...

    def locate(self, record_id: str) -> tuple[str, str] | None:
        """``(repo, slug)`` of a record."""
        ...

    def find_slug(self, repo: str, slug: str) -> str | None:
        """The id of ``repo``'s record with ``slug``."""
        ...

    def envelope_lines(self, repo: str) -> Iterator[bytes]:
        """A repository's current envelopes as JSON lines, in file order."""
        ...

    def repo_infos(self) -> list[RepoInfo]:
        """Repositories with current records, their counts and latest scan."""
        ...

    def repo_counts(self, repo: str, column: CountColumn) -> dict[str, int]:
        """A repository's current records counted by ``column``, most first."""
        ...

    def repo_errors(
        self, repo: str, filters: ErrorFilters, limit: int, offset: int
    ) -> tuple[list[dict[str, Any]], int]:
        """One page of a repository's current errors in file order, and how many match."""
        ...

    def record_links(self, limit: int, offset: int) -> list[tuple[str, str, str]]:
        """``(repo, id, slug)`` of current records in catalogue order."""
        ...

    def close(self) -> None:
        """Release the connection; safe to call twice."""
        ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...
