"""A build entry's release: the version pinned (the newest when the list names none), then
read from the package index as ``errdex scan --package NAME==VERSION`` reads it.

A list may name a package without a version; the build pins the newest release pip
finds, so that the manifest, the catalogue and a rerun all speak of one release.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from errdex.source.cachelock import cache_lock
from errdex.source.checkout import Checkout
from errdex.source.errors import SourceError
from errdex.source.release import ARCHIVES, open_release, release_cache_dir
from errdex.source.sdist import NETWORK_SIGNS, pip_download

__all__ = ["FetchError", "newest_release", "open_build_release"]

_WHEEL_NAME = re.compile(r"^[^-]+-(?P<version>[^-]+)-.*\.whl$")
_SDIST_NAME = re.compile(r"^.+-(?P<version>[^-]+)\.(?:tar\.gz|zip|tar\.bz2|tar\.xz|tgz|tar)$")


class FetchError(SourceError):
    """The release could not be had; ``transient`` when trying again may help."""

    def __init__(self, message: str, *, transient: bool) -> None:
        super().__init__(message)
        self.transient = transient


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def newest_release(name: str, *, cache_dir: Path | None = None, timeout: float = 600) -> str:
    """The version pip picks for a bare ``name``; its archive is kept where
    :func:`~errdex.source.release.fetch_release` looks for it, so it is fetched once."""
    cache = cache_dir or release_cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    network: list[bool] = []  # what pip's output said, when it failed with one

    def failure(output: str) -> str:
        network.append(any(sign.lower() in output.lower() for sign in NETWORK_SIGNS))
        lines = output.strip().splitlines()
        return f"cannot download {name}: {lines[-1] if lines else 'pip found no archive'}"

    with tempfile.TemporaryDirectory(dir=cache, prefix=".newest-") as tmp:
        try:
            archive = pip_download(
                name, Path(tmp) / "got", options=[], suffixes=ARCHIVES, failure=failure,
                what=name, timeout=timeout,
            )  # fmt: skip
        except SourceError as exc:  # a timeout or no pip at all says no output
            raise FetchError(str(exc), transient=network[0] if network else True) from None
        found = _WHEEL_NAME.match(archive.name) or _SDIST_NAME.match(archive.name)
        if found is None:
            raise FetchError(
                f"cannot tell the version of {name} from {archive.name}", transient=False
            )
        version = found["version"]
        folder = cache / f"{_canonical(name)}-{version}"
        with cache_lock(folder):  # a concurrent fetch of this release: keep its archive
            folder.mkdir(exist_ok=True)
            if not any(folder.iterdir()):
                os.replace(archive, folder / archive.name)  # the same file system: atomic
        return version


def open_build_release(name: str, version: str | None) -> Checkout:
    """The checkout of ``name`` at ``version`` (the newest when None), from the index."""
    pinned = version or newest_release(name)
    try:
        return open_release(f"{name}=={pinned}")
    except FetchError:
        raise
    except SourceError as exc:
        text = str(exc)
        if "package index" in text or "pip could not fetch" in text:
            raise FetchError(text, transient="cannot reach" in text) from None
        raise
