"""The incremental-scan cache: per file, its content digest and what errdex made of it.

Where it lives, and why: a SQLite file of its own under errdex's cache directory
(``$XDG_CACHE_HOME/errdex/scan-cache.sqlite``, else ``~/.cache/errdex/…``), not a
table in the catalogue. The catalogue is the published artefact (copied, served,
downloaded); the cache holds pickled analyst facts, which must never be loaded from a
file someone else made, and some 40 MB per jax-sized repository that no reader of the
catalogue needs. And an entry says only "this content, at this path, read by this
errdex for this repository gives these items": that stays true whatever becomes of the
catalogue, so it needs no transaction with the scan, and deleting the file costs one
cold scan, nothing else. What the catalogue must vouch for itself (that its records are
what the last scan wrote) is kept in the catalogue, in the scan's own transaction
(:mod:`errdex.store._sqlite_cache`).

Every entry is keyed by a *scope* (:func:`scope_key`): the cache format, a digest of
errdex's own source and the parsers it uses (:func:`code_version`), the repository and
the path prefix. A different errdex, even one edited in place, gets other scopes, and
the rows of scopes written by another errdex are dropped on the next write. Commit,
ref and permalink base are not in the scope: the fields that depend on them are
written afresh on every reuse (:mod:`errdex.scan_reuse`).

Listing does not read a file whose ``stat`` (size, mtime, ctime, inode) is what it was
when its digest was taken; a file modified within :data:`RACY_NS` of being hashed is
hashed again (git's "racy clean" rule), since a same-size edit in the same clock tick
would otherwise go unseen.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import pickle
import sqlite3
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

__all__ = [
    "CACHE_FORMAT",
    "RACY_NS",
    "Digests",
    "PartsWrite",
    "ScanCache",
    "code_version",
    "default_cache_path",
    "folder_digest",
    "scope_key",
]

log = logging.getLogger(__name__)

#: Bump when the meaning of a cached blob changes in a way code_version cannot see.
CACHE_FORMAT = 1
#: Distributions whose version changes what a scan reads (by dist-info name).
_PARSER_DISTS = ("tree_sitter", "cython-")
#: A file modified less than this before its digest was taken is hashed again.
RACY_NS = 2_000_000_000
#: Before a symlink's content digest: a regular file of the same content differs.
LINK = "link:"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS stats (
    path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL,
    ctime_ns INTEGER NOT NULL, inode INTEGER NOT NULL, digest TEXT NOT NULL,
    checked_ns INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS scopes (scope TEXT PRIMARY KEY, code TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS extracted (
    scope TEXT NOT NULL, path TEXT NOT NULL, digest TEXT NOT NULL, blob BLOB NOT NULL,
    PRIMARY KEY (scope, path)
);
CREATE TABLE IF NOT EXISTS facts (
    scope TEXT NOT NULL, path TEXT NOT NULL, digest TEXT NOT NULL, is_test INTEGER NOT NULL,
    blob BLOB NOT NULL, PRIMARY KEY (scope, path)
);
CREATE TABLE IF NOT EXISTS results (
    scope TEXT NOT NULL, key TEXT NOT NULL, fingerprint TEXT NOT NULL, blob BLOB NOT NULL,
    PRIMARY KEY (scope, key)
);
CREATE TABLE IF NOT EXISTS texts (
    scope TEXT NOT NULL, path TEXT NOT NULL, digest TEXT NOT NULL, blob BLOB NOT NULL,
    PRIMARY KEY (scope, path)
);
CREATE TABLE IF NOT EXISTS parts (
    scope TEXT NOT NULL, key TEXT NOT NULL, part TEXT NOT NULL, tag TEXT NOT NULL,
    blob BLOB NOT NULL, PRIMARY KEY (scope, key, part)
);
"""

#: (result key, part -> (tag, pickled value) to write, every part the result keeps).
PartsWrite = tuple[str, dict[str, tuple[str, bytes]], set[str]]


def default_cache_path() -> Path:
    """``$ERRDEX_SCAN_CACHE``, else ``$XDG_CACHE_HOME/errdex/scan-cache.sqlite``, else
    ``~/.cache/errdex/scan-cache.sqlite``."""
    given = os.environ.get("ERRDEX_SCAN_CACHE", "")
    if given:
        return Path(given)
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "errdex" / "scan-cache.sqlite"


