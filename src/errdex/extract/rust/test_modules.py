"""The files of a crate that only ``cargo test`` compiles because a module says so.

``#[cfg(test)] mod tests;`` in ``src/lib.rs`` makes ``src/tests.rs`` (or
``src/tests/mod.rs``, with every file below ``src/tests/``) test code, as is every
``mod x;`` inside test code (``#[cfg(test)] mod tests { mod util; }``, a ``#![cfg(test)]``
file). The extractor reads one file at a time and cannot see the declaration, so the scan
asks this module which listed files to leave out, as it leaves out ``tests/`` folders.

Rust's rules for where ``mod x;`` lives: in ``lib.rs``, ``main.rs``, ``mod.rs`` or a
binary's root under ``src/bin/`` it is ``x.rs`` or ``x/mod.rs`` beside the file; in any
other ``a.rs`` it is under ``a/``; an inline ``mod m { … }`` adds ``m/``; and
``#[path = "p"]`` names the file from the declaring file's folder (from the inline
modules' folder when inside one).

Only files that declare a module and say ``test`` somewhere are parsed (a few of a crate).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from pathlib import Path

from tree_sitter import Node

from .literals import string_value
from .scope import in_test_code, outer_attributes

__all__ = ["declared_test_files", "declared_test_paths"]

#: ``mod x;`` (not ``mod x {``): a file without one declares no out-of-line module.
_DECLARES = re.compile(rb"\bmod\s+(?:r#)?\w+\s*;")
_ROOT_NAMES = ("lib.rs", "main.rs", "mod.rs")


def _text(node: Node | None) -> str:
    return "" if node is None else (node.text or b"").decode("utf-8", errors="replace")


def _module_dir(file_path: str) -> str:
    """The folder a file's ``mod x;`` declarations live in."""
    folder, name = posixpath.split(file_path)
    if name in _ROOT_NAMES or posixpath.basename(folder) == "bin" or name == "build.rs":
        return folder
    return posixpath.join(folder, name.removesuffix(".rs"))


def _path_attribute(item: Node) -> str | None:
    """``p`` of a ``#[path = "p"]`` written before ``item``."""
    for attribute_item in outer_attributes(item):
        attribute = next((c for c in attribute_item.named_children if c.type == "attribute"), None)
        if attribute is None or not attribute.named_children:
            continue
        if _text(attribute.named_children[0]) != "path":
            continue
        value = attribute.child_by_field_name("value")
        return string_value(value) if value is not None else None
    return None


def _walk_declarations(node: Node, inline: list[str], out: list[tuple[Node, list[str]]]) -> None:
    for child in node.named_children:
        if child.type != "mod_item":
            continue
        body = child.child_by_field_name("body")
        name = _text(child.child_by_field_name("name")).removeprefix("r#")
        if body is None:
            out.append((child, inline))
        else:
            _walk_declarations(body, [*inline, name], out)


def declared_test_paths(root: Node, file_path: str) -> list[str]:
    """Where the test modules that a file declares live: each a file (``src/tests.rs``,
    ``src/tests/mod.rs``) or a folder ending in ``/`` (``src/tests/``), from the crate's
    root as ``file_path`` is."""
    declarations: list[tuple[Node, list[str]]] = []
    _walk_declarations(root, [], declarations)
    found: list[str] = []
    for item, inline in declarations:
        name_node = item.child_by_field_name("name")
        if name_node is None or not in_test_code(name_node):
            continue
        folder = posixpath.join(_module_dir(file_path), *inline)
        explicit = _path_attribute(item)
        if explicit is not None:
            base = folder if inline else posixpath.dirname(file_path)
            found.append(posixpath.normpath(posixpath.join(base, explicit)))
            continue
        name = _text(name_node).removeprefix("r#")
        module = posixpath.join(folder, name)
        found += [f"{module}.rs", f"{module}/mod.rs", f"{module}/"]
    return found


def declared_test_files(root: Path, files: Sequence[str]) -> set[str]:
    """The listed ``.rs`` files (paths relative to ``root``) that a ``#[cfg(test)] mod x;``
    of another listed file declares, directly or inside a test module's folder."""
    from . import parse

    exact: set[str] = set()
    folders: list[str] = []
    for rel in files:
        if not rel.endswith(".rs"):
            continue
        try:
            source = (root / rel).read_bytes()
        except OSError:
            continue
        if b"test" not in source or _DECLARES.search(source) is None:
            continue
        for path in declared_test_paths(parse(source), rel):
            if path.endswith("/"):
                folders.append(path)
            else:
                exact.add(path)
    prefixes = tuple(folders)
    return {f for f in files if f in exact or (prefixes and f.startswith(prefixes))}
