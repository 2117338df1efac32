"""The match index on disk, in a format that cannot run code when it is read, and that a
fresh process reads in a few tens of milliseconds at 100k records.

An index directory may sit beside a catalogue someone else wrote (a downloaded
``errdex.db`` with its ``errdex.db.matchindex/``), so loading it must never unpickle:
a planted pickle would run its code on ``errdex match`` or ``POST /api/match``. The
columns are raw machine integers (``arrays.bin``, each column 8-byte aligned and read as a
zero-copy ``memoryview``), raw UTF-8 text (``texts.bin``: the ids, the literal runs, the
interned strings, the maps' keys and the anchors, each a region decoded in one call, not
parsed as JSON) and two small tables in JSON (``texts.json``), all described by
``meta.json``; nothing in them is more than numbers and text. The anchors are decoded only
when the automaton has to be rebuilt from them.

The Aho-Corasick automaton's own state is saved too (``automaton.bin``): rebuilding it
from its anchors takes seconds at a million templates. All the files are covered by one
HMAC-SHA256 whose key is this user's, in errdex's cache directory
(``~/.cache/errdex/index.key``, mode 0600), never beside the index. An index whose MAC
verifies was written by this user's errdex: its columns are used as written, and its
automaton's state is handed to pyahocorasick's C loader. Any other index (another user's,
a downloaded one, one tampered with) has every column checked for length and range, and
its automaton rebuilt from the anchors; whatever fails to parse or does not fit together
is refused, and the caller rebuilds the index from the store.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import sys
from array import array
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import pairwise
from pathlib import Path
from typing import Any, TypeVar

import ahocorasick

from errdex.match import index_anchors
from errdex.match.index_anchors import Anchors, BadAnchors

__all__ = [
    "FILE_FORMAT",
    "SCAN_BUDGET",
    "SECOND_BITS",
    "BadIndex",
    "Deferred",
    "Groups",
    "cache_root",
    "prefetch",
    "read_index",
]

T = TypeVar("T")
#: The rests of the anchors past the automaton's keys: their column and text (.index_anchors).
Longer = tuple[Sequence[Sequence[int]], str]
#: Bumped whenever the files change shape; an index of another format is rebuilt.
FILE_FORMAT = 17
#: The ``seconds`` column packs ``start << SECOND_BITS | length`` (:mod:`.index`).
SECOND_BITS = 8
#: Columns of one machine integer per entry, then those of another length, as written.
_PER_ENTRY = (
    "repos",
    "paths",
    "lines",
    "classes",
    "functions",
    "qualified",
    "heads",
    "tails",
    "seconds",
    "groups",
)
_ARRAYS = (*_PER_ENTRY, "twins", "twin_offsets", "runs_offsets", "postings", "posting_offsets")
#: Maps from a text key to a list of entries, written as keys + flat array + offsets.
_MAPS = ("by_path", "empty_by_class", "one_value_by_class", "observed")
#: Lists of strings, written as one text region + the character offsets of each string.
_LISTS = ("strings", "anchors", *_MAPS)
_STRING_REFS = ("repos", "paths", "classes", "functions", "qualified")
_COLUMNS = (
    *_ARRAYS,
    *(f"{m}.{part}" for m in _MAPS for part in ("flat", "offsets")),
    *(f"{name}.chars" for name in _LISTS),
    *index_anchors.COLUMNS,  # the rests of the anchors past the automaton's keys
)
#: The text regions of ``texts.bin``, in the order written.
_REGIONS = ("ids", "runs_blob", *_LISTS, index_anchors.REGION)
#: The files the columns' MAC covers, in this order, after ``meta.json`` without its MACs;
#: the automaton's state has a MAC of its own, bound to the columns' one.
_FILES = ("arrays.bin", "texts.bin", "texts.json")
_STATE = "automaton.bin"
#: Past this many character comparisons (anchors × message length) a deferred automaton
#: is built from its state rather than the anchors tried one by one against the message.
SCAN_BUDGET = 20_000_000
_ALIGN = 8
#: Between the items of a list's text region; an item that holds it is still read right
#: (by the offsets), only more slowly.
LIST_SEP = "\x1f"


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
    import secrets

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


def _mac(key: bytes, meta: dict[str, Any], blobs: Sequence[bytes | memoryview]) -> str:
    """Over ``meta`` (without its MACs) and the files' bytes, each with its length."""
    head = {k: v for k, v in meta.items() if k not in ("mac", "automaton_mac")}
    described = json.dumps([head, [len(b) for b in blobs]], sort_keys=True).encode()
    mac = hmac.new(key, described, hashlib.sha256)
    for blob in blobs:
        mac.update(blob)
    return mac.hexdigest()


