"""An installed distribution's source distribution: its ``.pyx`` (and C) beside its ``.py``.

A wheel installs compiled extensions, not the Cython or C they were built from; the
sdist of the same version holds them. It is fetched with the ordinary package client
(``pip download --no-deps --no-binary NAME NAME==VERSION``) into errdex's cache
(``$XDG_CACHE_HOME/errdex/sdist``, else ``~/.cache/errdex/sdist``), unpacked without
letting any member leave its folder or exceed a size cap, and checked: its
``PKG-INFO`` must name the installed version. The scan then reads the sdist's tree
(laid out as the repository is) with the installed distribution's repository and
release pin, so permalinks point where a checkout's would.

pip prepares an sdist's metadata by running its build backend (in an isolated build
environment): that is pip's ordinary behaviour for ``pip download`` of an sdist, and
happens once per version; the cached archive is reused after that.
"""

from __future__ import annotations

import email.parser
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path, PurePosixPath

from .cachelock import LOCKS, cache_lock
from .checkout import Checkout
from .errors import SourceError
from .package import open_package

__all__ = [
    "MAX_MEMBERS",
    "MAX_UNPACKED_BYTES",
    "NETWORK_SIGNS",
    "check_version",
    "fetch_sdist",
    "open_sdist",
    "pip_download",
    "sdist_cache_dir",
    "sdist_tests",
    "unpack_sdist",
]

