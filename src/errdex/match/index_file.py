"""The match index on disk, in a format that cannot run code when it is read.

An index directory may sit beside a catalogue someone else wrote (a downloaded
``errdex.db`` with its ``errdex.db.matchindex/``), so loading it must never unpickle:
a planted pickle would run its code on ``errdex match`` or ``POST /api/match``. The
columns are written as raw machine arrays (``arrays.bin``) and JSON (``texts.json``),
described by ``meta.json``; nothing in them is more than numbers and text.

The Aho-Corasick automaton is the exception: rebuilding it from its anchors takes
seconds at a million templates, so its own state is saved too (``automaton.bin``), and
handed to pyahocorasick's C loader only when its HMAC-SHA256 verifies. The key is
this user's, in errdex's cache directory (``~/.cache/errdex/index.key``, mode 0600),
never beside the index: an index someone else wrote fails the check and its automaton
is rebuilt from the anchors instead. Whatever fails to parse or does not fit together
is refused, and the caller rebuilds the index from the store.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import sys
import tempfile
from array import array
from pathlib import Path
from typing import Any

import ahocorasick

__all__ = ["FILE_FORMAT", "BadIndex", "cache_root", "read_index", "write_index"]

#: Bumped whenever the files change shape; an index of another format is rebuilt.
FILE_FORMAT = 5
#: Columns of one machine integer per entry (or per slot), in the order written.
_ARRAYS = (
    "repos",
    "paths",
    "lines",
    "classes",
    "functions",
    "qualified",
    "runs_offsets",
    "postings",
    "posting_offsets",
)
#: Maps from a text key to a list of entries, written as keys + flat array + offsets.
_MAPS = ("by_path", "empty_by_class", "observed")
_PER_ENTRY = ("repos", "paths", "lines", "classes", "functions", "qualified")
_STRING_REFS = ("repos", "paths", "classes", "functions", "qualified")


def cache_root() -> Path:
    """``$XDG_CACHE_HOME/errdex``, else ``~/.cache/errdex``."""
    # As errdex.source.git.default_cache_dir's parent, without importing errdex.source.
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "errdex"


def _key(create: bool) -> bytes | None:
    """This user's MAC key; made on first save. None when it cannot be read or made."""
    path = cache_root() / "index.key"
    try:
        return _read_key(path)
    except FileNotFoundError:
        if not create:
            return None
    except OSError:
        return None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(secrets.token_bytes(32))
    except FileExistsError:
        pass  # another process made it first
    except OSError:
        return None
    try:
        return _read_key(path)
    except OSError:
        return None


def _read_key(path: Path) -> bytes | None:
    key = path.read_bytes()
    return key if len(key) == 32 else None


def _mac(key: bytes, args: list[int], chunks: list[bytes]) -> str:
    mac = hmac.new(key, json.dumps([args, [len(c) for c in chunks]]).encode(), hashlib.sha256)
    for chunk in chunks:
        mac.update(chunk)
    return mac.hexdigest()


class BadIndex(ValueError):
    """The files on disk are not an index errdex wrote (or not a whole one)."""


def write_index(directory: Path, data: dict[str, Any], automaton: ahocorasick.Automaton) -> None:
    """Write atomically: a reader never sees half an index."""
    directory.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=directory.name + ".", dir=directory.parent))
    arrays: list[tuple[str, array[int]]] = [(name, data[name]) for name in _ARRAYS]
    texts: dict[str, Any] = {
        "ids": data["ids"],
        "runs_blob": data["runs_blob"],
        "strings": data["strings"],
        "regex": sorted(data["regex"].items()),
        "class_bases": sorted(data["class_bases"].items()),
        "anchors": _anchors(automaton, len(data["posting_offsets"]) - 1),
    }
    for name in _MAPS:
        keys, flat, offsets = _flatten(data[name])
        texts[name] = keys
        arrays += [(name + ".flat", flat), (name + ".offsets", offsets)]
    with (tmp / "arrays.bin").open("wb") as fh:
        for _, column in arrays:
            column.tofile(fh)
    with (tmp / "texts.json").open("w", encoding="utf-8") as fh:
        json.dump(texts, fh, ensure_ascii=False, separators=(",", ":"))
    meta = {
        "format": FILE_FORMAT,
        "version": data["version"],
        "entries": len(data["lines"]),
        "id_width": data["id_width"],
        "byteorder": sys.byteorder,
        "arrays": [[name, col.typecode, col.itemsize, len(col)] for name, col in arrays],
    }
    key = _key(create=True)
    if key is not None and len(automaton):  # an empty automaton has no state to save
        meta["automaton"] = _write_state(tmp / "automaton.bin", automaton, key)
    (tmp / "meta.json").write_text(json.dumps(meta))
    _replace(tmp, directory)