def _state_mac(key: bytes, columns_mac: str, state: bytes) -> str:
    """The automaton's state, bound to the columns it was saved with (fed in two parts: a
    million templates' state is hundreds of MiB, not copied to be prefixed)."""
    mac = hmac.new(key, columns_mac.encode(), hashlib.sha256)
    mac.update(state)
    return mac.hexdigest()


class BadIndex(ValueError):
    """The files on disk are not an index errdex wrote (or not a whole one)."""


class Groups(Mapping[str, Sequence[int]]):
    """A map from a text key to entries, read as it is stored: the keys, one flat column of
    entries and where each key's entries start; a key's entries are sliced (no copy) only
    when it is looked up."""

    def __init__(self, keys: list[str], flat: Sequence[int], offsets: Sequence[int]) -> None:
        if len(offsets) != len(keys) + 1 or (offsets and offsets[-1] != len(flat)):
            raise BadIndex("a map's offsets do not fit its entries")
        self.keys_list, self.flat, self.offsets = keys, flat, offsets
        self._at = dict(zip(keys, range(len(keys)), strict=True))

    def __getitem__(self, key: str) -> Sequence[int]:
        i = self._at[key]
        return self.flat[self.offsets[i] : self.offsets[i + 1]]

    def get(self, key: str, default: Any = None) -> Any:
        """As ``Mapping.get``, without raising and catching a KeyError for a missing key
        (most messages were never observed)."""
        i = self._at.get(key)
        return default if i is None else self.flat[self.offsets[i] : self.offsets[i + 1]]

    def __iter__(self) -> Iterator[str]:
        return iter(self.keys_list)

    def __len__(self) -> int:
        return len(self.keys_list)


# -- reading -----------------------------------------------------------------------------


class _Files:
    """An index's files as read, and whether their MACs verified; the automaton's state is
    read now unless ``deferred`` (then only if a lookup needs it, :class:`Deferred`)."""

    def __init__(self, directory: Path, deferred: bool = False) -> None:
        self.directory = directory
        self.meta_raw = (directory / "meta.json").read_bytes()
        meta = _json(self.meta_raw)
        if not isinstance(meta, dict) or meta.get("format") != FILE_FORMAT:
            raise BadIndex("another format")
        if meta.get("byteorder") != sys.byteorder:
            raise BadIndex("written on a machine of another byte order")
        self.meta: dict[str, Any] = meta
        self.blobs = [(directory / name).read_bytes() for name in _FILES]
        self.key, mac = _key(create=False), meta.get("mac")
        self.trusted = (
            self.key is not None
            and isinstance(mac, str)
            and hmac.compare_digest(_mac(self.key, meta, self.blobs), mac)
        )
        self.deferred = deferred and self.trusted
        self.state: bytes | None = None if self.deferred else self.read_state()

    def read_state(self) -> bytes | None:
        """The automaton's saved state if its MAC verifies for these columns, else None."""
        if not self.trusted or self.key is None:
            return None
        try:
            state = (self.directory / _STATE).read_bytes()
        except OSError:
            return None
        mac = self.meta.get("automaton_mac")
        expected = _state_mac(self.key, str(self.meta.get("mac")), state)
        return state if isinstance(mac, str) and hmac.compare_digest(expected, mac) else None


class _Prefetch:
    """:class:`_Files` read in a thread: reading and hashing release the GIL, so a hook
    that starts this before importing the matcher gets both done at once."""

    def __init__(self, directory: Path, deferred: bool) -> None:
        import threading

        self.deferred = deferred
        self.files: _Files | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, args=(directory,), daemon=True)
        self.thread.start()

    def _run(self, directory: Path) -> None:
        try:
            self.files = _Files(directory, self.deferred)
        except BaseException as error:  # handed to the reader, who would have met it
            self.error = error

    def result(self) -> _Files:
        self.thread.join()
        if self.error is not None:
            raise self.error
        assert self.files is not None
        return self.files


_prefetched: dict[Path, _Prefetch] = {}