#: Refuse an archive that unpacks to more than this (a zip bomb, or not a source tree).
MAX_UNPACKED_BYTES = 1024 * 1024 * 1024
MAX_MEMBERS = 100_000
_ARCHIVE_SUFFIXES = (".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".tar", ".zip")
NETWORK_SIGNS = (
    "NewConnectionError",
    "Temporary failure in name resolution",
    "Network is unreachable",
    "Name or service not known",
    "Failed to establish a new connection",
    "ConnectTimeoutError",
    "ProxyError",
    "connection refused",
)
Runner = Callable[..., "subprocess.CompletedProcess[str]"]


def sdist_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/errdex/sdist``, else ``~/.cache/errdex/sdist``."""
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "errdex" / "sdist"


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _cached_archive(folder: Path, suffixes: Sequence[str] = _ARCHIVE_SUFFIXES) -> Path | None:
    if not folder.is_dir():
        return None
    found = sorted(p for p in folder.iterdir() if p.name.lower().endswith(tuple(suffixes)))
    return found[0] if found else None


def pip_download(
    spec: str,
    folder: Path,
    *,
    options: Sequence[str],
    suffixes: Sequence[str],
    failure: Callable[[str], str],
    what: str,
    runner: Runner = subprocess.run,
    timeout: float = 900,
) -> Path:
    """The archive pip downloads for ``spec`` (``NAME==VERSION``) into ``folder``, or the one
    already there. ``failure`` turns pip's output into the user's message; ``what`` names
    the archive in the others (``the source distribution of attrs 25.4.0``)."""
    cached = _cached_archive(folder, suffixes)
    if cached is not None:  # published by an atomic rename, so never half-written
        return cached
    with cache_lock(folder):  # a concurrent run fetching it too: wait, then use its copy
        cached = _cached_archive(folder, suffixes)
        if cached is not None:
            return cached
        # pip writes into a private folder beside ``folder``; a rename moves the archive in
        with tempfile.TemporaryDirectory(dir=folder.parent, prefix=".download-") as tmp:
            command = [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--no-deps",
                *options,
                "--disable-pip-version-check",
                "--no-input",
                spec,
                "-d",
                tmp,
            ]
            try:
                done = runner(command, capture_output=True, text=True, timeout=timeout, check=False)
            except subprocess.TimeoutExpired:
                raise SourceError(
                    f"pip did not fetch {what} within {int(timeout)} s; try again, or scan a "
                    "source checkout instead"
                ) from None
            except OSError as exc:
                raise SourceError(f"cannot run pip to fetch {what}: {exc}") from None
            archive = _cached_archive(Path(tmp), suffixes)
            if done.returncode != 0 or archive is None:
                raise SourceError(failure(done.stdout + done.stderr))
            folder.mkdir(exist_ok=True)
            target = folder / archive.name
            os.replace(archive, target)  # same file system: atomic, never a partial copy
            return target


def fetch_sdist(
    name: str,
    version: str,
    *,
    cache_dir: Path | None = None,
    runner: Runner = subprocess.run,
    timeout: float = 900,
) -> Path:
    """The sdist archive of ``name`` ``version``, from the cache or fetched with pip."""
    return pip_download(
        f"{name}=={version}",
        (cache_dir or sdist_cache_dir()) / f"{_canonical(name)}-{version}",
        options=["--no-binary", name],
        suffixes=_ARCHIVE_SUFFIXES,
        failure=lambda output: pip_failure(
            output,
            f"the source distribution of {name} {version}",
            missing=(
                f"the package index has no source distribution of {name} {version} "
                "(only wheels?); scan the project's source checkout or git URL at that "
                "release instead"
            ),
            offline=", or scan a source checkout instead",
        ),
        what=f"the source distribution of {name} {version}",
        runner=runner,
        timeout=timeout,
    )


def pip_failure(
    output: str,
    what: str,
    *,
    missing: str,
    offline: str = "",
    cause: Callable[[str], str | None] | None = None,
) -> str:
    """What pip's failure to fetch ``what`` means, for the user: no network (with the
    caller's ``offline`` advice appended), else what ``cause`` reads in the output, else
    ``missing`` when the index has no such file, else pip's last lines."""
    text = output.lower()
    if any(sign.lower() in text for sign in NETWORK_SIGNS):
        return (
            f"cannot reach the package index to fetch {what} (no network?); connect, or "
            f"point pip at an index or mirror (PIP_INDEX_URL){offline}"
        )
    found = cause(output) if cause is not None else None
    if found is not None:
        return found
    if "no matching distribution" in text or "could not find a version" in text:
        return missing
    tail = " | ".join(line.strip() for line in output.strip().splitlines()[-3:])
    return f"pip could not fetch {what}: {tail}"


def _safe_member(name: str) -> PurePosixPath | None:
    path = PurePosixPath(name.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts or not path.parts or ":" in path.parts[0]:
        return None
    return path


def unpack_sdist(archive: Path, dest: Path, *, max_bytes: int = MAX_UNPACKED_BYTES) -> Path:
    """Unpack ``archive`` into ``dest`` and return the tree's root (``name-version/``).

    Members that would leave ``dest`` (absolute paths, ``..``), links and special
    files are refused; so is an archive over ``max_bytes`` unpacked or MAX_MEMBERS.
    """
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    try:
        if archive.name.lower().endswith((".zip", ".whl")):  # a wheel is a zip
            _unzip(archive, dest, max_bytes)
        else:
            _untar(archive, dest, max_bytes)
    except (tarfile.TarError, zipfile.BadZipFile, EOFError, OSError) as exc:
        shutil.rmtree(dest, ignore_errors=True)
        raise SourceError(f"cannot unpack {archive.name}: {exc}; delete it and try again") from None
    except SourceError:
        shutil.rmtree(dest, ignore_errors=True)
        raise
    return _tree_root(dest)


def _tree_root(dest: Path) -> Path:
    """``name-version/`` when it is all ``dest`` holds, else ``dest`` itself."""
    tops = list(dest.iterdir())
    return tops[0] if len(tops) == 1 and tops[0].is_dir() else dest


def unpacked_once(archive: Path) -> Path:
    """The root of ``archive`` unpacked beside it in ``unpacked/``, reused when an earlier
    unpack of this very archive finished; an interrupted or older unpack is redone.

    The marker records the archive's name, size and modification time, so a re-downloaded
    or replaced archive is unpacked afresh rather than read through a stale tree. The
    work is done under the entry's lock (a concurrent run waits, then reuses the tree)
    in a private ``.unpack-*`` folder that only a rename makes ``unpacked/``, so no run
    ever reads, or deletes, a tree another run is still writing or reading."""
    folder = archive.parent
    dest, marker = folder / "unpacked", folder / ".unpacked"
    with cache_lock(folder):
        info = archive.stat()
        stamp = f"{archive.name} {info.st_size} {info.st_mtime_ns}"
        if dest.is_dir() and marker.is_file() and marker.read_text(encoding="utf-8") == stamp:
            return _tree_root(dest)
        marker.unlink(missing_ok=True)
        if LOCKS:  # under the lock, a private folder left behind is from a run killed mid-way
            for left in folder.glob(".unpack-*"):
                shutil.rmtree(left, ignore_errors=True)
        fresh = Path(tempfile.mkdtemp(dir=folder, prefix=".unpack-"))
        old = Path(tempfile.mkdtemp(dir=folder, prefix=".unpack-"))
        try:
            unpack_sdist(archive, fresh)
            if dest.exists():  # an older or interrupted tree: out of the way by a rename
                os.replace(dest, old / "unpacked")
            os.replace(fresh, dest)
        finally:
            shutil.rmtree(fresh, ignore_errors=True)
            shutil.rmtree(old, ignore_errors=True)
        written = folder / ".unpacked-new"
        written.write_text(stamp, encoding="utf-8")
        os.replace(written, marker)
        return _tree_root(dest)


def _budget(archive: Path, sizes: Sequence[int], max_bytes: int) -> None:
    if len(sizes) > MAX_MEMBERS or sum(sizes) > max_bytes:
        raise SourceError(
            f"{archive.name} unpacks to {len(sizes)} files, {sum(sizes) // (1024 * 1024)} MB: "
            f"over errdex's cap ({MAX_MEMBERS} files, {max_bytes // (1024 * 1024)} MB); "
            "scan a source checkout instead"
        )


def _untar(archive: Path, dest: Path, max_bytes: int) -> None:
    with tarfile.open(archive) as tar:
        members = [m for m in tar.getmembers() if m.isfile() or m.isdir()]
        kept = [m for m in members if _safe_member(m.name) is not None]
        _budget(archive, [m.size for m in kept], max_bytes)
        for member in kept:
            target = dest / str(_safe_member(member.name))
            if member.isdir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            source = tar.extractfile(member)
            if source is None:
                continue
            with source, open(target, "wb") as out:
                shutil.copyfileobj(source, out)


def _unzip(archive: Path, dest: Path, max_bytes: int) -> None:
    with zipfile.ZipFile(archive) as zf:
        infos = [i for i in zf.infolist() if _safe_member(i.filename) is not None]
        _budget(archive, [i.file_size for i in infos], max_bytes)
        written = 0
        for info in infos:
            target = dest / str(_safe_member(info.filename))
            if info.is_dir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            if (info.external_attr >> 16) & 0o170000 == 0o120000:
                continue  # a symbolic link: not followed, not written
            target.parent.mkdir(parents=True, exist_ok=True)
            with zf.open(info) as source, open(target, "wb") as out:
                while chunk := source.read(1 << 20):
                    written += len(chunk)
                    if written > max_bytes:  # the sizes the archive declared were false
                        _budget(archive, [written], max_bytes)
                    out.write(chunk)


def check_version(root: Path, name: str, version: str) -> None:
    """Refuse an sdist whose ``PKG-INFO`` is missing or names another version."""
    info = root / "PKG-INFO"
    if not info.is_file():
        raise SourceError(
            f"the source distribution of {name} has no PKG-INFO, so its version cannot "
            "be checked; scan a source checkout at the installed release instead"
        )
    meta = email.parser.Parser().parsestr(info.read_text(encoding="utf-8", errors="replace"))
    found = (meta.get("Version") or "").strip()
    if not _same_version(found, version):
        raise SourceError(
            f"the source distribution of {name} is version {found or '(none)'}, but "
            f"{version} is installed; delete {root.parent} from errdex's cache and try "
            "again, or install the version you mean to scan"
        )


def _same_version(a: str, b: str) -> bool:
    """Equal as PEP 440 versions (``1.0`` is ``1.0.0``), else as written."""
    try:
        from packaging.version import InvalidVersion, Version
    except ImportError:  # pragma: no cover - packaging comes with pip's environments
        return a == b
    try:
        return Version(a) == Version(b)
    except InvalidVersion:
        return a == b


def open_sdist(
    name: str,
    *,
    repo: str | None = None,
    sha: str | None = None,
    ref: str | None = None,
    cache_dir: Path | None = None,
    runner: Runner = subprocess.run,
) -> Checkout:
    """The sdist of installed distribution ``name`` as a checkout to scan.

    Repository, release pin and version come from the installed distribution (as for
    ``--package``); the files come from the sdist's tree, listed like a directory's.
    """
    installed = open_package(name, repo=repo, sha=sha, ref=ref)
    version = installed.version
    if not version:
        raise SourceError(f"the installed {name} names no version, so its sdist cannot be fetched")
    cache = cache_dir or sdist_cache_dir()
    archive = fetch_sdist(name, version, cache_dir=cache, runner=runner)
    root = unpacked_once(archive)
    check_version(root, name, version)
    return replace(installed, root=root, files=None, path_prefix="")


#: The folders of an sdist's root that hold its tests.
TEST_FOLDERS = ("tests", "test", "testing")


def sdist_tests(
    name: str,
    version: str,
    *,
    cache_dir: Path | None = None,
    runner: Runner = subprocess.run,
) -> list[Path]:
    """The test folders at the root of the sdist of ``name`` ``version`` (a wheel ships no
    tests): fetched into the cache and unpacked once, its ``PKG-INFO`` checked against
    ``version``. Raises :class:`SourceError` when it cannot be had."""
    archive = fetch_sdist(name, version, cache_dir=cache_dir or sdist_cache_dir(), runner=runner)
    root = unpacked_once(archive)
    check_version(root, name, version)
    return [root / d for d in TEST_FOLDERS if (root / d).is_dir()]