@cache
def code_version() -> str:
    """A digest of what decides a scan's output besides its input: errdex's own source
    files, the Python that parses (``ast``) and the grammar packages' versions."""
    h = hashlib.sha256(f"{CACHE_FORMAT}\x00{sys.version}\x00".encode())
    package = Path(__file__).resolve().parent
    for path in sorted(package.rglob("*")):
        if path.suffix in (".py", ".json", ".toml") and path.is_file():
            h.update(str(path.relative_to(package)).encode() + b"\x00")
            h.update(path.read_bytes())
    # the parsers' versions, from their dist-info names (reading every distribution's
    # metadata would cost more than the rest of an unchanged scan)
    for entry in sys.path:
        if entry and os.path.isdir(entry):
            with os.scandir(entry) as found:
                names = sorted(e.name for e in found if e.name.lower().startswith(_PARSER_DISTS))
            h.update("\x00".join(names).encode("utf-8", "surrogateescape"))
    return h.hexdigest()[:32]


def scope_key(repo: str, path_prefix: str, code: str | None = None) -> str:
    """The key every entry of one repository (read by this errdex) is stored under."""
    text = "\x00".join((str(CACHE_FORMAT), code or code_version(), repo, path_prefix))
    return hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:32]


@dataclass
class Digests:
    """Content digests of listed files (None: unreadable), and how each was known."""

    by_path: dict[str, str | None] = field(default_factory=dict)
    #: Files whose stat matched the cache: not read.
    from_stat: int = 0
    #: Files read and hashed (new, changed, or touched).
    hashed: int = 0


def folder_digest(root: Path, rel: str) -> str | None:
    """The digest of the ``*.py`` files below the folder ``rel`` (ending in ``/``), by
    path: what a search of a package for callers read of the folder itself
    (:mod:`errdex.extract.python.package_calls`); None when it is no folder."""
    folder = root / rel
    if not folder.is_dir():
        return None
    names = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.py"))
    return hashlib.sha256("\x00".join(names).encode("utf-8", "surrogateescape")).hexdigest()


def _stat_row(st: os.stat_result) -> tuple[int, int, int, int]:
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