def prefetch(directory: Path, *, one_answer: bool = False) -> None:
    """Start reading the index in ``directory`` (and checking its MAC) in a thread, for
    the next :func:`read_index` of it; nothing happens when it has no ``meta.json``.
    ``one_answer``: the process asks one question (errdex's excepthook), so the automaton
    is deferred (:class:`Deferred`): a short message is looked up without building it."""
    if directory in _prefetched or not (directory / "meta.json").is_file():
        return
    _prefetched[directory] = _Prefetch(directory, one_answer)


def _files(directory: Path) -> _Files:
    """The files, from a prefetch when one was started and the index is still the one it
    read (its ``meta.json`` unchanged), else read now."""
    pending = _prefetched.pop(directory, None)
    if pending is not None:
        try:
            files = pending.result()
            if (directory / "meta.json").read_bytes() == files.meta_raw:
                return files
        except (OSError, BadIndex):
            pass  # read it again, now, and meet the error (or not) afresh
    return _Files(directory, deferred=pending is not None and pending.deferred)


def read_index(directory: Path) -> tuple[dict[str, Any], Anchors | Deferred]:
    """The columns and automaton saved in ``directory`` (a :class:`Deferred` one when the
    index was prefetched for one answer); :class:`BadIndex` (or OSError) if they are
    missing, partial, of another format or do not fit together."""
    files = _files(directory)
    meta, blobs, trusted = files.meta, files.blobs, files.trusted
    arrays_bin, texts_bin, tables_json = blobs
    columns = _read_columns(arrays_bin, meta.get("arrays"))
    texts, anchors = _read_texts(texts_bin, meta.get("texts"))
    tables = _json(tables_json)
    if not isinstance(tables, dict):
        raise BadIndex("texts.json is not an object")
    data: dict[str, Any] = {"format": FILE_FORMAT, "version": _int(meta.get("version"))}
    data["id_width"] = _int(meta.get("id_width"))
    data.update((name, columns[name]) for name in _ARRAYS)
    data["ids"], data["runs_blob"] = texts["ids"], texts["runs_blob"]
    data["strings"] = _split(texts["strings"], columns["strings.chars"])
    data["regex"] = _regex(tables.get("regex"))
    data["shadowed"] = _regex(tables.get("shadowed"))  # [entry, module]: the same shape
    data["raised_at"] = _entry_lines(tables.get("raised_at", []))
    data["modules"] = _regex(tables.get("modules", []))  # [entry, module]: the same shape
    data["called"] = _entry_lines(tables.get("called", []))  # [entry, 1]
    # [entry, "<template line> Class.method"]: a rendered template's sites (.rank_instances)
    data["instances"] = _regex(tables.get("instances", []))
    data["class_bases"] = _class_bases(tables.get("class_bases"))
    for name in _MAPS:
        keys = _split(texts[name], columns[name + ".chars"])
        data[name] = Groups(keys, columns[name + ".flat"], columns[name + ".offsets"])
    slots = len(data["posting_offsets"]) - 1
    if len(columns["anchors.chars"]) != slots + 1:
        raise BadIndex("the anchors do not fit the postings")
    if not trusted:  # not written by this user's errdex: every column is checked
        _check(data, _int(meta.get("entries")), [columns[m + ".flat"] for m in _MAPS])
        return data, _automaton(_split(_decode(anchors), columns["anchors.chars"]))
    _check_shape(data, _int(meta.get("entries")))
    longer = ([columns[name] for name in index_anchors.COLUMNS], texts[index_anchors.REGION])
    state = files.state
    if state is not None and not files.deferred:
        # the anchors are not needed: their text (the rest of texts.bin) goes before the
        # automaton is made, which at a million templates is the peak of a load
        files.state, files.blobs = None, []
        del blobs, texts_bin, tables_json
        anchors.release()
        return data, _saved_automaton(state, meta.get("automaton"), slots, longer)
    deferred = Deferred(files, slots, anchors, columns["anchors.chars"], longer)
    return data, deferred if files.deferred and slots else deferred.build()


def _json(blob: bytes) -> Any:
    try:
        return json.loads(blob)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise BadIndex("not JSON") from exc


