"""Building the match index (:mod:`errdex.match.index`): from the store's envelopes to
its columns and the anchors' automaton.

Kept apart from the lookups: a process that only loads an index never imports it.
"""

from __future__ import annotations

import re
from array import array
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate, chain
from typing import Any
from zlib import crc32

from errdex.match import edges, index_groups
from errdex.match.edges import EDGE
from errdex.match.index import (
    _SEP,
    EDGE_BREAKS,
    INDEX_FORMAT,
    MAX_ANCHOR_CHARS,
    ONE_VALUE_CHARS,
    PASSED_KEY,
    RUN_TIME_KEY,
    SHARED_WORD_LIMIT,
    runs_from_pattern,
    template_runs,
)
from errdex.match.index_anchors import Anchors
from errdex.match.index_file import SECOND_BITS
from errdex.match.layouts import record_keys
from errdex.match.rank_instances import instance_key

__all__ = ["build_columns"]

#: The extractor's styles of a raise whose class is decided at run time, and the key of
#: ``one_value_by_class`` their one-value sites are listed under (a re-raise is no first
#: raise: its traceback goes on to where the exception was made).
_RUN_TIME_STYLES = {"variable": PASSED_KEY, "helper_call": RUN_TIME_KEY, "other_expr": RUN_TIME_KEY}

#: A joined text starting or ending with one of these is trimmed (:func:`_entry_runs`).
_BREAK_EDGE = frozenset(EDGE_BREAKS)
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
        #: a rendered Tempita template's site: ``"<template line> Class.method"``
        #: (:mod:`.rank_instances`): its instances raise alike on lines a build may move
        self.instances: dict[int, str] = {}
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
        """One envelope's columns. Called a million times: runs are joined once, and
        interning and edge codes are inlined (a call costs as much as the work)."""
        record = envelope["record"]
        evidence = envelope.get("evidence") or {}
        site = evidence.get("site") or {}
        index = len(self.ids)
        runs, text, kinds = _entry_runs(site.get("template"), record["messagePattern"])
        if runs is None or kinds:  # kinded: anchored by its literal runs, verified by RE2
            self.regex[index] = record["messagePattern"]
        self.ids.append(record["id"])
        intern = self.intern
        self.repos.append(intern(record["repo"]))
        self.paths.append(intern(record["filePath"]))
        self.classes.append(intern(record["errorClass"]))
        self.functions.append(intern(site.get("function")))
        if record["errorClass"] is None and site.get("style") in _RUN_TIME_STYLES:
            self.passed[index] = _RUN_TIME_STYLES[site["style"]]
        # read from the site itself: _evidence runs only for envelopes with more evidence
        if site.get("style") == "cython_arguments":
            self.called.add(index)
        if isinstance(module := site.get("module"), str):
            also = [m for m in site.get("alsoModules") or () if isinstance(m, str)]
            self.modules[index] = " ".join([module, *also])  # module names have no space
        # the class as tracebacks print it (a module's ``__name__ = 'decimal'``), else as
        # imports resolve it
        self.qualified.append(intern(site.get("printedClass") or site.get("qualifiedClass")))
        self.lines.append(int(record["lineNumber"]))
        if len(evidence) > 1 or "raisedAt" in site or "sourceLine" in site:  # rarer evidence
            self._evidence(index, evidence, site)
        self.runs.append(runs)
        self.texts.append(text)
        if runs is not None and not kinds:
            self.heads.append(crc32(runs[0][:EDGE].encode("utf-8", "surrogatepass")[:EDGE]))
            tail = runs[-1][-EDGE:].encode("utf-8", "surrogatepass")[-EDGE:]
            self.tails.append(crc32(tail))
        else:  # RE2 decides; the pattern's opening literal text is in every match of it
            pattern = self.regex[index]
            self.heads.append(edges.head_code((edges.pattern_start(pattern),)))
            self.tails.append(edges.tail_code(None))

    def _evidence(self, index: int, evidence: dict[str, Any], site: dict[str, Any]) -> None:
        """Class hierarchy, compiled twins, helper raise lines and run-time observations."""
        printed = site.get("printedClass")
        info = evidence.get("classInfo") or {}
        if isinstance(info.get("qualified"), str):
            above = [*(info.get("bases") or ()), *(info.get("ancestors") or ())]
            for name in {info["qualified"], *([printed] if isinstance(printed, str) else [])}:
                known = self.class_bases.setdefault(name, set())
                known.update(b for b in above if isinstance(b, str))
        shadow = evidence.get("shadowedBy")
        if isinstance(shadow, dict) and isinstance(shadow.get("module"), str):
            self.shadowed[index] = shadow["module"]
        raised_at = site.get("raisedAt")
        if isinstance(raised_at, int) and raised_at > 0:
            self.raised_at[index] = raised_at
        if (instance := instance_key(site)) is not None:
            self.instances[index] = instance
        observed = evidence.get("observed") or ()
        for item in observed:
            message = item.get("message")
            if isinstance(message, str):
                count = item.get("count", 1)
                repeat = count if isinstance(count, int) and 0 < count < 1000 else 1
                self.observed.setdefault(message, []).extend([index] * repeat)

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
        posting = postings.get
        unanchored: list[int] = []
        for index, (runs, words) in enumerate(zip(self.runs, words_of, strict=True)):
            key = rarest = ""
            if words:
                rarest = min(words, key=order)
                # a common word would hand this template to too many messages: its
                # whole literal run is rarer (a larger automaton, fewer candidates)
                key = rarest if frequency[rarest] <= SHARED_WORD_LIMIT else ""
            if not key:
                longest = max(map(str.strip, runs or ()), key=len, default="")
                if len(longest) >= 3:
                    key = longest
                elif rarest:
                    key = rarest
                else:
                    unanchored.append(index)
                    continue
            # a prefix of a literal run still occurs wherever the run does, and a trie
            # hundreds of kB deep overflows the C stack when the automaton is saved
            key = key[:MAX_ANCHOR_CHARS]
            members = posting(key)  # not setdefault: a million lists made to be dropped
            if members is None:
                postings[key] = [index]
            else:
                members.append(index)
        return postings, unanchored


