"""Building the match index (:mod:`errdex.match.index`): from the store's envelopes to
its columns and the anchors' automaton.

Kept apart from the lookups: a process that only loads an index never imports it.
"""

from __future__ import annotations

import re
from array import array
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain
from typing import Any

from errdex.match import edges, index_groups
from errdex.match.index import (
    _SEP,
    INDEX_FORMAT,
    MAX_ANCHOR_CHARS,
    ONE_VALUE_CHARS,
    PASSED_KEY,
    RUN_TIME_KEY,
    SHARED_WORD_LIMIT,
    runs_from_pattern,
    template_runs,
    trim_edges,
)
from errdex.match.index_anchors import Anchors
from errdex.match.index_file import SECOND_BITS
from errdex.match.layouts import record_keys

__all__ = ["build_columns"]

#: The extractor's styles of a raise whose class is decided at run time, and the key of
#: ``one_value_by_class`` their one-value sites are listed under (a re-raise is no first
#: raise: its traceback goes on to where the exception was made).
_RUN_TIME_STYLES = {"variable": PASSED_KEY, "helper_call": RUN_TIME_KEY, "other_expr": RUN_TIME_KEY}

#: Characters a second literal says beside its entry's anchor, at least (see _seconds).
SECOND_MIN = 3

#: A word (as :data:`_WORD`) in an entry's runs joined by :data:`_SEP`, neither glued to
#: the word characters before it nor touching a hole (a :data:`_SEP`) on either side; the
#: possessive ``{2,}+`` keeps a word touching a hole from being cut shorter to fit.
_BOUNDED = re.compile(r"(?<![\w\x1f])[A-Za-z_][A-Za-z0-9_]{2,}+(?!\x1f)")


def _bounded_words(runs: Sequence[str]) -> list[str]:
    """Words that appear whole in the runtime message whatever the hole values are.

    A word touching a hole could be glued to the value (``"foo{x}"`` prints
    ``foobar``), so only words with a non-word character (or the message's own start
    or end) on both sides count. (``\\w`` is ``str.isalnum()`` or ``_``.)
    """
    return _BOUNDED.findall(_SEP.join(runs))


