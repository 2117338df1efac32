"""A build entry's release: the version pinned (the newest when the list names none), then
read from the package index as ``errdex scan --package NAME==VERSION`` reads it.

A list may name a package without a version; the build pins the newest release pip
finds, so that the manifest, the catalogue and a rerun all speak of one release.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from errdex.source.checkout import Checkout
from errdex.source.errors import SourceError
from errdex.source.release import open_release, release_cache_dir
from errdex.source.sdist import NETWORK_SIGNS

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
    with tempfile.TemporaryDirectory(dir=cache, prefix=".newest-") as tmp:
        command = [
            sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
            "--no-input", "--quiet", name, "-d", tmp,
        ]  # fmt: skip
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise FetchError(
                f"pip did not fetch {name} within {int(timeout)} s", transient=True
            ) from None
        for archive in Path(tmp).iterdir():
            found = _WHEEL_NAME.match(archive.name) or _SDIST_NAME.match(archive.name)
            if found is not None and done.returncode == 0:
                version = found["version"]
                folder = cache / f"{_canonical(name)}-{version}"
                folder.mkdir(exist_ok=True)
                if not any(folder.iterdir()):
                    shutil.move(str(archive), folder / archive.name)
                return version
    output = (done.stderr or done.stdout).strip()
    last = output.splitlines()[-1] if output else f"pip exited with status {done.returncode}"
    network = any(sign.lower() in output.lower() for sign in NETWORK_SIGNS)
    raise FetchError(f"cannot download {name}: {last}", transient=network)


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
