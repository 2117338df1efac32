"""What `errdex build` is asked to catalogue: one line of the list per package or repository.

A list is written by hand or generated, so a bad line is reported with its number and
skipped; the rest of the build goes on.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from errdex.source.remote import looks_like_git_url

__all__ = ["BadLine", "BuildSpec", "SpecError", "parse_spec", "read_list"]

SpecKind = Literal["package", "git", "path"]

# PEP 508 names; a version is what pip accepts after ``==`` (PEP 440 or a legacy string)
_NAME = r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?"
_PACKAGE = re.compile(rf"^(?P<name>{_NAME})(?:\s*==\s*(?P<version>[A-Za-z0-9.!+_-]+))?$")


_COMMENT = re.compile(r"(?:^|\s)#")


class SpecError(ValueError):
    """A line of a build list that names nothing errdex can build."""


@dataclass(frozen=True)
class BuildSpec:
    """One thing to build; ``text`` is its key in the manifest (as normalised here)."""

    text: str
    kind: SpecKind
    name: str
    version: str | None = None


@dataclass(frozen=True)
class BadLine:
    number: int
    text: str
    why: str


def parse_spec(text: str, *, base: Path | None = None) -> BuildSpec:
    """``NAME``, ``NAME==VERSION``, a git URL (``…@ref`` allowed) or a directory path."""
    line = text.strip()
    if not line:
        raise SpecError("empty line")
    if looks_like_git_url(line):
        return BuildSpec(text=line, kind="git", name=line)
    if line.startswith((".", "/", "~")) or "/" in line or "\\" in line:
        path = Path(line).expanduser()
        if base is not None and not path.is_absolute():
            path = base / path
        if not path.is_dir():
            raise SpecError(f"{line}: no such directory (a path names a source directory)")
        resolved = str(path.resolve())
        return BuildSpec(text=resolved, kind="path", name=resolved)
    found = _PACKAGE.match(line)
    if found is None:
        raise SpecError(
            f"{line!r} is not a package (NAME or NAME==VERSION), a git URL or a directory; "
            "version ranges are not taken: pin one release with =="
        )
    name = found["name"]
    version = found["version"]
    canonical = re.sub(r"[-_.]+", "-", name).lower()
    return BuildSpec(
        text=f"{canonical}=={version}" if version else canonical,
        kind="package",
        name=canonical,
        version=version,
    )


def read_list(
    lines: Iterable[str], *, base: Path | None = None
) -> tuple[list[BuildSpec], list[BadLine]]:
    """Specs in order, first occurrence kept; ``#`` starts a comment."""
    specs: list[BuildSpec] = []
    bad: list[BadLine] = []
    seen: set[str] = set()
    for number, raw in enumerate(lines, start=1):
        text = _COMMENT.split(raw, maxsplit=1)[0].strip()
        if not text:
            continue
        try:
            spec = parse_spec(text, base=base)
        except SpecError as exc:
            bad.append(BadLine(number, raw.rstrip("\n"), str(exc)))
            continue
        if spec.text not in seen:
            seen.add(spec.text)
            specs.append(spec)
    return specs, bad