class _Builder:
    """Collects entries, then picks anchors and freezes the columns."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.repos: list[int] = []
        self.paths: list[int] = []
        self.lines: list[int] = []
        self.classes: list[int] = []
        self.functions: list[int] = []
        self.qualified: list[int] = []  # evidence.site.qualifiedClass
        self.class_bases: dict[str, set[str]] = {}  # from evidence.classInfo
        self.runs: list[tuple[str, ...] | None] = []
        self.texts: list[str] = []  # each entry's runs joined by _SEP ("": none)
        self.heads = array("I")  # :mod:`.edges`: what rules a candidate out cheaply
        self.tails = array("I")
        self.regex: dict[int, str] = {}
        self.strings: dict[str, int] = {}
        self.observed: dict[str, list[int]] = {}
        #: evidence.shadowedBy.module: the compiled module that replaces the entry's
        #: Python definition when it imports (:mod:`errdex.analyze.shadows`)
        self.shadowed: dict[int, str] = {}
        #: evidence.site.raisedAt: the helper's raise line a call site's error is raised
        #: at (:mod:`errdex.extract.python.caller_sites`), printed innermost
        self.raised_at: dict[int, int] = {}
        #: evidence.site.module: the extension module a compiled site's file builds into,
        #: where it is not the file's own (an included ``.pyx``, a header)
        self.modules: dict[int, str] = {}
        #: Entries raised with no frame by the function called (Cython's generated argument
        #: parsing): never twins, the called function tells them apart (.native)
        self.called: set[int] = set()
        #: entries whose class is decided at run time, keyed PASSED_KEY for a name's value
        #: (``raise too_long``: a caller passed the exception) and RUN_TIME_KEY for a call
        #: or lookup (``raise self.mapping[code](*args)``) (:mod:`.rank_passed`)
        self.passed: dict[int, str] = {}

    def intern(self, text: str | None) -> int:
        if text is None:
            return 0
        strings = self.strings
        return strings.get(text) or strings.setdefault(text, len(strings) + 1)

    def add(self, envelope: dict[str, Any]) -> None:
        record = envelope["record"]
        evidence = envelope.get("evidence") or {}
        site = evidence.get("site") or {}
        runs: tuple[str, ...] | None = None
        kinds = False  # a hole that prints only a character or a number: RE2 verifies
        if site.get("template") is not None:
            runs, kinds = template_runs(site["template"])
        text = _SEP.join(runs) if runs is not None else ""
        if runs is None or text.count(_SEP) >= len(runs):  # a run holds the separator
            runs = runs_from_pattern(record["messagePattern"])
            text = _SEP.join(runs) if runs is not None else ""
        index = len(self.ids)
        if runs is not None and text.count(_SEP) < len(runs):
            runs = trim_edges(runs)  # as a pasted message is read (.index.trim_edges)
            text = _SEP.join(runs)
        if runs is None or text.count(_SEP) >= len(runs):
            runs, text = None, ""
            self.regex[index] = record["messagePattern"]
        elif kinds:  # anchored by its literal runs, verified by its pattern
            self.regex[index] = record["messagePattern"]
        self.ids.append(record["id"])
        self.repos.append(self.intern(record["repo"]))
        self.paths.append(self.intern(record["filePath"]))
        self.lines.append(int(record["lineNumber"]))
        self.classes.append(self.intern(record["errorClass"]))
        if record["errorClass"] is None and site.get("style") in _RUN_TIME_STYLES:
            self.passed[index] = _RUN_TIME_STYLES[site["style"]]
        self.functions.append(self.intern(site.get("function")))
        # the class as tracebacks print it (a module's ``__name__ = 'decimal'``), else as
        # imports resolve it
        printed = site.get("printedClass")
        self.qualified.append(self.intern(printed or site.get("qualifiedClass")))
        info = evidence.get("classInfo") or {}
        if isinstance(info.get("qualified"), str):
            above = [*(info.get("bases") or ()), *(info.get("ancestors") or ())]
            for name in {info["qualified"], *([printed] if isinstance(printed, str) else [])}:
                known = self.class_bases.setdefault(name, set())
                known.update(b for b in above if isinstance(b, str))
        shadow = evidence.get("shadowedBy")
        if isinstance(shadow, dict) and isinstance(shadow.get("module"), str):
            self.shadowed[index] = shadow["module"]
        if site.get("style") == "cython_arguments":
            self.called.add(index)
        if isinstance(module := site.get("module"), str):
            also = [m for m in site.get("alsoModules") or () if isinstance(m, str)]
            self.modules[index] = " ".join([module, *also])  # module names have no space
        raised_at = site.get("raisedAt")
        if isinstance(raised_at, int) and raised_at > 0:
            self.raised_at[index] = raised_at
        observed = evidence.get("observed") or ()
        for item in observed:
            message = item.get("message")
            if isinstance(message, str):
                count = item.get("count", 1)
                repeat = count if isinstance(count, int) and 0 < count < 1000 else 1
                self.observed.setdefault(message, []).extend([index] * repeat)
        self.runs.append(runs)
        self.texts.append(text)
        pattern = self.regex.get(index)
        if pattern is None:
            self.heads.append(edges.head_code(runs))
            self.tails.append(edges.tail_code(runs))
        else:  # RE2 decides; the pattern's opening literal text is in every match of it
            self.heads.append(edges.head_code((edges.pattern_start(pattern),)))
            self.tails.append(edges.tail_code(None))

    def anchors(self) -> tuple[dict[str, list[int]], list[int]]:
        """One anchor per entry (its rarest whole word, else its longest literal run)."""
        seen: dict[str, set[str]] = {}  # twins share their words: found once
        words_of: list[set[str]] = []
        for text in self.texts:
            words = seen.get(text)
            if words is None:
                words = seen[text] = set(_BOUNDED.findall(text))
            words_of.append(words)
        frequency = Counter(chain.from_iterable(words_of))
        # rarest, then longest, then first in order: one key per word, looked up in C
        order = {w: (n, -len(w), w) for w, n in frequency.items()}.__getitem__
        postings: dict[str, list[int]] = {}
        unanchored: list[int] = []
        for index, (runs, words) in enumerate(zip(self.runs, words_of, strict=True)):
            key = rarest = ""
            if words:
                rarest = min(words, key=order)
                # a common word would hand this template to too many messages: its
                # whole literal run is rarer (a larger automaton, fewer candidates)
                key = rarest if frequency[rarest] <= SHARED_WORD_LIMIT else ""
            if not key:
                longest = max((r.strip() for r in runs or ()), key=len, default="")
                if len(longest) >= 3:
                    key = longest
                elif rarest:
                    key = rarest
                else:
                    unanchored.append(index)
                    continue
            # a prefix of a literal run still occurs wherever the run does, and a trie
            # hundreds of kB deep overflows the C stack when the automaton is saved
            postings.setdefault(key[:MAX_ANCHOR_CHARS], []).append(index)
        return postings, unanchored


def build_columns(
    envelopes: Iterable[dict[str, Any]], version: int
) -> tuple[dict[str, Any], Anchors]:
    """The columns and automaton of an index over ``envelopes`` (run with the GC paused)."""
    builder = _Builder()
    for envelope in envelopes:
        builder.add(envelope)
    postings, _unanchored = builder.anchors()
    flat = array("I")
    offsets = array("Q", [0])
    for members in postings.values():  # a posting's slot is its anchor's (Anchors.build)
        flat.extend(members)
        offsets.append(len(flat))
    automaton = Anchors.build(list(postings))
    strings = [""] * (len(builder.strings) + 1)
    for text, number in builder.strings.items():
        strings[number] = text
    runs_offsets = array("Q", [0])
    pieces = builder.texts
    total = 0
    for text in pieces:
        total += len(text)
        runs_offsets.append(total)
    by_path: dict[str, list[int]] = {}
    empty_by_class: dict[str, list[int]] = {}
    of_path: dict[int, list[int]] = {}  # the entries of each file, in order
    for index, path_id in enumerate(builder.paths):
        of_path.setdefault(path_id, []).append(index)
    for path_id, members in of_path.items():
        for key in _path_keys(strings[path_id]):
            by_path.setdefault(key, []).extend(members)
    for members in by_path.values():
        members.sort()  # a key several files share lists their entries in order too
    one_value: dict[str, list[int]] = {}
    for index, runs in enumerate(builder.runs):
        if runs == ("",):
            name = strings[builder.classes[index]]
            if name:
                empty_by_class.setdefault(name, []).append(index)
        elif _one_value(runs, kinded=index in builder.regex):
            name = strings[builder.classes[index]]
            if name:
                one_value.setdefault(name, []).append(index)
            elif index in builder.passed:
                one_value.setdefault(builder.passed[index], []).append(index)
    seconds = _seconds(builder, postings)
    groups, twins, twin_offsets = index_groups.twin_groups(
        _twins(builder, postings.values(), strings), len(builder.ids)
    )
    width = max((len(i) for i in builder.ids), default=16)
    data = {
        "format": INDEX_FORMAT,
        "version": version,
        "ids": "".join(i.ljust(width) for i in builder.ids),
        "id_width": width,
        "repos": array("I", builder.repos),
        "paths": array("I", builder.paths),
        "lines": array("I", builder.lines),
        "classes": array("I", builder.classes),
        "functions": array("I", builder.functions),
        "qualified": array("I", builder.qualified),
        "heads": builder.heads,
        "tails": builder.tails,
        "seconds": seconds,
        "groups": groups,
        "twins": twins,
        "twin_offsets": twin_offsets,
        "class_bases": {k: sorted(v) for k, v in builder.class_bases.items()},
        "runs_blob": "".join(pieces),
        "runs_offsets": runs_offsets,
        "regex": builder.regex,
        "shadowed": builder.shadowed,
        "raised_at": builder.raised_at,
        "modules": builder.modules,
        "called": dict.fromkeys(sorted(builder.called), 1),
        "strings": strings,
        "postings": flat,
        "posting_offsets": offsets,
        "by_path": {k: array("I", v) for k, v in by_path.items()},
        "empty_by_class": {k: array("I", v) for k, v in empty_by_class.items()},
        "one_value_by_class": {k: array("I", v) for k, v in one_value.items()},
        "observed": {k: array("I", v) for k, v in builder.observed.items()},
    }
    return data, automaton


def _seconds(builder: _Builder, postings: dict[str, list[int]]) -> array[int]:
    """Each crowded anchor's entries' second literal (:meth:`~.index.MatchIndex.may_match`):
    the run fewest of the anchor's entries hold, of those that say at least
    :data:`SECOND_MIN` characters beside the anchor (a run holding it says the rest), the
    longest of them first. Not for an entry RE2 verifies: a run occurs in every full match
    as :func:`~errdex.match.literal_match.match_runs` decides one."""
    out = array("I", bytes(4 * len(builder.ids)))
    runs_of, regex, longest = builder.runs, builder.regex, (1 << SECOND_BITS) - 1
    for key, members in postings.items():
        if len(members) <= SHARED_WORD_LIMIT:
            continue
        literal = [i for i in members if runs_of[i] is not None and i not in regex]
        shared = Counter(chain.from_iterable(set(runs_of[i] or ()) for i in literal))
        for index in literal:
            start = at = length = 0
            rank: tuple[int, int] | None = None
            for run in runs_of[index] or ():
                says = len(run) - len(key) if key in run else len(run)
                if says >= SECOND_MIN and (rank is None or (shared[run], -says) < rank):
                    start, length, rank = at, len(run), (shared[run], -says)
                at += len(run) + 1  # the separator
            if rank is not None and start < 1 << (32 - SECOND_BITS):
                out[index] = start << SECOND_BITS | min(length, longest)
    return out


def _one_value(runs: tuple[str, ...] | None, kinded: bool = False) -> bool:
    """One hole with fewer than :data:`ONE_VALUE_CHARS` literal characters around it; or,
    for a template RE2 verifies, holes of which one says what it prints, with as little
    around them (a dict with int keys, ``{<int>…}``)."""
    if runs is None or len(runs) < 2 or sum(len(r) for r in runs) >= ONE_VALUE_CHARS:
        return False
    return kinded or len(runs) == 2


def _twins(
    builder: _Builder, postings: Iterable[list[int]], strings: Sequence[str]
) -> Iterator[list[int]]:
    """The groups of twins (:mod:`.index_groups`): entries of one anchor whose message-only
    score is the same (class, resolved class, runs, pattern), less those whose score also
    depends on their own file (observed at run time; compiled code, which prints no frame)."""
    from errdex.extract.registry import extractor_for, source_suffixes
    from errdex.match.native import FRAMELESS

    own = {i for members in builder.observed.values() for i in members} | builder.called
    tail = max(map(len, source_suffixes()), default=1)  # what decides extractor_for
    frameless: dict[str, bool] = {}
    classes, qualified, paths = builder.classes, builder.qualified, builder.paths
    texts, regex = builder.texts, builder.regex
    for members in postings:
        if len(members) < 2:
            continue
        alike: dict[tuple[int, int, str, str], list[int]] = {}
        for index in members:
            end = strings[paths[index]][-tail:]
            compiled = frameless.get(end)
            if compiled is None:
                extractor = extractor_for(end)
                compiled = frameless[end] = (
                    extractor is not None and extractor.language in FRAMELESS
                )
            if not compiled and index not in own:
                key = (classes[index], qualified[index], texts[index], regex.get(index, ""))
                alike.setdefault(key, []).append(index)
        yield from (group for group in alike.values() if len(group) > 1)


def _path_keys(file_path: str) -> tuple[str, ...]:
    """``src/click/core.py`` is found as that and as ``click/core.py`` (installed)."""
    return record_keys(file_path)
