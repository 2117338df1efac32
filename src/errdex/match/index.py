"""The match index: from a message or a frame to the records that could have raised it.

Built once from a store and saved beside it, so that ``errdex explain`` loads it in
a fraction of a second instead of rebuilding. Three ways in:

* **frames** — a frame's path ends with a record's ``filePath`` (or its module path,
  ``Lib/json/decoder.py`` ↔ ``…/python3.11/json/decoder.py``) at or near its line;
* **message** — an Aho-Corasick automaton over one rare literal anchor per template
  (its first characters, the rest compared where they end: :mod:`.index_anchors`)
  finds the templates whose literal text can occur in the message; each is then
  verified in linear time (:mod:`errdex.match.literal_match`, or RE2 for patterns
  not made by errdex). There is no loop over all patterns;
* **empty messages** — ``raise NoPath`` prints no message: those are found by class.

Columns are kept as flat arrays and one text blob, not millions of small objects,
which keeps a million-template index within memory and quick to load; they are saved
in a format that cannot run code when read (:mod:`errdex.match.index_file`).
"""

from __future__ import annotations

import gc
import re
from array import array
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, MutableMapping, Sequence, Set
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import Any

from errdex.match import edges, index_groups
from errdex.match.classes import ClassResolver
from errdex.match.index_anchors import Anchors
from errdex.match.index_file import FILE_FORMAT, SECOND_BITS, BadIndex, Deferred, read_index
from errdex.match.index_write import write_index
from errdex.match.layouts import frame_keys
from errdex.template import HOLE_REGEX, KIND_REGEX

__all__ = [
    "EDGE_BREAKS",
    "INDEX_FORMAT",
    "PASSED_KEY",
    "RUN_TIME_KEY",
    "Entry",
    "MatchIndex",
    "runs_from_pattern",
    "template_runs",
    "trim_edges",
]

INDEX_FORMAT = FILE_FORMAT
_SEP = "\x1f"  # between the literal runs of one entry in the runs blob
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")
_UNESCAPE = re.compile(r"\\(.)", re.S)
_META = re.compile(r"(?<!\\)[.*+?^${}()|\[\]]")
#: Frames this close to a record's line in the same file still count (code moved).
NEAR_LINES = 40
#: Message candidates checked per query, at most (crowded anchors are expanded last).
MESSAGE_BUDGET = 512
#: A rarest word shared by more templates than this is a poor anchor (bench/match_speed.py).
SHARED_WORD_LIMIT = 16
#: Entries :meth:`MatchIndex.entry` keeps made (a few MiB), emptied when full.
ENTRY_CACHE = 8192
#: A template of one hole with fewer literal characters than this is one value
#: (:meth:`MatchIndex.one_value_sites`; ``rank`` asks for fewer than its ``LONE_CHARS``).
ONE_VALUE_CHARS = 3
#: The key of :meth:`MatchIndex.one_value_sites` under which the sites raising a value a
#: caller passed are kept (no class name holds ``<``): :meth:`MatchIndex.passed_in_sites`.
PASSED_KEY = "<passed in>"
#: The same for a class a call or lookup decides (``raise self.mapping[code](*args)``).
RUN_TIME_KEY = "<run time>"
#: Groups of twins whose sites :meth:`MatchIndex.twin_sites` keeps counted, at most.
TWIN_SITES_KEPT = 256
#: Longest anchor kept (longer literal runs are anchored by their first characters).
MAX_ANCHOR_CHARS = 200


@dataclass(frozen=True, slots=True)
class Entry:
    """One record as the matcher sees it."""

    index: int
    id: str
    repo: str
    file_path: str
    line: int
    error_class: str | None
    function: str | None
    runs: tuple[str, ...] | None  # None: verify with RE2 on ``pattern``
    pattern: str

    @property
    def literal_length(self) -> int:
        return sum(len(r) for r in self.runs) if self.runs is not None else 0


def runs_from_pattern(pattern: str) -> tuple[str, ...] | None:
    """Literal runs of a pattern made of escaped literals and hole groups; None otherwise."""
    if pattern == "^$":
        return ("",)
    pieces = pattern.split(HOLE_REGEX)
    runs = []
    for piece in pieces:
        if _META.search(piece):
            return None
        runs.append(_UNESCAPE.sub(r"\1", piece))
    return tuple(runs)