def _read_columns(blob: bytes, layout: Any) -> dict[str, Sequence[int]]:
    """The integer columns ``meta.json`` describes (name, type code, item size, length,
    offset), as views of the file's bytes: nothing is copied."""
    if not isinstance(layout, list) or [row[0] if row else None for row in layout] != list(
        _COLUMNS
    ):
        raise BadIndex("unexpected columns")
    view = memoryview(blob)
    columns: dict[str, Sequence[int]] = {}
    end = 0
    for row in layout:
        if len(row) != 5 or row[1] not in ("I", "Q"):
            raise BadIndex("bad column description")
        name, typecode = row[0], row[1]
        itemsize, count, at = _int(row[2]), _int(row[3]), _int(row[4])
        if array(typecode).itemsize != itemsize:
            raise BadIndex("written with another integer size")
        if at % _ALIGN or at < end or at + itemsize * count > len(blob):
            raise BadIndex("arrays.bin does not fit its description")
        end = at + itemsize * count
        columns[name] = view[at:end].cast(typecode)
    if len(blob) - end >= _ALIGN:
        raise BadIndex("arrays.bin is longer than described")
    return columns


def _read_texts(blob: bytes, layout: Any) -> tuple[dict[str, str], memoryview]:
    """The text regions (name, offset, length in bytes), each decoded in one call; the
    anchors are left as bytes, decoded only if the automaton must be rebuilt from them."""
    if not isinstance(layout, list) or [row[0] if row else None for row in layout] != list(
        _REGIONS
    ):
        raise BadIndex("unexpected text regions")
    view = memoryview(blob)
    texts: dict[str, str] = {}
    anchors = view[:0]
    end = 0
    for row in layout:
        if len(row) != 3:
            raise BadIndex("bad text description")
        at, length = _int(row[1]), _int(row[2])
        if at != end or at + length > len(blob):
            raise BadIndex("texts.bin does not fit its description")
        end = at + length
        if row[0] == "anchors":
            anchors = view[at:end]
        else:
            texts[row[0]] = _decode(view[at:end])
    if end != len(blob):
        raise BadIndex("texts.bin is longer than described")
    return texts, anchors


def _decode(raw: memoryview) -> str:
    try:
        return str(raw, "utf-8", "surrogatepass")
    except UnicodeDecodeError as exc:
        raise BadIndex("texts.bin is not UTF-8") from exc


def _split(text: str, chars: Sequence[int]) -> list[str]:
    """The items of a list's text region: split at the separators in one call when no item
    holds one (there are exactly one fewer than items), else cut by the offsets."""
    count = len(chars) - 1
    if count <= 0 or chars[-1] != len(text) + 1:
        if count == 0 and not text:
            return []
        raise BadIndex("a list's offsets do not fit its text")
    if text.count(LIST_SEP) == count - 1:
        return text.split(LIST_SEP)
    return [text[a : b - 1] for a, b in pairwise(chars)]


def _int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise BadIndex("expected a natural number")
    return value


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise BadIndex("expected a string")
    return value


def _strs(value: Any) -> list[str]:
    if not isinstance(value, list) or not set(map(type, value)) <= {str}:
        raise BadIndex("expected a list of strings")
    return value


def _regex(value: Any) -> dict[int, str]:
    return _by_entry(value, _str)


def _entry_lines(value: Any) -> dict[int, int]:
    return _by_entry(value, _int)


def _by_entry(value: Any, read: Callable[[Any], T]) -> dict[int, T]:
    """A table of ``[entry, value]`` rows, each value read by ``read``."""
    if not isinstance(value, list):
        raise BadIndex("expected a list of [entry, value] rows")
    out: dict[int, T] = {}
    for row in value:
        if not isinstance(row, list) or len(row) != 2:
            raise BadIndex("expected [entry, value]")
        out[_int(row[0])] = read(row[1])
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


def _check_shape(data: dict[str, Any], entries: int) -> None:
    """What every reader relies on and costs nothing to check: the columns' lengths."""
    if any(len(data[name]) != entries for name in _PER_ENTRY):
        raise BadIndex("columns of different lengths")
    if len(data["ids"]) != entries * data["id_width"]:
        raise BadIndex("the ids do not fit the entries")
    runs_offsets = data["runs_offsets"]
    if len(runs_offsets) != entries + 1 or runs_offsets[-1] != len(data["runs_blob"]):
        raise BadIndex("the runs do not fit the entries")
    offsets = data["posting_offsets"]
    if not len(offsets) or offsets[-1] != len(data["postings"]):
        raise BadIndex("the postings do not fit the anchors")
    twin_offsets = data["twin_offsets"]
    if not len(twin_offsets) or twin_offsets[-1] != len(data["twins"]):
        raise BadIndex("the twins do not fit their groups")
    if not data["strings"]:
        raise BadIndex("no strings")


