"""A small repository written from texts, indexed, with its chain walker."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.chains import Chains
from errdex.analyze.classes import ClassTree
from errdex.analyze.repo import RepoIndex, build_index
from errdex.source import open_source


def chains_of(root: Path, files: dict[str, str]) -> tuple[RepoIndex, Chains]:
    """Write ``files`` (path -> text) under ``root`` and walk them as the library."""
    for name, text in files.items():
        (root / name).write_text(text)
    index = build_index(open_source(str(root), repo="o/m"), library_files=list(files))
    return index, Chains(index, ClassTree(index))
