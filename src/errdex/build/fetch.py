"""A release's files for a build: downloaded with pip, unpacked, opened as a checkout.

A build reads releases it has not installed, so the wheel (or, failing one, the sdist)
is fetched with the ordinary package client into errdex's cache and opened from its
metadata as an installed distribution would be: the same files, repository and pin.
"""

from __future__ import annotations

import email.parser
import re
import shutil
import subprocess
import sys
import tempfile
from importlib import metadata
from pathlib import Path

from errdex.source.checkout import Checkout
from errdex.source.errors import SourceError
from errdex.source.git import default_cache_dir
from errdex.source.identity import resolve_repo
from errdex.source.local import open_directory
from errdex.source.package import open_distribution, project_repo
from errdex.source.sdist import unpack_sdist

__all__ = ["FetchError", "download_release", "open_release", "release_cache_dir"]

_ARCHIVES = (".whl", ".tar.gz", ".zip", ".tar.bz2", ".tgz")
_WHEEL_NAME = re.compile(r"^(?P<name>[^-]+)-(?P<version>[^-]+)-.*\.whl$")
_SDIST_NAME = re.compile(r"^(?P<name>.+)-(?P<version>[^-]+)\.(?:tar\.gz|zip|tar\.bz2|tgz)$")


class FetchError(SourceError):
    """The release could not be downloaded; ``transient`` when trying again may help."""

    def __init__(self, message: str, *, transient: bool) -> None:
        super().__init__(message)
        self.transient = transient


def release_cache_dir() -> Path:
    return default_cache_dir().parent / "releases"


def _version_of(archive: Path) -> str | None:
    for pattern in (_WHEEL_NAME, _SDIST_NAME):
        found = pattern.match(archive.name)
        if found:
            return found["version"]
    return None


def download_release(
    name: str, version: str | None, *, cache_dir: Path | None = None, timeout: float = 600
) -> Path:
    """The archive of ``name`` (``==version`` when given): a wheel when there is one."""
    cache = cache_dir or release_cache_dir()
    if version:
        folder = cache / f"{name}-{version}"
        kept = (
            sorted(p for p in folder.glob("*") if p.name.endswith(_ARCHIVES))
            if folder.is_dir()
            else []
        )
        if kept:
            return kept[0]
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache, prefix=".download-") as tmp:
        wanted = f"{name}=={version}" if version else name
        command = [
            sys.executable, "-m", "pip", "download", "--no-deps", "--prefer-binary",
            "--disable-pip-version-check", "--no-input", "--quiet", wanted, "-d", tmp,
        ]  # fmt: skip
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise FetchError(
                f"pip did not fetch {wanted} within {int(timeout)} s", transient=True
            ) from None
        archives = [p for p in Path(tmp).iterdir() if p.name.endswith(_ARCHIVES)]
        if done.returncode != 0 or not archives:
            output = (done.stderr or done.stdout).strip().splitlines()
            last = output[-1] if output else f"pip exited with status {done.returncode}"
            network = any(
                w in (done.stderr or "").lower()
                for w in ("connection", "timed out", "temporary failure")
            )
            raise FetchError(f"cannot download {wanted}: {last}", transient=network)
        archive = archives[0]
        folder = cache / f"{name}-{_version_of(archive) or version or 'unknown'}"
        folder.mkdir(exist_ok=True)
        return Path(shutil.move(str(archive), folder / archive.name))


def open_release(archive: Path, work: Path, *, name: str) -> Checkout:
    """Unpack ``archive`` under ``work`` and describe it as its repository's release."""
    root = unpack_sdist(archive, work / "tree")
    if archive.name.endswith(".whl"):
        infos = sorted(root.glob("*.dist-info"))
        if not infos:
            raise SourceError(f"{archive.name} holds no .dist-info folder; it is not a wheel")
        return open_distribution(metadata.PathDistribution(infos[0]), name=name)
    info = root / "PKG-INFO"
    if not info.is_file():
        raise SourceError(f"{archive.name} holds no PKG-INFO; it is not a source distribution")
    meta = email.parser.Parser().parsestr(info.read_text(encoding="utf-8", errors="replace"))
    detected = project_repo(meta)
    repo, _forge = resolve_repo(detected, None)
    return open_directory(
        root,
        repo=repo,
        version=str(meta.get("Version") or "") or _version_of(archive),
        origin_fallback=detected.forge_url if detected else None,
        origin="package",
    )