class ScanCache:
    """The cache file, opened for one scan. A file that cannot be used (unreadable, not
    ours, writable by others) turns the cache off with a warning; the scan goes on."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_cache_path()
        self.problem: str | None = None
        self._conn: sqlite3.Connection | None = None
        self._stats: list[tuple[Any, ...]] = []
        try:
            self._conn = self._open()
        except (OSError, sqlite3.Error) as exc:
            self.problem = f"scan cache {self.path} not used: {exc}"
            log.warning("%s", self.problem)

    def _open(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        if self.path.exists():
            st = self.path.stat()
            # pickles are loaded from it: only from a file this user made and alone can write
            if st.st_uid != os.getuid() or st.st_mode & 0o022:
                raise OSError(f"it is not owned by this user, or others may write it: {st}")
        else:
            fd = os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600)
            os.close(fd)
        conn = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.executescript(_SCHEMA)
        row = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        if row is None or row[0] != str(CACHE_FORMAT):
            for table in ("stats", "scopes", "extracted", "facts", "results", "parts", "texts"):
                conn.execute(f"DELETE FROM {table}")
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('format', ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (str(CACHE_FORMAT),),
            )
        return conn

    @property
    def usable(self) -> bool:
        return self._conn is not None

    # -- digests -------------------------------------------------------------------

    def digests(self, root: Path, rels: Iterable[str]) -> Digests:
        """Each file's content digest: from the cache when its stat is unchanged (and not
        racy), else read and hashed (and noted, written at :meth:`commit`); a folder's
        (``rel`` ending in ``/``) is its listing's (:func:`folder_digest`)."""
        out = Digests()
        base = str(root.resolve())
        known: dict[str, tuple[Any, ...]] = {}
        if self._conn is not None:
            rows = self._conn.execute(
                "SELECT path, size, mtime_ns, ctime_ns, inode, digest, checked_ns FROM stats "
                "WHERE path >= ? AND path < ?",
                (base + "/", base + "0"),  # "0" follows "/": every path under root
            )
            known = {r[0]: r[1:] for r in rows}
        for rel in rels:
            if rel.endswith("/"):  # a folder an extraction listed: its listing
                out.by_path[rel] = folder_digest(root, rel)
                continue
            full = f"{base}/{rel}"
            try:
                st = os.stat(full)
            except OSError:
                out.by_path[rel] = None
                continue
            now = _stat_row(st)
            link = os.path.islink(full)
            row = None if link else known.get(full)
            if row is not None and tuple(row[:4]) == now and st.st_mtime_ns < row[5] - RACY_NS:
                out.by_path[rel] = row[4]
                out.from_stat += 1
                continue
            checked = time.time_ns()
            try:
                data = Path(full).read_bytes()
            except OSError:
                out.by_path[rel] = None
                continue
            digest = hashlib.sha256(data).hexdigest()
            out.hashed += 1
            if link:
                # a symlink and a regular file of the same content are read apart (the
                # package searches skip a symlink): its digest is never a file's, and is
                # not kept by stat (that is its target's)
                out.by_path[rel] = LINK + digest
                continue
            out.by_path[rel] = digest
            self._stats.append((full, *now, digest, checked))
        return out

    # -- entries -------------------------------------------------------------------

    def load(self, table: str, scope: str, wanted: dict[str, str | None]) -> dict[str, Any]:
        """Unpickled blobs of ``table`` for the paths whose digest matches ``wanted``."""
        if self._conn is None or table not in ("extracted", "facts"):
            return {}
        extra = ", is_test" if table == "facts" else ""
        rows = self._conn.execute(
            f"SELECT path, digest, blob{extra} FROM {table} WHERE scope = ?",
            (scope,),
        )
        out: dict[str, Any] = {}
        for row in rows:
            path, digest = row[0], row[1]
            if digest is not None and wanted.get(path) == digest:
                value = pickle.loads(row[2])
                out[path] = (value, bool(row[3])) if table == "facts" else value
        return out

    def texts(self, scope: str) -> dict[tuple[str, str], Any]:
        """What package files' texts show (:mod:`errdex.extract.python.text_store`), by
        path and digest of the text."""
        if self._conn is None:
            return {}
        rows = self._conn.execute("SELECT path, digest, blob FROM texts WHERE scope = ?", (scope,))
        return {(path, digest): pickle.loads(blob) for path, digest, blob in rows}

    def stored_facts(self, scope: str, paths: Sequence[str]) -> dict[str, Any]:
        """The facts stored for ``paths``, whatever digest they were made from (a changed
        file's last facts, before this scan's replace them)."""
        if self._conn is None or not paths:
            return {}
        marks = ", ".join("?" * len(paths))
        rows = self._conn.execute(
            f"SELECT path, blob FROM facts WHERE scope = ? AND path IN ({marks})",
            (scope, *paths),
        )
        return {path: pickle.loads(blob) for path, blob in rows}

    def result(self, scope: str, key: str, fingerprint: str) -> Any | None:
        """A whole scan's result stored under ``key`` when its inputs' fingerprint matches."""
        if self._conn is None:
            return None
        # the blob only when it is the one wanted: after an edit it is not, and reading
        # a jax-sized result costs more than the rest of the question
        row = self._conn.execute(
            "SELECT blob FROM results WHERE scope = ? AND key = ? AND fingerprint = ?",
            (scope, key, fingerprint),
        ).fetchone()
        return None if row is None else pickle.loads(row[0])

    def fingerprint(self, scope: str, key: str) -> str | None:
        """The fingerprint of the result stored under ``key`` (None: none is), without
        reading its blob."""
        if self._conn is None:
            return None
        row = self._conn.execute(
            "SELECT fingerprint FROM results WHERE scope = ? AND key = ?", (scope, key)
        ).fetchone()
        return None if row is None else str(row[0])

    def stored_result(self, scope: str, key: str) -> tuple[str, Any] | None:
        """The (fingerprint, value) stored under ``key``, whatever inputs it was made from."""
        if self._conn is None:
            return None
        row = self._conn.execute(
            "SELECT fingerprint, blob FROM results WHERE scope = ? AND key = ?", (scope, key)
        ).fetchone()
        return None if row is None else (row[0], pickle.loads(row[1]))

    def parts(self, scope: str, key: str, tags: dict[str, str]) -> dict[str, Any] | None:
        """The parts of the result under ``key`` (:meth:`commit`'s ``parts``), unpickled,
        when each of ``tags`` is stored with its tag; None when one is not (written by
        another scan since)."""
        if self._conn is None:
            return None
        rows = self._conn.execute(
            "SELECT part, tag, blob FROM parts WHERE scope = ? AND key = ?", (scope, key)
        )
        found = {part: blob for part, tag, blob in rows if tags.get(part) == tag}
        if len(found) != len(tags):
            return None
        return {part: pickle.loads(blob) for part, blob in found.items()}

    def commit(
        self,
        scope: str,
        *,
        extracted: dict[str, tuple[str, bytes]] | None = None,
        facts: dict[str, tuple[str, bool, Any]] | None = None,
        keep: Sequence[str] | None = None,
        result: tuple[str, str, Any] | None = None,
        more_results: Sequence[tuple[str, str, Any]] = (),
        parts: Sequence[PartsWrite] = (),
        texts: dict[tuple[str, str], Any] | None = None,
    ) -> None:
        """Write new digests and entries in one transaction: ``extracted`` maps a path to
        its digest and its already pickled scan result (pickled before the scan changes
        its records), ``facts`` to digest, test flag and facts; ``result`` and
        ``more_results`` are (key, fingerprint, value) for :meth:`result`; ``parts`` the
        pieces a result is stored in apart (only those that changed are written, the
        others of its key not kept are dropped); ``texts`` what files' texts show, by path
        and text digest; ``keep`` (the listed paths) drops this scope's entries for files
        that are gone (:meth:`_prune`); another errdex's scopes go."""
        if self._conn is None:
            return
        conn = self._conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            conn.executemany(
                "INSERT OR REPLACE INTO stats (path, size, mtime_ns, ctime_ns, inode, digest, "
                "checked_ns) VALUES (?, ?, ?, ?, ?, ?, ?)",
                self._stats,
            )
            self._stats = []
            code = code_version()
            stale = [
                r[0] for r in conn.execute("SELECT scope FROM scopes WHERE code != ?", (code,))
            ]
            for old in stale:
                for table in ("extracted", "facts", "results", "parts", "texts", "scopes"):
                    conn.execute(f"DELETE FROM {table} WHERE scope = ?", (old,))
            conn.execute("INSERT OR IGNORE INTO scopes (scope, code) VALUES (?, ?)", (scope, code))
            dump = pickle.dumps
            conn.executemany(
                "INSERT OR REPLACE INTO extracted (scope, path, digest, blob) VALUES (?, ?, ?, ?)",
                [(scope, p, d, blob) for p, (d, blob) in (extracted or {}).items()],
            )
            conn.executemany(
                "INSERT OR REPLACE INTO facts (scope, path, digest, is_test, blob) "
                "VALUES (?, ?, ?, ?, ?)",
                [
                    (scope, p, d, int(t), dump(v, protocol=5))
                    for p, (d, t, v) in (facts or {}).items()
                ],
            )
            conn.executemany(
                "INSERT OR REPLACE INTO texts (scope, path, digest, blob) VALUES (?, ?, ?, ?)",
                [(scope, p, d, dump(v, protocol=5)) for (p, d), v in (texts or {}).items()],
            )
            if keep is not None:
                self._prune(scope, set(keep))
            for key, fingerprint, value in [*([result] if result else []), *more_results]:
                conn.execute(
                    "INSERT OR REPLACE INTO results (scope, key, fingerprint, blob) "
                    "VALUES (?, ?, ?, ?)",
                    (scope, key, fingerprint, dump(value, protocol=5)),
                )
            for key, written, kept in parts:
                self._write_parts(scope, key, written, kept)
            conn.execute("COMMIT")
        except sqlite3.Error as exc:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            log.warning("scan cache %s not written: %s", self.path, exc)

    def _write_parts(
        self, scope: str, key: str, written: dict[str, tuple[str, bytes]], kept: set[str]
    ) -> None:
        assert self._conn is not None
        rows = self._conn.execute(
            "SELECT part FROM parts WHERE scope = ? AND key = ?", (scope, key)
        ).fetchall()
        self._conn.executemany(
            "DELETE FROM parts WHERE scope = ? AND key = ? AND part = ?",
            [(scope, key, part) for (part,) in rows if part not in kept],
        )
        self._conn.executemany(
            "INSERT OR REPLACE INTO parts (scope, key, part, tag, blob) VALUES (?, ?, ?, ?, ?)",
            [(scope, key, part, tag, blob) for part, (tag, blob) in written.items()],
        )

    def _prune(self, scope: str, keep: set[str]) -> None:
        """Drop the entries of files no longer listed. Not the package texts' facts: those
        are of every file of a package (its tests and vendored code too, which the scan
        does not list), and a stale one is never used (its text's digest is checked)."""
        assert self._conn is not None
        for table in ("extracted", "facts"):
            gone = [
                (scope, r[0])
                for r in self._conn.execute(
                    f"SELECT path FROM {table} WHERE scope = ?",
                    (scope,),
                )
                if r[0] not in keep
            ]
            self._conn.executemany(
                f"DELETE FROM {table} WHERE scope = ? AND path = ?",
                gone,
            )

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def __enter__(self) -> ScanCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