def read_index(directory: Path) -> tuple[dict[str, Any], ahocorasick.Automaton]:
    """The columns and automaton saved in ``directory``; :class:`BadIndex` (or OSError) if
    they are missing, partial, of another format or do not fit together."""
    meta = _json(directory / "meta.json")
    if not isinstance(meta, dict) or meta.get("format") != FILE_FORMAT:
        raise BadIndex("another format")
    if meta.get("byteorder") != sys.byteorder:
        raise BadIndex("written on a machine of another byte order")
    columns = _read_arrays(directory / "arrays.bin", meta.get("arrays"))
    texts = _json(directory / "texts.json")
    if not isinstance(texts, dict):
        raise BadIndex("texts.json is not an object")
    data: dict[str, Any] = {"format": FILE_FORMAT, "version": _int(meta.get("version"))}
    data["id_width"] = _int(meta.get("id_width"))
    data.update((name, columns[name]) for name in _ARRAYS)
    for name in ("ids", "runs_blob"):
        data[name] = _str(texts.get(name))
    data["strings"] = _strs(texts.get("strings"))
    data["regex"] = _regex(texts.get("regex"))
    data["class_bases"] = _class_bases(texts.get("class_bases"))
    for name in _MAPS:
        keys = _strs(texts.get(name))
        data[name] = _unflatten(keys, columns[name + ".flat"], columns[name + ".offsets"])
    anchors = _strs(texts.get("anchors"))
    _check(data, _int(meta.get("entries")), len(anchors), [columns[m + ".flat"] for m in _MAPS])
    return data, _load_state(directory / "automaton.bin", meta.get("automaton"), anchors)


# -- writing -----------------------------------------------------------------------------


def _anchors(automaton: ahocorasick.Automaton, slots: int) -> list[str]:
    """The automaton's words by the posting slot each one stands for."""
    anchors = [""] * slots
    if len(automaton):
        for key, slot in automaton.items():
            anchors[slot] = key
    return anchors


def _write_state(path: Path, automaton: ahocorasick.Automaton, key: bytes) -> dict[str, Any]:
    """The automaton's own state (what it pickles) as raw bytes, with its MAC."""
    _cls, state = automaton.__reduce__()
    chunks: list[bytes] = list(state[0])
    args = [int(v) for v in state[1:6]]
    with path.open("wb") as fh:
        for chunk in chunks:
            fh.write(chunk)
    return {"args": args, "chunks": [len(c) for c in chunks], "mac": _mac(key, args, chunks)}


def _flatten(mapping: dict[str, array[int]]) -> tuple[list[str], array[int], array[int]]:
    keys = list(mapping)
    flat = array("I")
    offsets = array("Q", [0])
    for key in keys:
        flat.extend(mapping[key])
        offsets.append(len(flat))
    return keys, flat, offsets


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


# -- reading -----------------------------------------------------------------------------


def _json(path: Path) -> Any:
    try:
        return json.loads(path.read_bytes())
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise BadIndex(f"{path.name} is not JSON") from exc


def _read_arrays(path: Path, layout: Any) -> dict[str, array[int]]:
    """The raw columns ``meta.json`` describes: names, type codes, item sizes, lengths."""
    wanted = [*_ARRAYS, *(f"{m}.{part}" for m in _MAPS for part in ("flat", "offsets"))]
    if not isinstance(layout, list) or [row[0] if row else None for row in layout] != wanted:
        raise BadIndex("unexpected columns")
    blob = memoryview(path.read_bytes())
    columns: dict[str, array[int]] = {}
    at = 0
    for row in layout:
        if len(row) != 4 or row[1] not in ("I", "Q"):
            raise BadIndex("bad column description")
        name, typecode, itemsize, count = row[0], row[1], _int(row[2]), _int(row[3])
        column = array(typecode)
        if column.itemsize != itemsize:
            raise BadIndex("written with another integer size")
        end = at + itemsize * count
        if end > len(blob):
            raise BadIndex("arrays.bin is short")
        column.frombytes(blob[at:end])
        columns[name] = column
        at = end
    if at != len(blob):
        raise BadIndex("arrays.bin is longer than described")
    return columns