def _check(data: dict[str, Any], entries: int, flats: list[Sequence[int]]) -> None:
    """Every column has the length and the range its readers rely on (an index this
    user's errdex did not write, read value by value)."""
    _check_shape(data, entries)
    strings = len(data["strings"])
    if any(max(data[n], default=0) >= strings for n in _STRING_REFS):
        raise BadIndex("a column names a string that is not there")
    twin_offsets = data["twin_offsets"]
    if max(data["groups"], default=0) >= len(twin_offsets) or any(
        a >= b for a, b in pairwise(twin_offsets)
    ):
        raise BadIndex("a group of twins out of range")
    offsets, seconds, mask = data["runs_offsets"], data["seconds"], (1 << SECOND_BITS) - 1
    if any(
        (s >> SECOND_BITS) + (s & mask) > offsets[i + 1] - offsets[i]
        for i, s in enumerate(seconds)
        if s
    ):
        raise BadIndex("a second literal outside its entry's runs")
    refs = [data["postings"], data["twins"], *flats]
    if any(max(r, default=0) >= entries for r in refs if len(r)) or any(
        k >= entries
        for k in (
            *data["regex"],
            *data["shadowed"],
            *data["raised_at"],
            *data["modules"],
            *data["called"],
            *data["instances"],
        )
    ):
        raise BadIndex("an entry number out of range")


class Deferred:
    """The automaton of a trusted index, built only when a lookup needs it: from its saved
    state (read and MAC-checked then, if it was not read with the columns), else from the
    anchors. Until then a short message is looked up by trying each anchor against it,
    which at 100k records costs a few milliseconds where building costs tens."""

    def __init__(
        self,
        files: _Files,
        slots: int,
        anchors: memoryview,
        chars: Sequence[int],
        longer: Longer | None = None,
    ) -> None:
        import _thread

        self._files, self.slots, self._raw, self._chars = files, slots, anchors, chars
        self._longer = longer  # the rests of the anchors past their keys (.index_anchors)
        self._anchors: list[str] | None = None
        self._built: Anchors | None = None
        self._lock = _thread.allocate_lock()

    def __len__(self) -> int:
        return self.slots

    def cheap(self, message: str) -> bool:
        """Whether trying every anchor against ``message`` beats building the automaton."""
        return self._built is None and self.slots * (len(message) + 1) <= SCAN_BUDGET

    def anchors(self) -> list[str]:
        if self._anchors is None:
            self._anchors = _split(_decode(self._raw), self._chars)
        return self._anchors

    def scan(self, message: str) -> set[int]:
        """The slots whose anchor occurs in ``message``: what the automaton would find."""
        return {slot for slot, anchor in enumerate(self.anchors()) if anchor in message}

    def build(self) -> Anchors:
        with self._lock:
            if self._built is None:
                files = self._files
                state = files.state if files.state is not None else files.read_state()
                if state is None:  # gone or replaced since the columns were read
                    self._built = _automaton(self.anchors())
                else:
                    self._built = _saved_automaton(
                        state, files.meta.get("automaton"), self.slots, self._longer
                    )
                files.state = None  # built: the state's bytes are not needed any more
            return self._built


def _saved_automaton(state: bytes, saved: Any, slots: int, longer: Longer | None = None) -> Anchors:
    """The automaton from the state saved with an index whose MAC verified, and the
    rests of the anchors past its keys (:mod:`.index_anchors`)."""
    if not slots:
        return _automaton([])
    if not isinstance(saved, dict):
        raise BadIndex("no automaton saved")
    args, lengths = saved.get("args"), saved.get("chunks")
    if not (isinstance(args, list) and len(args) == 5 and isinstance(lengths, list)):
        raise BadIndex("bad automaton description")
    if not all(isinstance(n, int) for n in [*args, *lengths]) or sum(lengths) != len(state):
        raise BadIndex("bad automaton description")
    if len(lengths) == 1:
        chunks = [state]  # the usual case: no copy of a few hundred MiB
    else:
        chunks, at = [], 0
        for length in lengths:
            chunks.append(state[at : at + length])
            at += length
    if longer is None:
        raise BadIndex("no rests of the anchors past the automaton's keys")
    try:
        return Anchors.saved(ahocorasick.Automaton(chunks, *args, None), slots, *longer)
    except BadAnchors as exc:
        raise BadIndex(str(exc)) from exc


def _automaton(anchors: list[str]) -> Anchors:
    """Rebuilt from the anchors, when the saved state is not known to be ours."""
    try:
        return Anchors.build(anchors)
    except BadAnchors as exc:
        raise BadIndex(str(exc)) from exc