#: What a paste loses around a message: the line breaks a traceback prints after a
#: message that ends with one (spaces are kept: a hole's value may end in one).
EDGE_BREAKS = "\r\n"


def trim_edges(runs: tuple[str, ...]) -> tuple[str, ...]:
    """The runs less the line breaks that open the first and close the last: a pasted
    message is read without them (a traceback prints ``raise ValueError("bad\\n")`` as
    ``ValueError: bad`` and a blank line, which every paste and copy trims), so a template
    compares to the message as read (:func:`errdex.match.rank.rank` strips it too)."""
    if not runs:
        return runs
    if len(runs) == 1:
        return (runs[0].strip(EDGE_BREAKS),)
    return (runs[0].lstrip(EDGE_BREAKS), *runs[1:-1], runs[-1].rstrip(EDGE_BREAKS))


def template_runs(parts: Iterable[Mapping[str, str]]) -> tuple[tuple[str, ...], bool]:
    """``(template.runs(), template.has_kinds)`` of ``MessageTemplate.from_json(parts)``,
    read straight from the stored parts: a million templates are not parsed into objects."""
    runs: list[str] = []
    current = ""
    kinds = False
    for part in parts:
        if part.get("optional"):  # printed on some ways only: the pattern decides
            kinds = kinds or "hole" in part or bool(part.get("literal"))
            continue
        if "literal" in part:
            current += part["literal"]
        else:
            runs.append(current + part.get("prefix", ""))
            current = ""
            kinds = kinds or part.get("kind", "") in KIND_REGEX
    runs.append(current)
    return tuple(runs), kinds


