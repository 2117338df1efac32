"""One release of a package from the package index (``NAME==VERSION``), not installed.

Users run many releases of a library, and a catalogue of one release cannot place a
traceback from another; ``errdex scan --package attrs==25.4.0`` reads that release
without installing it. pip fetches it (``pip download --no-deps NAME==VERSION``, a
wheel where the index has one that fits, else the sdist; ``sdist=True`` asks for the
sdist) into errdex's cache (``$XDG_CACHE_HOME/errdex/release/NAME-VERSION/``), where it
is unpacked safely, once (:func:`errdex.source.sdist.unpacked_once`) and its metadata must name
the release asked for. Repository, tag and path prefix then come as for an installed
distribution (:func:`errdex.source.package.release_checkout`), so a record's
``filePath`` and id are the same whichever release, wheel or checkout it was read from.
"""

from __future__ import annotations

import email.parser
import os
import re
import subprocess
from dataclasses import replace
from email.message import Message
from importlib import metadata
from pathlib import Path

from .checkout import Checkout
from .errors import SourceError
from .package import check_has_source, package_files, project_repo, release_checkout
from .sdist import Runner, fetch_sdist, pip_download, pip_failure, unpacked_once

__all__ = [
    "ARCHIVES",
    "ReleaseSpec",
    "check_version_text",
    "fetch_release",
    "is_release_spec",
    "open_release",
    "parse_release_spec",
    "release_cache_dir",
]

#: A distribution name as PEP 508 allows it.
_NAME = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$")
_OPERATORS = ("==", ">=", "<=", "!=", "~=", "===", ">", "<", "@")
#: what pip may download for a release: a wheel, else an sdist
ARCHIVES = (".whl", ".tar.gz", ".tgz", ".zip", ".tar.bz2", ".tar.xz", ".tar")

ReleaseSpec = tuple[str, str]


def is_release_spec(text: str) -> bool:
    """Whether ``--package`` was given a requirement (``attrs==25.4.0``) rather than a name."""
    return any(op in text for op in _OPERATORS)


def parse_release_spec(text: str) -> ReleaseSpec:
    """``NAME==VERSION`` -> ``(name, version)``; anything else raises a :class:`SourceError`
    that says what is accepted."""
    spec = text.strip()
    name, sep, version = spec.partition("==")
    name, version = name.strip(), version.strip()
    shown = f"--package {text!r}"
    if not sep or version.startswith("="):
        raise SourceError(
            f"{shown}: give one exact release as NAME==VERSION (attrs==25.4.0); "
            "ranges (>=, ~=, <) and URLs are not releases"
        )
    if not _NAME.match(name):
        raise SourceError(f"{shown}: {name!r} is not a package name (letters, digits, . _ -)")
    if not version or "==" in version or any(c.isspace() or c in ",;<>!~@" for c in version):
        raise SourceError(f"{shown}: {version!r} is not one version; write NAME==VERSION")
    from packaging.version import InvalidVersion, Version

    try:
        Version(version)
    except InvalidVersion:
        raise SourceError(
            f"{shown}: {version!r} is not a PEP 440 version (1.2, 2.0.1, 3.0rc1)"
        ) from None
    return name, version


def release_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/errdex/release``, else ``~/.cache/errdex/release``."""
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "errdex" / "release"


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _listed_versions(name: str, version: str, output: str) -> str | None:
    """The releases pip saw, when it lists them: the index has others, or none at all."""
    known = re.search(r"\(from versions: ([^)]*)\)", output)
    if known is None:
        return None
    listed = [v.strip() for v in known.group(1).split(",") if v.strip()]
    if not listed or listed == ["none"]:
        return f"the package index has no package named {name!r} (or none of its files fit)"
    shown = ", ".join(listed[-8:])
    return f"the package index has no release {version} of {name}; its latest releases are: {shown}"


def fetch_release(
    name: str,
    version: str,
    *,
    cache_dir: Path | None = None,
    runner: Runner = subprocess.run,
    timeout: float = 900,
) -> Path:
    """The archive (wheel or sdist) of release ``name`` ``version``, cached or fetched with pip."""
    return pip_download(
        f"{name}=={version}",
        (cache_dir or release_cache_dir()) / f"{_canonical(name)}-{version}",
        options=[],
        suffixes=ARCHIVES,
        failure=lambda output: pip_failure(
            output,
            f"{name} {version}",
            missing=f"the package index has no release {version} of {name}",
            cause=lambda text: _listed_versions(name, version, text),
        ),
        what=f"{name} {version}",
        runner=runner,
        timeout=timeout,
    )


def _wheel_metadata(root: Path, name: str) -> tuple[metadata.Distribution, Message]:
    infos = [p for p in root.glob("*.dist-info") if (p / "METADATA").is_file()]
    if len(infos) != 1:
        raise SourceError(
            f"the wheel of {name} holds {len(infos)} .dist-info folders with METADATA, not one; "
            "delete it from errdex's cache and try again"
        )
    return metadata.PathDistribution(infos[0]), _read_metadata(infos[0] / "METADATA", name)


def _check_name(found: str | None, name: str, where: str) -> None:
    if _canonical(found or "") != _canonical(name):
        raise SourceError(
            f"{where} names the package {found or '(none)'}, not {name}; "
            "delete it from errdex's cache and try again"
        )


def open_release(
    spec: str,
    *,
    repo: str | None = None,
    sha: str | None = None,
    ref: str | None = None,
    sdist: bool = False,
    cache_dir: Path | None = None,
    runner: Runner = subprocess.run,
) -> Checkout:
    """Release ``spec`` (``NAME==VERSION``) from the package index, as a checkout to scan."""
    name, version = parse_release_spec(spec)
    cache = cache_dir or release_cache_dir()
    if sdist:
        archive = fetch_sdist(name, version, cache_dir=cache / "sdist", runner=runner)
    else:
        archive = fetch_release(name, version, cache_dir=cache, runner=runner)
    root = unpacked_once(archive)
    wheel = archive.name.endswith(".whl")
    if wheel:
        dist, meta = _wheel_metadata(root, name)
    else:  # an sdist: laid out as the repository is, its files listed like a directory's
        meta = _read_metadata(root / "PKG-INFO", name)
    _check_name(meta.get("Name"), name, archive.name)
    check_version_text(meta.get("Version"), name, version, archive.name)
    files = package_files(dist, root) if wheel else None
    if files is not None:
        check_has_source(name, version, root, files)
    checkout = release_checkout(
        meta.get("Name") or name,
        version,
        root,
        files,
        detected=project_repo(meta),
        repo=repo,
        sha=sha,
        ref=ref,
    )
    return checkout if wheel else replace(checkout, path_prefix="")


def _read_metadata(path: Path, name: str) -> Message:
    if not path.is_file():
        raise SourceError(
            f"the archive of {name} has no {path.name}, so its release cannot be checked; "
            "delete it from errdex's cache and try again"
        )
    text = path.read_text(encoding="utf-8", errors="replace")
    return email.parser.Parser().parsestr(text, headersonly=True)


def check_version_text(found: str | None, name: str, version: str, where: str) -> None:
    """Refuse an archive whose metadata names another version than the one asked for."""
    from packaging.version import InvalidVersion, Version

    try:
        same = found is not None and Version(found) == Version(version)
    except InvalidVersion:
        same = found == version
    if not same:
        raise SourceError(
            f"{where} is {name} {found or '(no version)'}, not {version}; delete it from "
            "errdex's cache and try again"
        )