def _entry_runs(
    template: list[dict[str, str]] | None, pattern: str
) -> tuple[tuple[str, ...] | None, str, bool]:
    """``(runs, runs joined by _SEP, kinded)`` of one entry: its template's runs (else its
    pattern's), trimmed of the line breaks at their edges as a pasted message is read
    (:func:`.index.trim_edges`); None and "" when no runs can say it (a run would hold the
    separator, or the pattern is not literal runs and holes): RE2 verifies it."""
    runs: tuple[str, ...] | None = None
    kinds = False  # a hole that prints only a character or a number: RE2 verifies
    text = ""
    if template is not None:
        runs, kinds = template_runs(template)
        text = _SEP.join(runs)
    if runs is None or text.count(_SEP) >= len(runs):  # a run holds the separator
        runs = runs_from_pattern(pattern)
        if runs is None:
            return None, "", kinds
        text = _SEP.join(runs)
        if text.count(_SEP) >= len(runs):
            return None, "", kinds
    if text[:1] in _BREAK_EDGE or text[-1:] in _BREAK_EDGE:
        # the separator is no break: stripping the joined text trims the edge runs alone
        text = text.strip(EDGE_BREAKS)
        runs = tuple(text.split(_SEP))
    return runs, text, kinds


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
    pieces = builder.texts
    runs_offsets = array("Q", [0])
    runs_offsets.extend(accumulate(map(len, pieces)))
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
    for index, (runs, text) in enumerate(zip(builder.runs, pieces, strict=True)):
        # the runs' literal characters are its text less the separators: most have many
        if runs is None or len(text) - len(runs) + 1 >= ONE_VALUE_CHARS:
            continue
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
    width = max(map(len, builder.ids), default=16)
    short = min(map(len, builder.ids), default=width) < width
    data = {
        "format": INDEX_FORMAT,
        "version": version,
        "ids": "".join([i.ljust(width) for i in builder.ids] if short else builder.ids),
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
        "instances": builder.instances,
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