class MatchIndex:
    """A frozen index over the current records of a store."""

    def __init__(self, data: dict[str, Any], automaton: Anchors | Deferred) -> None:
        self._data = data
        self._automaton = automaton  # Deferred: built on the first lookup that needs it
        self.version: int = data["version"]
        self._ids: str = data["ids"]
        # built: arrays and dicts; loaded: views of the saved files (:mod:`.index_file`)
        self._repos: Sequence[int] = data["repos"]
        self._paths: Sequence[int] = data["paths"]
        self._lines: Sequence[int] = data["lines"]
        self._classes: Sequence[int] = data["classes"]
        self._functions: Sequence[int] = data["functions"]
        self._runs_blob: str = data["runs_blob"]
        self._runs_offsets: Sequence[int] = data["runs_offsets"]
        self._regex: dict[int, str] = data["regex"]
        self._shadowed: dict[int, str] = data.get("shadowed") or {}  # older builders: none
        self._raised_at: dict[int, int] = data.get("raised_at") or {}
        self._modules: dict[int, str] = data.get("modules") or {}
        self._called: dict[int, int] = data.get("called") or {}
        self._strings: list[str] = data["strings"]
        self._postings: Sequence[int] = data["postings"]
        self._posting_offsets: Sequence[int] = data["posting_offsets"]
        self._by_path: Mapping[str, Sequence[int]] = data["by_path"]
        self._empty_by_class: Mapping[str, Sequence[int]] = data["empty_by_class"]
        self._one_value_by_class: Mapping[str, Sequence[int]] = data["one_value_by_class"]
        self._id_width: int = data["id_width"]
        self._observed: Mapping[str, Sequence[int]] = data["observed"]
        self._qualified: Sequence[int] = data["qualified"]
        self._heads: Sequence[int] = data["heads"]
        self._tails: Sequence[int] = data["tails"]
        self._seconds: Sequence[int] = data["seconds"]  # see :meth:`may_match`
        self._groups: Sequence[int] = data["groups"]  # :mod:`.index_groups`
        self._twins: Sequence[int] = data["twins"]
        self._twin_offsets: Sequence[int] = data["twin_offsets"]
        self._class_bases: dict[str, list[str]] = data["class_bases"]
        self._resolver: ClassResolver | None = None
        self._class_names: set[str] | None = None
        self._by_class: dict[str, array[int]] | None = None
        self._entries: dict[int, Entry] = {}  # :meth:`entry`'s cache
        self._folds: dict[int, tuple[list[int], list[int]] | None] = {}  # :meth:`_fold`'s
        self._twin_sites: dict[int, tuple[Set[int], int] | None] = {}  # :meth:`twin_sites`'

    # -- building ----------------------------------------------------------------------

    @classmethod
    def build(cls, envelopes: Iterable[dict[str, Any]], version: int = 0) -> MatchIndex:
        """Freeze the current records into an index (the cyclic GC paused: the build
        makes millions of objects that hold no cycles)."""
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            from errdex.match.index_build import build_columns  # only where one is built

            return cls(*build_columns(envelopes, version))
        finally:
            if was_enabled:
                gc.enable()

    # -- persistence ---------------------------------------------------------------------

    def save(self, directory: Path) -> None:
        """Write atomically, in a format that cannot run code when read (:mod:`.index_file`)."""
        write_index(directory, self._data, self._built())

    @classmethod
    def load(cls, directory: Path) -> MatchIndex | None:
        """The saved index, or None when it is missing, partial, of another format or not
        an index errdex wrote; nothing in it is unpickled or run."""
        was_enabled = gc.isenabled()
        gc.disable()
        try:
            data, automaton = read_index(directory)
        except (OSError, BadIndex):
            return None
        finally:
            if was_enabled:
                gc.enable()
        return cls(data, automaton)

    # -- lookups -------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._lines)

    def entry(self, index: int) -> Entry:
        """One entry, made from the columns; the last few thousand asked for are kept (they
        are immutable): the sites of a bare ``raise Class`` or of a template that is all
        holes come up again and again."""
        entry = self._entries.get(index)
        if entry is None:
            if len(self._entries) >= ENTRY_CACHE:
                self._entries.clear()
            entry = self._entries[index] = self._make_entry(index)
        return entry

    def _make_entry(self, index: int) -> Entry:
        strings = self._strings
        width = self._id_width
        pattern = self._regex.get(index)
        return Entry(  # positional: a frozen dataclass's keywords cost as much as the rest
            index,
            self._ids[index * width : (index + 1) * width].rstrip(),
            strings[self._repos[index]],
            strings[self._paths[index]],
            self._lines[index],
            strings[self._classes[index]] or None,
            strings[self._functions[index]] or None,
            None if pattern is not None else self._runs(index),
            pattern or "",
        )

    def pattern(self, index: int) -> str:
        """The pattern RE2 verifies an entry by ("": its literal runs decide)."""
        return self._regex.get(index) or ""

    def runs(self, index: int) -> tuple[str, ...] | None:
        """An entry's literal runs, read straight from the columns (None: verify by regex)."""
        if index in self._regex:
            return None
        return self._runs(index)

    #: Between the runs of :meth:`literal_texts`' texts.
    RUN_SEPARATOR = _SEP

    def literal_texts(self, candidates: Iterable[int]) -> list[tuple[int, str]]:
        """``(entry, its runs joined by RUN_SEPARATOR)`` for the candidates checked by their
        literal runs, in order: one slice each, for a pass that mostly looks at lengths."""
        regex, blob, offsets = self._regex, self._runs_blob, self._runs_offsets
        return [(i, blob[offsets[i] : offsets[i + 1]]) for i in candidates if i not in regex]

    def runs_text(self, index: int) -> str | None:
        """An entry's runs joined by :data:`RUN_SEPARATOR` (None: verify by regex): entries
        with the same text fit the same messages with the same holes."""
        if index in self._regex:
            return None
        offsets = self._runs_offsets
        return self._runs_blob[offsets[index] : offsets[index + 1]]

    def literal_bounds(self, candidates: Sequence[int], most: int) -> list[int]:
        """Per candidate, at least the literal characters it fixes of a text of ``most``
        characters, rendered whole or in part: its runs' characters, less the separators
        between them (``most`` for an entry RE2 verifies)."""
        regex, offsets, blob = self._regex, self._runs_offsets, self._runs_blob
        return [
            most
            if i in regex
            else min(
                most,
                (end := offsets[i + 1]) - (start := offsets[i]) - blob.count(_SEP, start, end),
            )
            for i in candidates
        ]

    def _runs(self, index: int) -> tuple[str, ...]:
        offsets = self._runs_offsets
        return tuple(self._runs_blob[offsets[index] : offsets[index + 1]].split(_SEP))

    def may_match(self, candidates: Iterable[int], message: str) -> list[int]:
        """The candidates, in order, whose literal start and end agree with ``message``'s
        (:mod:`.edges`) and whose second literal, if kept, occurs in it: the others cannot
        match it in full, whatever their holes hold.

        An entry under an anchor shared by more than :data:`SHARED_WORD_LIMIT` entries keeps
        its longest run (its first 255 characters) as its second literal, packed as
        ``start << SECOND_BITS | length`` in its runs text (0: none): one ``in`` here spares
        the full match that most of a crowded anchor's entries (``at position``: hundreds
        of templates) would each cost."""
        heads, tails, seconds = self._heads, self._tails, self._seconds
        blob, offsets, mask = self._runs_blob, self._runs_offsets, (1 << SECOND_BITS) - 1
        first, last = edges.starts(message), edges.ends(message)
        return [
            i
            for i in candidates
            if heads[i] in first
            and tails[i] in last
            and (
                not (s := seconds[i])
                or blob[(at := offsets[i] + (s >> SECOND_BITS)) : at + (s & mask)] in message
            )
        ]

    def may_start(self, candidates: Iterable[int], text: str) -> list[int]:
        """The candidates, in order, whose literal start agrees with ``text``'s: the others
        cannot match any start of it either."""
        heads = self._heads
        first = edges.starts(text)
        return [i for i in candidates if heads[i] in first]

    def by_message(
        self, message: str, budget: int = MESSAGE_BUDGET, most: int | None = None
    ) -> list[int]:
        """Entries whose anchor occurs in ``message`` (a superset of the full matches).

        Anchors shared by few templates come first; past ``budget`` candidates the
        crowded anchors (``(at``: templates that are nearly all holes, which could at
        best share a tiny confidence) are not expanded further, so a query stays cheap.
        ``most``: only the first so many, read from the start of each posting (each is
        in entry order, and postings share no entry), not all of them sorted.
        """
        if not len(self._automaton):
            return []
        offsets = self._posting_offsets
        flat = self._postings
        if most is not None:
            parts: list[Sequence[int]] = []
            count = 0
            for key in self._keys(message):
                start, end = offsets[key], offsets[key + 1]
                parts.append(flat[start : min(end, start + most)])
                count += end - start
                if count >= budget:
                    break
            return sorted(chain.from_iterable(parts))[:most]
        found: set[int] = set()
        for key in self._keys(message):
            found.update(flat[offsets[key] : offsets[key + 1]])
            if len(found) >= budget:
                break
        return sorted(found)

    def _keys(self, message: str) -> list[int]:
        """The posting slots whose anchor occurs in ``message``, fewest entries first."""
        offsets = self._posting_offsets
        deferred = self._automaton
        if isinstance(deferred, Deferred) and deferred.cheap(message):
            keys = deferred.scan(message)
        else:
            keys = self._built().keys(message)
        return sorted(keys, key=lambda k: offsets[k + 1] - offsets[k])

    def message_candidates(
        self, message: str, pasted: str | None, alone: Collection[int]
    ) -> index_groups.Candidates:
        """:meth:`by_message` with twins folded into one stand-in (:mod:`.index_groups`)
        that :meth:`expand` copies back after scoring; ``pasted``: the pasted class,
        ``alone``: entries scored on their own (a frame points at them). A crowded
        anchor's posting is folded once (:func:`.index_groups.fold_posting`, kept): a
        query reads its groups, not its thousands of twins."""

        def told_apart(group: int) -> bool:
            # the file of each decides a subclass's fit (classes.foreign_subclass)
            first = self._twins[self._twin_offsets[group - 1]]
            recorded = self._strings[self._classes[first]]
            if not pasted or not recorded:
                return False
            qualified = self.qualified_class(first)
            return self.classes.relation(pasted, recorded, qualified) == "superclass"

        if not len(self._automaton):
            return index_groups.Candidates()
        offsets, flat = self._posting_offsets, self._postings
        loose: set[int] = set()
        folded: list[tuple[Sequence[int], list[int], list[int]]] = []
        count = 0  # entries of the folded postings: postings share no entry
        for key in self._keys(message):  # as by_message, the same budget
            posting = flat[offsets[key] : offsets[key + 1]]
            fold = self._fold(key, posting) if len(posting) >= index_groups.FOLD_POSTING else None
            if fold is None:
                loose.update(posting)
            else:
                folded.append((posting, *fold))
                count += len(posting)
            if len(loose) + count >= MESSAGE_BUDGET:
                break
        twins, at = self._twins, self._twin_offsets
        return index_groups.collapse_folded(
            sorted(loose),
            folded,
            self._groups,
            lambda g: twins[at[g - 1] : at[g]],
            alone,
            told_apart,
        )

    def _fold(self, key: int, posting: Sequence[int]) -> tuple[list[int], list[int]] | None:
        """A crowded posting's entries in no group and its groups (kept once made)."""
        if key not in self._folds:
            at = self._twin_offsets
            self._folds[key] = index_groups.fold_posting(
                posting, self._groups, lambda g: at[g] - at[g - 1]
            )
        return self._folds[key]

    def twin_sites(self, index: int, count: int) -> tuple[Set[int], int] | None:
        """For an entry of a group of ``count`` twins (all of it), the group's sites (as
        :meth:`sites` numbers them) and the records of the group at each, when that is one
        number; else None. Counted on first use and kept (a few groups are ever asked)."""
        group = self._groups[index]
        at = self._twin_offsets
        if not group or at[group] - at[group - 1] != count:
            return None
        if group not in self._twin_sites:
            if len(self._twin_sites) >= TWIN_SITES_KEPT:
                self._twin_sites.clear()
            held = Counter(self.sites(self._twins[at[group - 1] : at[group]]))
            each = set(held.values())
            self._twin_sites[group] = (held.keys(), each.pop()) if len(each) == 1 else None
        return self._twin_sites[group]

    def alike(self, index: int) -> tuple[int, int, str, str]:
        """What a message-only score reads of an entry besides its site: its class, that
        class as resolved, its runs and its pattern (the key twins share, :mod:`.index_groups`)."""
        offsets = self._runs_offsets
        return (
            self._classes[index],
            self._qualified[index],
            self._runs_blob[offsets[index] : offsets[index + 1]],
            self._regex.get(index, ""),
        )

    def twin_group(self, index: int) -> int:
        """The group of twins an entry belongs to (:mod:`.index_groups`), 0: none."""
        return self._groups[index]

    def expand(self, candidates: Sequence[int], found: MutableMapping[int, Any]) -> None:
        """Copy each stand-in's score in ``found`` to the twins it stood for."""
        index_groups.expand(candidates, found, self._groups)

    def _built(self) -> Anchors:
        if isinstance(self._automaton, Deferred):
            self._automaton = self._automaton.build()
        return self._automaton

    def by_observed(self, message: str) -> list[int]:
        """Entries at which this exact message was seen at run time (``errdex harvest``),
        once per time it was seen."""
        return list(self._observed.get(message, ()))

    def by_class(self, error_class: str) -> Sequence[int]:
        """Entries that raise this class (its short name): for a message cut short, whose
        anchor may be in the part cut off. Grouped on first use."""
        if self._by_class is None:
            grouped: dict[int, array[int]] = {}
            for i, c in enumerate(self._classes):
                column = grouped.get(c)
                if column is None:
                    column = grouped[c] = array("I")
                column.append(i)
            strings = self._strings
            self._by_class = {strings[c]: v for c, v in grouped.items() if strings[c]}
        return self._by_class.get(error_class, ())

    def has_class(self, error_class: str) -> bool:
        """Whether any entry raises this class (its short name)."""
        if self._class_names is None:
            strings = self._strings
            self._class_names = {strings[c] for c in set(self._classes)}
        return error_class in self._class_names

    @property
    def any_shadowed(self) -> bool:
        """Whether some entry is a Python twin a compiled module replaces."""
        return bool(self._shadowed)

    def raised_at(self, index: int) -> int | None:
        """For a site at a call of a helper raising what the call passes: the helper's
        raise line in the same file (``evidence.site.raisedAt``), else None."""
        return self._raised_at.get(index)

    def compiled_into(self, index: int) -> tuple[str, ...]:
        """The extension modules a compiled entry's file builds into where it is not the
        file's own (the record's ``evidence.site.module`` and ``alsoModules``: an included
        ``.pyx``, a header read with its includers), or none."""
        into = self._modules.get(index)
        return tuple(into.split()) if into else ()

    def raised_by_call(self, index: int) -> bool:
        """Whether the entry is raised, with no frame of its own, by the function a call
        names (Cython's generated argument parsing: ``evidence.site.style``
        ``cython_arguments``)."""
        return index in self._called

    def shadowed_by(self, index: int) -> str | None:
        """The compiled module that replaces this entry's Python definition when it
        imports (the record's ``evidence.shadowedBy``), or None."""
        return self._shadowed.get(index)

    def qualified_class(self, index: int) -> str | None:
        """The class a site raises as its imports resolve it (``pkg.errors.Name``)."""
        return self._strings[self._qualified[index]] or None

    @property
    def classes(self) -> ClassResolver:
        """The catalogue's class hierarchy (:mod:`.classes`), made on first use."""
        if self._resolver is None:
            self._resolver = ClassResolver(self._class_bases)
        return self._resolver

    def by_empty_message(self, error_class: str) -> Sequence[int]:
        """Entries of a bare ``raise Class``: a view of the column, not a copy (there may
        be tens of thousands, and a query looks at a few)."""
        return self._empty_by_class.get(error_class, ())

    def one_value_sites(self, error_class: str) -> Sequence[int]:
        """The entries of :meth:`by_class` whose template is one value with fewer than
        :data:`ONE_VALUE_CHARS` literal characters around it (``raise E(str(e))``), in
        order: listed at build time, a query does not read a class's every site."""
        return self._one_value_by_class.get(error_class, ())

    def passed_in_sites(self) -> Sequence[int]:
        """The entries raising a name's value, of a class decided at run time (``raise
        too_long``, a parameter; mock's ``raise effect``): any class, any message fits."""
        return self._one_value_by_class.get(PASSED_KEY, ())

    def run_time_sites(self) -> Sequence[int]:
        """The entries whose class a call or lookup decides at run time (``raise
        self.mapping[code](*args)``), with a one-value message."""
        return self._one_value_by_class.get(RUN_TIME_KEY, ())

    def by_frame(self, path: str, line: int | None) -> list[tuple[int, int]]:
        """(entry, distance in lines) for records in the file a frame names, nearest first."""
        entries = self.file_entries(path)
        if not entries:
            return []
        if line is None:
            return [(i, NEAR_LINES) for i in entries]
        lines = self._lines
        near = [(i, abs(lines[i] - line)) for i in entries if abs(lines[i] - line) <= NEAR_LINES]
        return sorted(near, key=lambda pair: pair[1])

    def file_path(self, index: int) -> str:
        """An entry's ``filePath``, without making the whole entry."""
        return self._strings[self._paths[index]]

    def sites(self, indices: Iterable[int]) -> list[int]:
        """Each entry's site (its file and line) as one number: entries of one site, and
        only they, share it."""
        paths, lines = self._paths, self._lines
        return [paths[i] << 32 | lines[i] for i in indices]

    def count_sites(self, indices: Iterable[int], most: int) -> int:
        """How many distinct sites (file and line) ``indices`` hold, counted up to
        ``most + 1``: a class's thousands of sites are not all read to learn that they
        are more than ``most``, and no entry is made for any of them."""
        paths, lines = self._paths, self._lines
        seen: set[int] = set()
        for i in indices:
            seen.add(paths[i] << 32 | lines[i])
            if len(seen) > most:
                break
        return len(seen)

    def file_entries(self, path: str) -> Sequence[int]:
        """The records of the catalogued file a frame's path names (none: not catalogued);
        the most specific key that names a catalogued file wins (:mod:`.layouts`)."""
        for key in frame_keys(path):
            found = self._by_path.get(key)
            if found is not None:
                return found
        return ()
