"""Writing the match index in the layout :mod:`errdex.match.index_file` reads: the columns
packed 8-byte aligned, the texts as UTF-8 regions, the automaton's state, and the MACs
under this user's key; swapped in atomically, so a reader never sees half an index."""

from __future__ import annotations

import json
import os
import sys
from array import array
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import ahocorasick

from errdex.match import index_anchors
from errdex.match.index_anchors import Anchors
from errdex.match.index_file import (
    _ALIGN,
    _ARRAYS,
    _COLUMNS,
    _FILES,
    _MAPS,
    _REGIONS,
    _STATE,
    FILE_FORMAT,
    LIST_SEP,
    _key,
    _mac,
    _state_mac,
)

__all__ = ["write_index"]


def write_index(directory: Path, data: dict[str, Any], automaton: Anchors) -> None:
    """Write atomically: a reader never sees half an index."""
    import tempfile

    directory.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=directory.name + ".", dir=directory.parent))
    columns: dict[str, Sequence[int]] = {name: data[name] for name in _ARRAYS}
    lists: dict[str, list[str]] = {
        "strings": list(data["strings"]),
        "anchors": automaton.anchors(),
    }
    for name in _MAPS:
        keys, flat, offsets = _flatten(data[name])
        lists[name] = keys
        columns[name + ".flat"], columns[name + ".offsets"] = flat, offsets
    columns.update(automaton.columns())  # the rests of the anchors past the automaton's keys
    texts: dict[str, str] = {"ids": data["ids"], "runs_blob": data["runs_blob"]}
    texts[index_anchors.REGION] = automaton.rests
    for name, items in lists.items():
        texts[name], columns[name + ".chars"] = _joined(items)
    arrays_bin, array_layout = _pack_columns(columns)
    texts_bin, text_layout = _pack_texts(texts)
    tables = json.dumps(
        {
            "regex": sorted(data["regex"].items()),
            "shadowed": sorted(data["shadowed"].items()),
            "raised_at": sorted(data.get("raised_at", {}).items()),
            "modules": sorted(data.get("modules", {}).items()),
            "called": sorted(data.get("called", {}).items()),
            "instances": sorted(data.get("instances", {}).items()),
            "class_bases": sorted(data["class_bases"].items()),
        },
        ensure_ascii=False,
        separators=(",", ":"),
    ).encode("utf-8", "surrogatepass")
    meta: dict[str, Any] = {
        "format": FILE_FORMAT,
        "version": data["version"],
        "entries": len(data["lines"]),
        "id_width": data["id_width"],
        "byteorder": sys.byteorder,
        "arrays": array_layout,
        "texts": text_layout,
    }
    key = _key(create=True)
    state = b""
    if key is not None and len(automaton):  # an empty automaton has no state to save
        state, meta["automaton"] = _state(automaton.automaton)
    blobs = [arrays_bin, texts_bin, tables]
    for name, blob in zip(_FILES, blobs, strict=True):
        (tmp / name).write_bytes(blob)
    (tmp / _STATE).write_bytes(state)
    if key is not None:
        meta["mac"] = _mac(key, meta, blobs)
        meta["automaton_mac"] = _state_mac(key, meta["mac"], state)
    (tmp / "meta.json").write_text(json.dumps(meta))
    _replace(tmp, directory)


def _state(automaton: ahocorasick.Automaton) -> tuple[bytes, dict[str, Any]]:
    """The automaton's own state (what it pickles) as raw bytes, and how to read it back."""
    _cls, state = automaton.__reduce__()
    chunks: list[bytes] = list(state[0])
    args = [int(v) for v in state[1:6]]
    return b"".join(chunks), {"args": args, "chunks": [len(c) for c in chunks]}


def _flatten(mapping: Mapping[str, Sequence[int]]) -> tuple[list[str], array[int], array[int]]:
    keys = list(mapping)
    flat = array("I")
    offsets = array("Q", [0])
    for key in keys:
        flat.extend(mapping[key])
        offsets.append(len(flat))
    return keys, flat, offsets


def _joined(items: list[str]) -> tuple[str, array[int]]:
    """The items joined by :data:`~errdex.match.index_file.LIST_SEP`, and where each one
    starts in that text, plus one past the end (as if a separator followed the last)."""
    chars = array("Q", [0])
    total = 0
    for item in items:
        total += len(item) + 1
        chars.append(total)
    return LIST_SEP.join(items), chars if items else array("Q", [0])


def _pack_columns(columns: dict[str, Sequence[int]]) -> tuple[bytes, list[list[Any]]]:
    """The columns as one blob, each at an 8-byte boundary; their layout for ``meta.json``."""
    parts: list[bytes] = []
    layout: list[list[Any]] = []
    at = 0
    for name in _COLUMNS:
        column = columns[name]
        raw = column if isinstance(column, array | memoryview) else array("I", column)
        typecode = raw.typecode if isinstance(raw, array) else raw.format
        blob = bytes(memoryview(raw).cast("B"))
        layout.append([name, typecode, raw.itemsize, len(raw), at])
        pad = -len(blob) % _ALIGN
        parts += [blob, bytes(pad)]
        at += len(blob) + pad
    return b"".join(parts), layout


def _pack_texts(texts: dict[str, str]) -> tuple[bytes, list[list[Any]]]:
    parts: list[bytes] = []
    layout: list[list[Any]] = []
    at = 0
    for name in _REGIONS:
        blob = texts[name].encode("utf-8", "surrogatepass")
        layout.append([name, at, len(blob)])
        parts.append(blob)
        at += len(blob)
    return b"".join(parts), layout


def _replace(tmp: Path, directory: Path) -> None:
    """Swap the new directory in for the old one, then remove the old one."""
    old = directory.with_name(directory.name + ".old")
    if directory.exists():
        os.replace(directory, old)
    os.replace(tmp, directory)
    if old.exists():
        for child in old.iterdir():
            child.unlink()
        old.rmdir()