def _int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise BadIndex("expected a natural number")
    return value


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise BadIndex("expected a string")
    return value


def _strs(value: Any) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise BadIndex("expected a list of strings")
    return value


def _regex(value: Any) -> dict[int, str]:
    if not isinstance(value, list):
        raise BadIndex("expected a list of patterns")
    out: dict[int, str] = {}
    for row in value:
        if not isinstance(row, list) or len(row) != 2:
            raise BadIndex("expected [entry, pattern]")
        out[_int(row[0])] = _str(row[1])
    return out


def _class_bases(value: Any) -> dict[str, list[str]]:
    if not isinstance(value, list):
        raise BadIndex("expected a list of classes")
    out: dict[str, list[str]] = {}
    for row in value:
        if not isinstance(row, list) or len(row) != 2:
            raise BadIndex("expected [class, bases]")
        out[_str(row[0])] = _strs(row[1])
    return out


def _unflatten(keys: list[str], flat: array[int], offsets: array[int]) -> dict[str, array[int]]:
    if len(offsets) != len(keys) + 1 or (offsets and offsets[-1] != len(flat)):
        raise BadIndex("a map's offsets do not fit its entries")
    return {key: flat[offsets[i] : offsets[i + 1]] for i, key in enumerate(keys)}


def _check(data: dict[str, Any], entries: int, anchors: int, flats: list[array[int]]) -> None:
    """Every column has the length and the range its readers rely on."""
    if any(len(data[name]) != entries for name in _PER_ENTRY):
        raise BadIndex("columns of different lengths")
    if len(data["ids"]) != entries * data["id_width"]:
        raise BadIndex("the ids do not fit the entries")
    runs_offsets = data["runs_offsets"]
    if len(runs_offsets) != entries + 1 or runs_offsets[-1] != len(data["runs_blob"]):
        raise BadIndex("the runs do not fit the entries")
    offsets = data["posting_offsets"]
    if len(offsets) != anchors + 1 or offsets[-1] != len(data["postings"]):
        raise BadIndex("the postings do not fit the anchors")
    strings = len(data["strings"])
    if strings == 0 or any(max(data[n], default=0) >= strings for n in _STRING_REFS):
        raise BadIndex("a column names a string that is not there")
    refs = [data["postings"], *flats]
    if any(max(r, default=0) >= entries for r in refs if len(r)) or any(
        k >= entries for k in data["regex"]
    ):
        raise BadIndex("an entry number out of range")


def _load_state(path: Path, saved: Any, anchors: list[str]) -> ahocorasick.Automaton:
    """The saved automaton if this user's errdex wrote it (its MAC verifies) and it holds
    the anchors; else the automaton rebuilt from the anchors."""
    key = _key(create=False)
    if key is None or not isinstance(saved, dict):
        return _automaton(anchors)
    args, lengths, mac = saved.get("args"), saved.get("chunks"), saved.get("mac")
    if not (isinstance(args, list) and len(args) == 5 and isinstance(lengths, list)):
        return _automaton(anchors)
    if not isinstance(mac, str) or not all(isinstance(n, int) for n in [*args, *lengths]):
        return _automaton(anchors)
    try:
        blob = path.read_bytes()
    except OSError:
        return _automaton(anchors)
    if lengths == [len(blob)]:
        chunks, at = [blob], len(blob)  # the usual case: no copy of a few hundred MiB
    else:
        chunks, at = [], 0
        for length in lengths:
            chunks.append(blob[at : at + length])
            at += length
    if at != len(blob) or not hmac.compare_digest(_mac(key, args, chunks), mac):
        return _automaton(anchors)
    automaton = ahocorasick.Automaton(chunks, *args, None)
    if len(automaton) != len(set(anchors)):
        raise BadIndex("the automaton does not hold the anchors")
    return automaton


def _automaton(anchors: list[str]) -> ahocorasick.Automaton:
    """Rebuilt from the anchors, when the saved state is not known to be ours."""
    automaton = ahocorasick.Automaton(ahocorasick.STORE_INTS)
    for slot, key in enumerate(anchors):
        if not key:
            raise BadIndex("an empty anchor")
        automaton.add_word(key, slot)
    if anchors:
        automaton.make_automaton()
    return automaton
