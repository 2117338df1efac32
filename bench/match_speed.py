"""Match speed at 10k, 100k and 1M templates, beside a loop over ``re`` and ``re2.Set``.

    .venv/bin/python bench/match_speed.py [--sizes 10000,100000,1000000] [--queries 2000]
        [--seeds DIR/seeds.json] [--compare OTHER_WORKDIR]

``--seeds`` reuses the templates an earlier run scanned (its work directory's
``seeds.json``): a before/after pair (``PYTHONPATH`` at an older ``src``) then measures
the very same catalogues and queries without scanning twice. Each run writes every
query's top 5 (ids, confidences, scores, holes, reasons) to its work directory's
``answers-SIZE.jsonl``; ``--compare`` holds them against another run's (a work directory
kept with ``--keep``, on the same ``--seeds``) and reports how many queries differ: a
change made for speed must leave none.

The catalogues are made from real templates (a scan of the running standard library
and of installed packages, see ``bench/_catalogue.py``) whose words are varied. Per
size, each step runs in its own subprocess, so one size's memory is gone before the
next and load time and resident memory are those of a fresh process:

* ``build``: ``MatchIndex.build`` over envelopes made on the fly from compact rows
  generated beforehand (making them is timed and subtracted; the rows are frozen out
  of the garbage collector, as a store's streamed envelopes would not be there), then
  ``save``; writes the queries and the patterns the baselines compile;
* ``stages`` (diagnostic): the same build, stage by stage, with RSS after each — it
  mirrors ``MatchIndex.build`` as of this writing and has to follow it if that changes;
* ``query``: imports, ``MatchIndex.load``, RSS before/after, then per query the full
  ``rank([Clue(class, message, ())], index, top=5)`` and, separately, ``by_message``
  plus verification of every candidate, after a warm-up; the size of each structure;
* ``load`` (×``--load-repeat``) and ``loadparts``: load alone, and its parts beside the
  automaton rebuilt from its anchors and the former pickle format of the same index;
* ``re``: compiled ``re`` patterns, ``fullmatch`` each until one matches;
* ``re2set``: ``re2.Set`` anchored at both ends, under a memory limit and a timeout.

Queries: 90% render a sampled catalogue entry with realistic hole values (numbers,
identifiers, reprs, paths); 10% match nothing (a word drifted to an unknown token, or
an unknown sentence). Correct: the template the query was rendered from is among the
top 5. The load is from the page cache (the index was just written).

Goals at 1M: p99 ≤ 0.1 ms, load ≤ 2 s, build ≤ 15 s, resident memory ≤ 1 GiB.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import math
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T")
Result = dict[str, Any]

GOAL_P99_US = 100.0
GOAL_LOAD_S = 2.0
GOAL_BUILD_S = 15.0
GOAL_RSS_MIB = 1024.0
MIB = 1024 * 1024
#: Queries slower than this on their first run are timed once only (see child_query).
SLOW_NS = 100_000_000


# -- small tools -----------------------------------------------------------------------


def proc_status() -> dict[str, float]:
    """VmRSS and VmHWM (peak) of this process, in MiB."""
    out: dict[str, float] = {}
    with open("/proc/self/status") as fh:
        for line in fh:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0]) / 1024
    return out


def rss() -> float:
    return proc_status()["VmRSS"]


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile; ``nan`` for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1))]


def summary_us(ns: Sequence[int]) -> dict[str, float]:
    us = [v / 1000 for v in ns]
    return {
        "n": len(us),
        "p50": percentile(us, 0.50),
        "p90": percentile(us, 0.90),
        "p99": percentile(us, 0.99),
        "max": max(us, default=math.nan),
        "mean": sum(us) / len(us) if us else math.nan,
    }


class Timed(Iterator[T]):
    """An iterator that adds up the time (wall and CPU) spent producing its items."""

    def __init__(self, it: Iterator[T]) -> None:
        self._it = it
        self.seconds = 0.0
        self.cpu_seconds = 0.0

    def __iter__(self) -> Timed[T]:
        return self

    def __next__(self) -> T:
        started, cpu = time.perf_counter(), time.thread_time()
        try:
            return next(self._it)
        finally:
            self.seconds += time.perf_counter() - started
            self.cpu_seconds += time.thread_time() - cpu


class GcTimer:
    """Time spent in the cyclic garbage collector, by generation, while installed."""

    def __init__(self) -> None:
        self.seconds = [0.0, 0.0, 0.0]
        self.count = [0, 0, 0]
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.seconds[info["generation"]] += time.perf_counter() - self._started
            self.count[info["generation"]] += 1

    def __enter__(self) -> GcTimer:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)


def write_json(path: Path, data: Any) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data))
    os.replace(tmp, path)


def dir_size(directory: Path) -> dict[str, int]:
    return {p.name: p.stat().st_size for p in sorted(directory.iterdir())}


# -- the catalogue of one size ---------------------------------------------------------


def load_seeds(args: argparse.Namespace) -> tuple[list[Any], Any]:
    import _catalogue as cat

    seeds = [cat.Seed.from_json(s) for s in json.loads((args.workdir / "seeds.json").read_text())]
    return seeds, cat.Vocabulary(seeds, args.generated_tokens, args.p_generated)


def materialise(
    args: argparse.Namespace,
    size: int,
    keep: set[int] | None = None,
    kept: dict[int, Any] | None = None,
    patterns: Path | None = None,
) -> list[Any]:
    """The catalogue's rows, generated before any timing starts.

    They are then frozen out of the cyclic GC: a store streams its envelopes, so the
    collector of a real build never walks a million rows it does not own.

    With ``patterns``, writes ``[entry, messagePattern]`` lines there for the baselines;
    opaque templates (no literal text of three characters: ``{msg}``, ``{0}: {1}``) are
    left out: they match nearly any message and would stop a loop at its first pattern,
    and the index cannot find them by the message either.
    """
    import _catalogue as cat

    seeds, vocabulary = load_seeds(args)
    out: list[Any] = []
    with contextlib.ExitStack() as stack:
        fh = stack.enter_context(patterns.open("w")) if patterns else None
        for i, row in enumerate(cat.rows(seeds, size, vocabulary, seed=args.seed)):
            out.append(row)
            template = row[1]
            if keep is not None and kept is not None and i in keep:
                kept[i] = (cat.entry_id(i), row[0].error_class, template)
            if fh is not None and (not template or cat.is_anchored(template)):
                fh.write(json.dumps([i, row[2]]) + "\n")
    gc.collect()
    gc.freeze()
    return out


def envelope_stream(rows: list[Any]) -> Timed[dict[str, Any]]:
    """Envelopes made on the fly from the rows (about a µs each; timed, and subtracted)."""
    import _catalogue as cat

    return Timed(cat.envelope(i, row) for i, row in enumerate(rows))


def make_queries(
    args: argparse.Namespace, kept: dict[int, Any], wanted: int
) -> list[dict[str, Any]]:
    """Rendered queries, shuffled: ``1 - miss_share`` from kept entries, the rest misses."""
    import _catalogue as cat

    _seeds, vocabulary = load_seeds(args)
    rng = random.Random(args.seed + 2)
    entries = [(i, *kept[i]) for i in sorted(kept)]
    rng.shuffle(entries)
    misses = round(wanted * args.miss_share)
    queries: list[dict[str, Any]] = []
    for i, rid, error_class, template in entries[: wanted - misses]:
        if not template:
            kind = "empty"
        elif cat.is_anchored(template):
            kind = "anchored"
        else:
            kind = "opaque"
        queries.append(
            {
                "kind": kind,
                "id": rid,
                "entry": i,
                "error_class": error_class or "Exception",
                "message": cat.render(template, rng, vocabulary),
                "runs": cat.runs_of(template),
            }
        )
    for _ in range(misses):
        _, _, error_class, template = rng.choice(entries)
        queries.append(
            {
                "kind": "miss",
                "id": None,
                "entry": None,
                "error_class": error_class or "ValueError",
                "message": cat.miss_message(
                    template if rng.random() < 0.7 else None, rng, vocabulary
                ),
                "runs": None,
            }
        )
    rng.shuffle(queries)
    return queries


# -- children --------------------------------------------------------------------------


def child_build(args: argparse.Namespace, size: int, out: Path) -> Result:
    from errdex.match.index import MatchIndex

    wanted = args.queries + args.warmup
    rng = random.Random(args.seed + 1)
    keep = set(rng.sample(range(size), min(size, wanted)))
    kept: dict[int, Any] = {}
    base = args.workdir / f"n{size}"
    base.mkdir(exist_ok=True)
    rss_start = rss()
    started = time.perf_counter()
    rows = materialise(args, size, keep, kept, base / "patterns.jsonl")
    generate_s = time.perf_counter() - started
    stream = envelope_stream(rows)
    rss_before = rss()
    with GcTimer() as collector:
        started, cpu = time.perf_counter(), time.thread_time()
        index = MatchIndex.build(stream)
        total, cpu = time.perf_counter() - started, time.thread_time() - cpu
    status = proc_status()
    result: Result = {
        "entries": len(index),
        "generate_s": generate_s,
        "rows_rss_mib": rss_before - rss_start,
        "build_total_s": total,
        "stream_s": stream.seconds,
        "build_s": total - stream.seconds,
        "build_cpu_s": cpu - stream.cpu_seconds,
        "build_gc_s": collector.seconds,
        "build_gc_count": collector.count,
        "build_rss_mib": status["VmRSS"] - rss_before,
        "build_peak_mib": status["VmHWM"],
    }
    del rows, stream
    directory = base / "index"
    started, cpu = time.perf_counter(), time.thread_time()
    index.save(directory)
    result["save_s"] = time.perf_counter() - started
    result["save_cpu_s"] = time.thread_time() - cpu
    result["disk_bytes"] = dir_size(directory)
    result["postings"] = posting_stats(index)
    queries = make_queries(args, kept, wanted)
    write_json(base / "queries.json", queries)
    result["query_kinds"] = dict(Counter(q["kind"] for q in queries[args.warmup :]))
    return result


def trie(index: Any) -> Any:
    """The index's pyahocorasick automaton (held in ``Anchors`` since its prefixes are)."""
    return getattr(index._automaton, "automaton", index._automaton)


def anchor_list(index: Any) -> list[str]:
    """The anchors by posting slot, whichever way the automaton holds them."""
    held = index._automaton
    if hasattr(held, "anchors"):
        return list(held.anchors())
    out = [""] * (len(index._posting_offsets) - 1)
    for key, slot in held.items():
        out[slot] = key
    return out


def posting_stats(index: Any) -> dict[str, Any]:
    """How the entries spread over anchors (reads the index's private columns)."""
    offsets = index._posting_offsets
    lengths = [offsets[k + 1] - offsets[k] for k in range(len(offsets) - 1)]
    anchored = sum(lengths)
    biggest = sorted(
        ((lengths[slot], key) for slot, key in enumerate(anchor_list(index))), reverse=True
    )[:8]
    return {
        "anchors": len(lengths),
        "anchored_entries": anchored,
        "unanchored_entries": len(index) - anchored,
        "max_posting": max(lengths, default=0),
        "anchors_over_100": sum(1 for n in lengths if n > 100),
        "entries_under_anchors_over_100": sum(n for n in lengths if n > 100),
        "largest": [[key, n] for n, key in biggest],
        "automaton": trie(index).get_stats(),
    }


def child_stages(args: argparse.Namespace, size: int, out: Path) -> Result:
    """MatchIndex.build, stage by stage (a mirror of its code), with RSS after each."""
    import pickle
    from array import array

    import ahocorasick

    from errdex.match import index as mi
    from errdex.template import MessageTemplate

    try:  # the build's own module (an older errdex builds in match/index.py)
        from errdex.match import index_build as mb
    except ImportError:
        mb = mi

    stages: list[dict[str, Any]] = []
    mark = {"t": time.perf_counter(), "cpu": time.thread_time(), "rss": rss()}

    def stage(name: str, subtract: float = 0.0, subtract_cpu: float = 0.0) -> None:
        now, cpu, current = time.perf_counter(), time.thread_time(), rss()
        stages.append(
            {
                "stage": name,
                "s": now - mark["t"] - subtract,
                "cpu_s": cpu - mark["cpu"] - subtract_cpu,
                "gc_s": sum(collector.seconds) - mark.get("gc", 0.0),
                "rss_delta_mib": current - mark["rss"],
            }
        )
        mark["gc"] = sum(collector.seconds)
        mark["t"], mark["cpu"], mark["rss"] = time.perf_counter(), time.thread_time(), rss()

    sample: list[Any] = []
    rows = materialise(args, size)
    builder = mb._Builder()
    stream = envelope_stream(rows)
    collector = GcTimer().__enter__()
    mark["t"], mark["cpu"], mark["rss"] = time.perf_counter(), time.thread_time(), rss()
    for envelope in stream:
        builder.add(envelope)
        if len(sample) < 100_000:
            sample.append(envelope["evidence"]["site"]["template"])
    stage("_Builder.add (all envelopes)", subtract=stream.seconds, subtract_cpu=stream.cpu_seconds)
    del rows
    started = time.perf_counter()
    runs_of = getattr(mi, "template_runs", None)  # an older errdex parses templates
    for template in sample:
        if runs_of is not None:
            runs_of(template)
        else:
            MessageTemplate.from_json(template).runs()
    per_entry = (time.perf_counter() - started) / max(1, len(sample))
    started = time.perf_counter()
    for runs in builder.runs[:100_000]:
        sorted(set(mb._bounded_words(runs))) if runs else []
    words_per_entry = (time.perf_counter() - started) / max(1, min(100_000, len(builder.runs)))
    del sample
    mark["t"], mark["cpu"], mark["rss"] = time.perf_counter(), time.thread_time(), rss()
    mark["gc"] = sum(collector.seconds)
    postings, _unanchored = builder.anchors()
    stage("_Builder.anchors")
    flat = array("I")
    offsets = array("Q", [0])
    try:  # since the automaton holds the anchors' prefixes (errdex.match.index_anchors)
        from errdex.match.index_anchors import Anchors
    except ImportError:
        automaton = ahocorasick.Automaton(ahocorasick.STORE_INTS)
        for key, members in postings.items():
            automaton.add_word(key, len(offsets) - 1)
            flat.extend(members)
            offsets.append(len(flat))
        stage("automaton.add_word + postings arrays")
        automaton.make_automaton()
        stage("automaton.make_automaton")
    else:
        for members in postings.values():
            flat.extend(members)
            offsets.append(len(flat))
        stage("postings arrays")
        automaton = Anchors.build(list(postings)).automaton
        stage("Anchors.build (the automaton of the anchors' keys)")
    strings = [""] * (len(builder.strings) + 1)
    for text, number in builder.strings.items():
        strings[number] = text
    runs_offsets = array("Q", [0])
    pieces: list[str] = getattr(builder, "texts", None) or [  # an older errdex joins here
        mi._SEP.join(runs) if runs is not None else "" for runs in builder.runs
    ]
    total = 0
    for text in pieces:
        total += len(text)
        runs_offsets.append(total)
    stage("strings + runs pieces")
    if hasattr(mb, "_twins"):  # errdex with twins (match/index_groups.py)
        from errdex.match import index_groups

        index_groups.twin_groups(mb._twins(builder, postings.values(), strings), len(pieces))
        for runs in builder.runs:
            mb._one_value(runs)
        stage("twins + one-value sites")
    if hasattr(mb, "_seconds"):  # errdex with second literals (MatchIndex.may_match)
        mb._seconds(builder, postings)
        stage("second literals of crowded anchors")
    by_path: dict[str, list[int]] = {}
    empty_by_class: dict[str, list[int]] = {}
    of_path: dict[int, list[int]] = {}
    for index, path_id in enumerate(builder.paths):
        of_path.setdefault(path_id, []).append(index)
    for path_id, members in of_path.items():
        for key in mb._path_keys(strings[path_id]):
            by_path.setdefault(key, []).extend(members)
    for members in by_path.values():
        members.sort()
    for index in range(len(builder.runs)):
        if builder.runs[index] == ("",):
            name = strings[builder.classes[index]]
            if name:
                empty_by_class.setdefault(name, []).append(index)
    stage("by_path + empty_by_class")
    width = max((len(i) for i in builder.ids), default=16)
    data = {
        "ids": "".join(i.ljust(width) for i in builder.ids),
        "repos": array("I", builder.repos),
        "paths": array("I", builder.paths),
        "lines": array("I", builder.lines),
        "classes": array("I", builder.classes),
        "functions": array("I", builder.functions),
        "runs_blob": "".join(pieces),
        "runs_offsets": runs_offsets,
        "regex": builder.regex,
        "strings": strings,
        "postings": flat,
        "posting_offsets": offsets,
        "by_path": {k: array("I", v) for k, v in by_path.items()},
        "empty_by_class": {k: array("I", v) for k, v in empty_by_class.items()},
        "observed": {k: array("I", v) for k, v in builder.observed.items()},
    }
    stage("freeze columns (ids, arrays, blob, by_path arrays)")
    del builder, pieces, by_path, postings
    mark["t"], mark["cpu"], mark["rss"] = time.perf_counter(), time.thread_time(), rss()
    mark["gc"] = sum(collector.seconds)
    blob = pickle.dumps(data, protocol=pickle.HIGHEST_PROTOCOL)
    stage(f"pickle.dumps columns ({len(blob) / MIB:.0f} MiB)")
    del blob
    with tempfile.TemporaryDirectory(dir=args.workdir) as tmp:
        mark["t"], mark["cpu"] = time.perf_counter(), time.thread_time()
        automaton.save(os.path.join(tmp, "a.bin"))
        size_on_disk = os.path.getsize(os.path.join(tmp, "a.bin"))
        stage(f"automaton.save ({size_on_disk / MIB:.0f} MiB)")
    collector.__exit__()
    started = time.perf_counter()
    pickled = pickle.dumps(automaton, protocol=pickle.HIGHEST_PROTOCOL)
    dumps_s = time.perf_counter() - started
    del automaton
    started = time.perf_counter()
    pickle.loads(pickled)
    loads_s = time.perf_counter() - started
    return {
        "automaton_pickle": {"dumps_s": dumps_s, "loads_s": loads_s, "bytes": len(pickled)},
        "stages": stages,
        "from_json_runs_us_per_entry": per_entry * 1e6,
        "bounded_words_us_per_entry": words_per_entry * 1e6,
        "stream_s": stream.seconds,
        "peak_mib": proc_status()["VmHWM"],
    }


def _import_errdex() -> dict[str, float]:
    started, cpu = time.perf_counter(), time.process_time()
    import errdex.match.index

    index_s, index_cpu = time.perf_counter() - started, time.process_time() - cpu
    started, cpu = time.perf_counter(), time.process_time()
    import errdex.match.rank  # noqa: F401

    return {
        "import_index_s": index_s,
        "import_index_cpu_s": index_cpu,
        "import_rank_s": time.perf_counter() - started,
        "import_rank_cpu_s": time.process_time() - cpu,
    }


def child_load(args: argparse.Namespace, size: int, out: Path) -> Result:
    return _load(args, size)[0]


def _load(args: argparse.Namespace, size: int) -> tuple[Result, Any]:
    """Import and load in a fresh process: (times and RSS, the index)."""
    rss0 = rss()
    result: Result = _import_errdex()
    rss1 = rss()
    from errdex.match.index import MatchIndex

    started, cpu = time.perf_counter(), time.process_time()
    index = MatchIndex.load(args.workdir / f"n{size}" / "index")
    result["load_s"] = time.perf_counter() - started
    result["load_cpu_s"] = time.process_time() - cpu
    assert index is not None and len(index) == size, "the saved index did not load"
    status = proc_status()
    result.update(
        rss_import_mib=rss1 - rss0,
        rss_load_mib=status["VmRSS"] - rss1,
        peak_mib=status["VmHWM"],
        rss_total_mib=status["VmRSS"],
    )
    return result, index


def child_loadparts(args: argparse.Namespace, size: int, out: Path) -> Result:
    """MatchIndex.load's parts, and the pickle it replaced, in one process.

    Mirrors ``errdex.match.index_file.read_index``: the columns (views of the files,
    their MAC checked), then the automaton from its saved state under the user's HMAC
    key. Beside them: the automaton rebuilt from its anchors (what a load
    of an index someone else wrote costs), and the former format, ``pickle`` of
    (columns, automaton), written here from this very index and loaded back (errdex no
    longer reads pickles; this is only the baseline).
    """
    import pickle

    from errdex.match import index_file

    directory = args.workdir / f"n{size}" / "index"
    rss0 = rss()
    started, cpu = time.perf_counter(), time.process_time()
    data, automaton = index_file.read_index(directory)
    total_s, total_cpu = time.perf_counter() - started, time.process_time() - cpu
    rss1 = rss()
    files = index_file._Files(directory)  # the files again, their MACs checked
    state = files.read_state()
    if state is None:
        raise SystemExit("the index's automaton state did not verify under this user's key")
    slots = len(data["posting_offsets"]) - 1
    started, cpu = time.perf_counter(), time.process_time()
    # since the automaton holds the anchors' keys (errdex.match.index_anchors): their rests
    longer = [([automaton.rests_at], automaton.rests)] if hasattr(automaton, "rests") else []
    index_file._saved_automaton(state, files.meta.get("automaton"), slots, *longer)
    automaton_s, automaton_cpu = time.perf_counter() - started, time.process_time() - cpu
    deferred = index_file.Deferred(files, slots, *_anchor_parts(files))
    anchors = deferred.anchors()
    started, cpu = time.perf_counter(), time.process_time()
    index_file._automaton(anchors)
    rebuild_s, rebuild_cpu = time.perf_counter() - started, time.process_time() - cpu
    data = {k: _picklable(v) for k, v in data.items()}
    with tempfile.NamedTemporaryFile(dir=args.workdir, suffix=".pickle") as fh:
        pickle.dump((data, automaton), fh, protocol=pickle.HIGHEST_PROTOCOL)
        fh.flush()
        del data, automaton
        gc.collect()
        fh.seek(0)
        gc.disable()
        started, cpu = time.perf_counter(), time.process_time()
        pickle.load(fh)
        pickle_s, pickle_cpu = time.perf_counter() - started, time.process_time() - cpu
        gc.enable()
    return {
        "total_s": total_s,
        "total_cpu_s": total_cpu,
        "columns_s": total_s - automaton_s,
        "columns_cpu_s": total_cpu - automaton_cpu,
        "columns_rss_mib": rss1 - rss0,
        "automaton_s": automaton_s,
        "automaton_cpu_s": automaton_cpu,
        "rebuild_s": rebuild_s,
        "rebuild_cpu_s": rebuild_cpu,
        "pickle_s": pickle_s,
        "pickle_cpu_s": pickle_cpu,
    }


def _picklable(value: Any) -> Any:
    """A column as the former pickle format held it: lists, not views of the files."""
    from errdex.match.index_file import Groups

    if isinstance(value, memoryview):
        return list(value)
    if isinstance(value, Groups):
        return {key: list(value[key]) for key in value}
    return value


def _anchor_parts(files: Any) -> tuple[memoryview, Any]:
    """The anchors' raw text and character offsets, as ``read_index`` hands them on."""
    from errdex.match import index_file

    arrays_bin, texts_bin, _ = files.blobs
    columns = index_file._read_columns(arrays_bin, files.meta.get("arrays"))
    _, anchors = index_file._read_texts(texts_bin, files.meta.get("texts"))
    return anchors, columns["anchors.chars"]


def _deep(obj: Any) -> int:
    """Bytes of an index column: containers of strings and arrays, one level deep."""
    if isinstance(obj, dict):
        return sys.getsizeof(obj) + sum(_deep(k) + _deep(v) for k, v in obj.items())
    if isinstance(obj, list):
        return sys.getsizeof(obj) + sum(sys.getsizeof(v) for v in obj)
    return sys.getsizeof(obj)


def structure_sizes(index: Any) -> dict[str, Any]:
    data: dict[str, Any] = index._data
    sizes = {key: _deep(value) / MIB for key, value in data.items() if not isinstance(value, int)}
    sizes["automaton (get_stats total_size)"] = trie(index).get_stats()["total_size"] / MIB
    blob: str = data["runs_blob"]
    chars = {
        "runs_blob_chars": len(blob),
        "runs_blob_bytes_per_char": (sys.getsizeof(blob) - sys.getsizeof("")) / max(1, len(blob)),
        "runs_blob_max_char": f"U+{max(map(ord, blob), default=0):04X}",
        "by_path_keys": len(data["by_path"]),
        "strings": len(data["strings"]),
    }
    return {"mib": sizes, "facts": chars}


def child_query(args: argparse.Namespace, size: int, out: Path) -> Result:
    result, index = _load(args, size)
    import re2

    from errdex.match.literal_match import match_runs
    from errdex.match.rank import Clue, rank

    queries = json.loads((args.workdir / f"n{size}" / "queries.json").read_text())
    warm, measured = queries[: args.warmup], queries[args.warmup :]
    for q in warm:
        rank([Clue(q["error_class"], q["message"], ())], index, top=5)

    # this machine may be shared: a query preempted shows the scheduler, not errdex. Each
    # query is timed ``--repeat`` times in separate passes, wall clock and this thread's
    # CPU time, and its best of each kept (queries slower than SLOW_NS are timed once)
    clock, cpu_clock = time.perf_counter_ns, time.thread_time_ns
    clues = [Clue(q["error_class"], q["message"], ()) for q in measured]
    tops: list[list[Any]] = []
    rank_ns: list[int] = []
    rank_cpu_ns: list[int] = []
    for clue in clues:
        started, cpu = clock(), cpu_clock()
        ranked = rank([clue], index, top=5)
        rank_ns.append(clock() - started)
        rank_cpu_ns.append(cpu_clock() - cpu)
        tops.append(ranked)
    for _ in range(args.repeat - 1):
        for k, clue in enumerate(clues):
            if rank_ns[k] < SLOW_NS:
                started, cpu = clock(), cpu_clock()
                rank([clue], index, top=5)
                rank_ns[k] = min(rank_ns[k], clock() - started)
                rank_cpu_ns[k] = min(rank_cpu_ns[k], cpu_clock() - cpu)

    # by_message + verification of every candidate, as rank does it, without the scoring
    # (an errdex from before index.may_match verifies every candidate: the baseline run)
    edge_filter = getattr(index, "may_match", lambda found, message: found)

    def lookup_and_verify(q: dict[str, Any]) -> tuple[int, int, int, int, int]:
        message = q["message"]
        started, cpu = clock(), cpu_clock()
        found = (
            index.by_message(message)
            if message
            else index.by_empty_message(q["error_class"].rsplit(".", 1)[-1])
        )
        looked = clock()
        full = 0
        for i in edge_filter(found, message):  # as rank() does: the edges first
            entry = index.entry(i)
            if entry.runs is not None:
                full += match_runs(entry.runs, message) is not None
            else:
                full += re2.fullmatch(entry.pattern, message) is not None
        return looked - started, clock() - started, cpu_clock() - cpu, len(found), full

    lookup_ns: list[int] = []
    verify_ns: list[int] = []
    verify_cpu_ns: list[int] = []
    candidates: list[int] = []
    full_matches: list[int] = []
    for q in measured:
        looked, verified, verified_cpu, count, full = lookup_and_verify(q)
        lookup_ns.append(looked)
        verify_ns.append(verified)
        verify_cpu_ns.append(verified_cpu)
        candidates.append(count)
        full_matches.append(full)
    for _ in range(args.repeat - 1):
        for k, q in enumerate(measured):
            if verify_ns[k] < SLOW_NS:
                looked, verified, verified_cpu, _count, _full = lookup_and_verify(q)
                lookup_ns[k] = min(lookup_ns[k], looked)
                verify_ns[k] = min(verify_ns[k], verified)
                verify_cpu_ns[k] = min(verify_cpu_ns[k], verified_cpu)

    # how many anchors each message hits (each adds its whole posting list)
    anchor_hits = [len(index._keys(q["message"])) for q in measured]

    kinds = sorted({q["kind"] for q in measured})
    per_kind: dict[str, Any] = {}
    for kind in kinds:
        at = [k for k, q in enumerate(measured) if q["kind"] == kind]
        same_template = same_record = any_full = 0
        for k in at:
            q, ranked = measured[k], tops[k]
            runs = tuple(q["runs"]) if q["runs"] is not None else None
            same_template += any(index.runs(s.index) == runs for s in ranked)
            same_record += any(index.entry(s.index).id == q["id"] for s in ranked)
            any_full += any(s.full_match for s in ranked)
        per_kind[kind] = {
            "n": len(at),
            "rank_us": summary_us([rank_ns[k] for k in at]),
            "rank_cpu_us": summary_us([rank_cpu_ns[k] for k in at]),
            "by_message_verify_cpu_us": summary_us([verify_cpu_ns[k] for k in at]),
            "by_message_verify_us": summary_us([verify_ns[k] for k in at]),
            "candidates_p50": percentile([candidates[k] for k in at], 0.5),
            "candidates_p99": percentile([candidates[k] for k in at], 0.99),
            "anchor_hits_p50": percentile([anchor_hits[k] for k in at], 0.5),
            "full_matches_p50": percentile([full_matches[k] for k in at], 0.5),
            "candidates_total": sum(candidates[k] for k in at),
            "full_matches_total": sum(full_matches[k] for k in at),
            "template_in_top5": same_template / len(at),
            "record_in_top5": same_record / len(at),
            "any_full_match": any_full / len(at),
        }
    slowest = sorted(range(len(measured)), key=lambda k: rank_ns[k], reverse=True)[:5]
    result.update(
        rank_us=summary_us(rank_ns),
        rank_cpu_us=summary_us(rank_cpu_ns),
        by_message_verify_cpu_us=summary_us(verify_cpu_ns),
        by_message_us=summary_us(lookup_ns),
        by_message_verify_us=summary_us(verify_ns),
        candidates={
            "p50": percentile(candidates, 0.5),
            "p99": percentile(candidates, 0.99),
            "max": max(candidates, default=0),
        },
        per_kind=per_kind,
        slowest=[
            {
                "us": rank_ns[k] / 1000,
                "kind": measured[k]["kind"],
                "candidates": candidates[k],
                "message": measured[k]["message"][:120],
            }
            for k in slowest
        ],
        rss_after_queries_mib=rss(),
        structures=structure_sizes(index),
    )
    write_answers(args.workdir / f"answers-{size}.jsonl", queries, index)
    return result


def write_answers(path: Path, queries: list[dict[str, Any]], index: Any) -> None:
    """Every query's top 5 (warm-up included), as ``match_tail.py --answers`` writes them:
    what ``--compare`` holds against another checkout's run on the same seeds."""
    from errdex.match.rank import Clue, rank
    from match_tail import answers

    with path.open("w") as fh:
        for q in queries:
            ranked = rank([Clue(q["error_class"], q["message"], ())], index, top=5)
            fh.write(json.dumps(answers(ranked, index)) + "\n")


def compare_answers(ours: Path, theirs: Path) -> Result:
    """How many queries' top 5 (ids, confidences, scores, holes, reasons) differ between
    this run and another's (``--compare``): a change made for speed must leave none."""
    if not ours.exists() or not theirs.exists():
        return {"error": f"no answers to compare: {ours if not ours.exists() else theirs}"}
    a, b = ours.read_text().splitlines(), theirs.read_text().splitlines()
    differ = [k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y]
    return {
        "against": str(theirs),
        "queries": len(a),
        "other_queries": len(b),
        "differ": len(differ) + abs(len(a) - len(b)),
        "examples": [{"query": k, "ours": a[k][:300], "theirs": b[k][:300]} for k in differ[:5]],
    }


def _baseline_queries(args: argparse.Namespace, size: int) -> list[dict[str, Any]]:
    queries: list[dict[str, Any]] = json.loads(
        (args.workdir / f"n{size}" / "queries.json").read_text()
    )
    return queries[args.warmup : args.warmup + args.baseline_queries]


def _patterns(args: argparse.Namespace, size: int) -> tuple[list[int], list[str]]:
    """Entry numbers and messagePatterns of the non-opaque templates."""
    entries: list[int] = []
    patterns: list[str] = []
    with (args.workdir / f"n{size}" / "patterns.jsonl").open() as fh:
        for line in fh:
            entry, pattern = json.loads(line)
            entries.append(entry)
            patterns.append(pattern)
    return entries, patterns


def _found_rates(
    queries: Sequence[dict[str, Any]], found: Sequence[bool], source: Sequence[bool]
) -> dict[str, Any]:
    """Shares of rendered queries matched at all / by their own template, and of misses matched."""
    rendered = [k for k, q in enumerate(queries) if q["kind"] in ("anchored", "empty")]
    misses = [k for k, q in enumerate(queries) if q["kind"] == "miss"]
    return {
        "rendered_n": len(rendered),
        "found_rate_rendered": sum(found[k] for k in rendered) / max(1, len(rendered)),
        "source_rate_rendered": sum(source[k] for k in rendered) / max(1, len(rendered)),
        "misses_n": len(misses),
        "found_rate_misses": sum(found[k] for k in misses) / max(1, len(misses)),
    }


def _baseline_set(args: argparse.Namespace, size: int) -> list[dict[str, Any]]:
    """The queries the baselines answer: opaque ones left out, as their patterns are."""
    return [q for q in _baseline_queries(args, size) if q["kind"] != "opaque"]


def child_re(args: argparse.Namespace, size: int, out: Path) -> Result:
    import re

    entries, patterns = _patterns(args, size)
    position = {entry: k for k, entry in enumerate(entries)}
    rss0 = rss()
    started, cpu = time.perf_counter(), time.thread_time()
    compiled = [re.compile(p) for p in patterns]
    result: Result = {
        "patterns": len(compiled),
        "compile_s": time.perf_counter() - started,
        "compile_cpu_s": time.thread_time() - cpu,
        "rss_mib": rss() - rss0,
    }
    queries = _baseline_set(args, size)
    ns: list[int] = []
    cpu_ns: list[int] = []
    found: list[bool] = []
    source: list[bool] = []
    clock, cpu_clock = time.perf_counter_ns, time.thread_time_ns
    deadline = time.perf_counter() + args.baseline_budget
    for q in queries:
        if time.perf_counter() > deadline:
            break
        message = q["message"]
        hit: int | None = None
        started, cpu = clock(), cpu_clock()
        for k, pattern in enumerate(compiled):
            if pattern.fullmatch(message):
                hit = k
                break
        ns.append(clock() - started)
        cpu_ns.append(cpu_clock() - cpu)
        found.append(hit is not None)
        own = position.get(q["entry"]) if q["entry"] is not None else None
        source.append(hit is not None and own is not None and patterns[hit] == patterns[own])
    done = queries[: len(ns)]
    result.update(
        query_us=summary_us(ns),
        query_cpu_us=summary_us(cpu_ns),
        **_found_rates(done, found, source),
    )
    return result


def child_re2set(args: argparse.Namespace, size: int, out: Path) -> Result:
    import re2

    limit = int(args.re2_limit_gib * 1024**3)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    options = re2.Options()
    options.max_mem = args.re2_max_mem_mib * MIB
    result: Result = {
        "max_mem_mib": args.re2_max_mem_mib,
        "address_space_limit_gib": args.re2_limit_gib,
    }
    entries, patterns = _patterns(args, size)
    position = {entry: k for k, entry in enumerate(entries)}
    rss0 = rss()
    started, cpu = time.perf_counter(), time.thread_time()
    regex_set = re2.Set.FullMatchSet(options)
    failed = 0
    for pattern in patterns:
        try:
            regex_set.Add(pattern)
        except re2.error:
            failed += 1
    del patterns
    result.update(
        patterns=len(entries), add_s=time.perf_counter() - started, add_failed=failed, stage="added"
    )
    write_json(out, result)  # so that a crash in Compile still leaves the figures so far
    started = time.perf_counter()
    try:
        regex_set.Compile()
    except re2.error as exc:
        result.update(
            compile_s=time.perf_counter() - started,
            cpu_s=time.thread_time() - cpu,
            peak_mib=proc_status()["VmHWM"],
            error=f"Compile: {exc}",
        )
        return result
    result.update(
        compile_s=time.perf_counter() - started,
        cpu_s=time.thread_time() - cpu,
        rss_mib=rss() - rss0,
        stage="compiled",
    )
    write_json(out, result)
    queries = _baseline_set(args, size)
    ns: list[int] = []
    cpu_ns: list[int] = []
    found: list[bool] = []
    source: list[bool] = []
    clock, cpu_clock = time.perf_counter_ns, time.thread_time_ns
    deadline = time.perf_counter() + args.baseline_budget
    for q in queries:
        if time.perf_counter() > deadline:
            break
        started, cpu = clock(), cpu_clock()
        matched: Any = regex_set.Match(q["message"])  # a list of pattern numbers, or None
        ns.append(clock() - started)
        cpu_ns.append(cpu_clock() - cpu)
        hits: list[int] = list(matched or ())
        found.append(bool(hits))
        own = position.get(q["entry"]) if q["entry"] is not None else None
        source.append(own in hits)
    result.update(
        query_us=summary_us(ns),
        query_cpu_us=summary_us(cpu_ns),
        rss_after_queries_mib=rss() - rss0,
        stage="queried",
        **_found_rates(queries[: len(ns)], found, source),
    )
    return result


CHILDREN: dict[str, Callable[[argparse.Namespace, int, Path], Result]] = {
    "build": child_build,
    "stages": child_stages,
    "query": child_query,
    "load": child_load,
    "loadparts": child_loadparts,
    "re": child_re,
    "re2set": child_re2set,
}


# -- the parent ------------------------------------------------------------------------


def run_child(
    args: argparse.Namespace, kind: str, size: int, timeout: float, tag: str = ""
) -> Result:
    out = args.workdir / f"{kind}{tag}-{size}.json"
    out.unlink(missing_ok=True)
    argv = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--child",
        kind,
        "--size",
        str(size),
        "--workdir",
        str(args.workdir),
        "--seed",
        str(args.seed),
        "--queries",
        str(args.queries),
        "--warmup",
        str(args.warmup),
        "--repeat",
        str(args.repeat),
        "--miss-share",
        str(args.miss_share),
        "--generated-tokens",
        str(args.generated_tokens),
        "--p-generated",
        str(args.p_generated),
        "--baseline-queries",
        str(args.baseline_queries),
        "--baseline-budget",
        str(args.baseline_budget),
        "--re2-max-mem-mib",
        str(args.re2_max_mem_mib),
        "--re2-limit-gib",
        str(args.re2_limit_gib),
    ]
    log(f"  {kind}{tag} at {size:,} …")
    started = time.perf_counter()
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
        error = None if proc.returncode == 0 else f"exit {proc.returncode}: {proc.stderr[-600:]}"
        stderr = proc.stderr
    except subprocess.TimeoutExpired as exc:
        error = f"timed out after {timeout:.0f} s"
        stderr = exc.stderr.decode() if isinstance(exc.stderr, bytes) else (exc.stderr or "")
    result: Result = json.loads(out.read_text()) if out.exists() else {}
    if error:
        result["error"] = (result.get("error", "") + " " + error).strip()
    dfa = stderr.count("DFA out of memory")
    if dfa:
        result["dfa_out_of_memory_messages"] = dfa
    result["wall_s"] = time.perf_counter() - started
    log(f"    {time.perf_counter() - started:.1f} s" + (f"  ERROR {error}" if error else ""))
    return result


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def prepare_seeds(args: argparse.Namespace) -> dict[str, Any]:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import _catalogue as cat

    started = time.perf_counter()
    from errdex.template import MessageTemplate

    if args.seeds is not None:  # a seeds.json of an earlier run: its scan is not repeated
        seeds = [cat.Seed.from_json(s) for s in json.loads(args.seeds.read_text())]
        notes = [f"seeds read from {args.seeds}"]
    else:
        seeds, notes = cat.scan_seeds(args.packages, jobs=2)
    for s in seeds:  # the fast copies of pattern/runs must agree with MessageTemplate
        t = MessageTemplate.from_json(s.template)
        assert cat.pattern_of(s.template) == t.pattern, s.template
        assert tuple(cat.runs_of(s.template)) == t.runs(), s.template
    write_json(args.workdir / "seeds.json", [s.to_json() for s in seeds])
    vocabulary = cat.Vocabulary(seeds, args.generated_tokens, args.p_generated)
    anchored = sum(cat.is_anchored(s.template) for s in seeds)
    empty = sum(not s.template for s in seeds)
    return {
        "seeds": len(seeds),
        "distinct_templates": len({json.dumps(s.template) for s in seeds}),
        "anchored": anchored,
        "empty": empty,
        "opaque": len(seeds) - anchored - empty,
        "real_word_occurrences": len(vocabulary.real),
        "real_distinct_words": len(set(vocabulary.real)),
        "notes": notes,
        "scan_s": time.perf_counter() - started,
    }


def fmt(value: Any, spec: str = ".2f") -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    return format(value, spec)


def print_report(report: dict[str, Any]) -> None:
    seeds = report["seeds"]
    print(
        f"\nseeds: {seeds['seeds']:,} real templates ({seeds['distinct_templates']:,} distinct; "
        f"{seeds['anchored']:,} with literal text to anchor, {seeds['opaque']:,} opaque, "
        f"{seeds['empty']:,} empty); vocabulary {seeds['real_distinct_words']:,} real words "
        f"+ {report['args']['generated_tokens']:,} generated tokens "
        f"(p={report['args']['p_generated']}); scan {seeds['scan_s']:.1f} s"
    )
    for note in seeds["notes"]:
        print(f"  {note}")
    rows = report["sizes"]
    print(
        "\nerrdex MatchIndex — message-only rank([Clue(class, message, ())], top=5); load and RSS "
        "in fresh processes, from the page cache"
    )
    print(
        f"{'size':>9} {'build s':>12} {'save s':>6} {'import s':>8} {'load s':>11} {'RSS MiB':>7} "
        f"{'peak':>5} {'disk':>5} │ {'p50 µs':>13} {'p99 µs':>17} {'anch p99':>8} "
        f"{'bm+v p50':>8} {'bm+v p99':>9} {'top5 %':>6}  load avg"
    )
    for size, row in rows.items():
        b, q = row.get("build", {}), row.get("query", {})
        loads = [r for r in row.get("loads", []) if "load_s" in r]
        best = min(loads, key=lambda r: r["load_s"]) if loads else {}
        rank_us, rank_cpu = q.get("rank_us", {}), q.get("rank_cpu_us", {})
        bmv = q.get("by_message_verify_cpu_us", {})
        anchored = q.get("per_kind", {}).get("anchored", {})
        disk = sum(b.get("disk_bytes", {}).values()) / MIB if b.get("disk_bytes") else None
        imp = (q.get("import_index_cpu_s", 0) + q.get("import_rank_cpu_s", 0)) if q else None
        print(
            f"{int(size):>9,} {fmt(b.get('build_s'), '5.1f')} ({fmt(b.get('build_cpu_s'), '4.1f')}) "
            f"{fmt(b.get('save_s'), '6.2f')} {fmt(imp, '8.2f')} "
            f"{fmt(best.get('load_s'), '4.2f')} ({fmt(best.get('load_cpu_s'), '4.2f')}) "
            f"{fmt(q.get('rss_load_mib'), '7.0f')} {fmt(q.get('peak_mib'), '5.0f')} "
            f"{fmt(disk, '5.0f')} │ {fmt(rank_us.get('p50'), '6.0f')} ({fmt(rank_cpu.get('p50'), '5.0f')})"
            f" {fmt(rank_us.get('p99'), '8.0f')} ({fmt(rank_cpu.get('p99'), '7.0f')}) "
            f"{fmt(anchored.get('rank_cpu_us', {}).get('p99'), '8.0f')} "
            f"{fmt(bmv.get('p50'), '8.0f')} {fmt(bmv.get('p99'), '9.0f')} "
            f"{fmt(100 * anchored['template_in_top5'] if anchored else None, '6.1f')}  "
            + " → ".join(f"{x:.1f}" for x in row.get("load_average", []))
        )
    print(
        "  (in brackets: CPU time of the process/thread, which preemption by other load on the "
        "machine does not inflate; the columns after them are CPU times too)\n"
        "  build s: MatchIndex.build minus the time spent generating the envelopes; import s: "
        "errdex.match.index + rank, CPU; load s: best fresh-process MatchIndex.load, imports "
        "excluded; RSS: VmRSS after load minus before; peak: VmHWM of that process; p50/p99: "
        "rank() over all queries (misses and empty messages included), each query's best of "
        "--repeat runs; anch p99: queries rendered from templates with literal text; bm+v: "
        "by_message + verifying every candidate; top5 %: of the anchored queries, the template "
        "rendered is among the top 5"
    )
    print(
        "\nbaselines — the same queries without opaque ones, over the non-opaque patterns "
        "(own %: the query's own template is what was found)"
    )
    print(
        f"{'size':>9} {'patterns':>9} │ {'re compile s':>12} {'MiB':>5} {'p50 µs':>15} "
        f"{'p99 µs':>17} {'own %':>6} │ {'re2.Set add+compile s':>21} {'MiB':>5} "
        f"{'p50 µs':>15} {'p99 µs':>17} {'own %':>6}  status"
    )
    for size, row in rows.items():
        r, s = row.get("re", {}), row.get("re2set", {})
        rq, sq = r.get("query_us", {}), s.get("query_us", {})
        rc, sc = r.get("query_cpu_us", {}), s.get("query_cpu_us", {})
        compile_s = s["add_s"] + s.get("compile_s", 0.0) if "add_s" in s else None
        status = s.get("error", s.get("stage", "not run")) if s else "not run"
        if s.get("dfa_out_of_memory_messages"):
            status += f"; {s['dfa_out_of_memory_messages']} × 'DFA out of memory'"
        if s.get("peak_mib"):
            status += f" (peak RSS {s['peak_mib']:.0f} MiB)"
        print(
            f"{int(size):>9,} {fmt(r.get('patterns', s.get('patterns')), '9,')} │ "
            f"{fmt(r.get('compile_s'), '12.2f')} {fmt(r.get('rss_mib'), '5.0f')} "
            f"{fmt(rq.get('p50'), '6.0f')} ({fmt(rc.get('p50'), '6.0f')}) "
            f"{fmt(rq.get('p99'), '7.0f')} ({fmt(rc.get('p99'), '7.0f')}) "
            f"{fmt(100 * r['source_rate_rendered'] if 'source_rate_rendered' in r else None, '6.1f')}"
            f" │ {fmt(compile_s, '21.2f')} {fmt(s.get('rss_mib'), '5.0f')} "
            f"{fmt(sq.get('p50'), '6.0f')} ({fmt(sc.get('p50'), '6.0f')}) "
            f"{fmt(sq.get('p99'), '7.0f')} ({fmt(sc.get('p99'), '7.0f')}) "
            f"{fmt(100 * s['source_rate_rendered'] if 'source_rate_rendered' in s else None, '6.1f')}"
            f"  {status[:200]}"
        )
    print("  (in brackets: CPU time; the re2.Set MiB is RSS after Compile, before any query)")
    for size, row in rows.items():
        print(f"\n── {int(size):,} entries ──")
        print_details(row)
    print_goals(rows)
    print_compare(rows)


def print_compare(rows: dict[str, Any]) -> None:
    """The ``--compare`` check: every query's top 5 against the other run's."""
    for size, row in rows.items():
        c = row.get("compare")
        if c is None:
            continue
        if "error" in c:
            print(f"compare at {int(size):,}: {c['error']}")
            continue
        print(
            f"compare at {int(size):,}: {c['queries']:,} queries' top 5 against "
            f"{c['against']}: {c['differ']} differ"
        )
        for ex in c["examples"]:
            print(f"  query {ex['query']}:\n    {ex['ours']}\n    {ex['theirs']}")


def print_details(row: dict[str, Any]) -> None:
    b, q = row.get("build", {}), row.get("query", {})
    if b:
        print(
            f"build: total {b['build_total_s']:.2f} s of which making envelopes "
            f"{b['stream_s']:.2f} s → index {b['build_s']:.2f} s (CPU {b['build_cpu_s']:.2f} s, "
            f"of which GC {sum(b['build_gc_s']):.2f} s in {sum(b['build_gc_count'])} collections, "
            f"{b['build_gc_count'][2]} full ones taking {b['build_gc_s'][2]:.2f} s); "
            f"RSS +{b['build_rss_mib']:.0f} MiB, "
            f"peak {b['build_peak_mib']:.0f} MiB; save {b['save_s']:.2f} s; disk "
            + ", ".join(f"{k} {v / MIB:.1f} MiB" for k, v in b["disk_bytes"].items())
        )
        p = b["postings"]
        a = p["automaton"]
        print(
            f"anchors: {p['anchors']:,} for {p['anchored_entries']:,} entries "
            f"({p['unanchored_entries']:,} unanchored); largest posting {p['max_posting']:,}; "
            f"{p['anchors_over_100']:,} anchors with > 100 entries hold "
            f"{p['entries_under_anchors_over_100']:,}; automaton {a['nodes_count']:,} nodes × "
            f"{a['sizeof_node']} B + links = {a['total_size'] / MIB:.0f} MiB"
        )
        print("  largest postings: " + ", ".join(f"{k!r} {n:,}" for k, n in p["largest"]))
    st = row.get("stages")
    if st and "stages" in st:
        print(
            f"build stages (mirror of MatchIndex.build; peak {st['peak_mib']:.0f} MiB; "
            f"template_runs {st['from_json_runs_us_per_entry']:.1f} µs/entry, "
            f"_bounded_words {st['bounded_words_us_per_entry']:.1f} µs/entry):"
        )
        for s in st["stages"]:
            print(
                f"  {s['stage']:<58} {s['s']:7.2f} s  CPU {s['cpu_s']:6.2f} s  "
                f"of which GC {s['gc_s']:6.2f} s  RSS {s['rss_delta_mib']:+7.0f} MiB"
            )
        ap = st["automaton_pickle"]
        print(
            f"  (alternative: pickle.dumps(automaton) {ap['dumps_s']:.2f} s, "
            f"{ap['bytes'] / MIB:.0f} MiB; pickle.loads {ap['loads_s']:.2f} s)"
        )
    elif st:
        print(f"build stages: {st.get('error')}")
    lp = row.get("loadparts")
    if lp and "columns_s" in lp:
        print(
            f"load parts: whole load {lp['total_s']:.2f} s (CPU {lp['total_cpu_s']:.2f} s) "
            f"/ {lp['columns_rss_mib']:.0f} MiB = columns {lp['columns_s']:.2f} s "
            f"(CPU {lp['columns_cpu_s']:.2f} s) + automaton from its HMAC'd state "
            f"{lp['automaton_s']:.2f} s (CPU {lp['automaton_cpu_s']:.2f} s); automaton rebuilt "
            f"from its anchors (an index another user wrote) {lp['rebuild_s']:.2f} s "
            f"(CPU {lp['rebuild_cpu_s']:.2f} s); baseline, the former pickle of the same index "
            f"{lp['pickle_s']:.2f} s (CPU {lp['pickle_cpu_s']:.2f} s)"
        )
    loads = row.get("loads", [])
    if loads:
        print(
            "loads (fresh processes): "
            + ", ".join(f"{r['load_s']:.2f} s" for r in loads if "load_s" in r)
            + (
                f"; imports: index {q['import_index_s']:.2f} s + rank {q['import_rank_s']:.2f} s "
                f"(+{q['rss_import_mib']:.0f} MiB)"
                if q and "import_index_s" in q
                else ""
            )
        )
    if q and "per_kind" in q:
        print(
            f"queries: rank CPU p50 {q['rank_cpu_us']['p50']:.1f} p90 {q['rank_cpu_us']['p90']:.1f} "
            f"p99 {q['rank_cpu_us']['p99']:.1f} max {q['rank_cpu_us']['max']:.0f} µs; wall:"
        )
        print(
            f"  rank p50 {q['rank_us']['p50']:.1f} p90 {q['rank_us']['p90']:.1f} "
            f"p99 {q['rank_us']['p99']:.1f} max {q['rank_us']['max']:.0f} µs; by_message alone "
            f"p50 {q['by_message_us']['p50']:.1f} p99 {q['by_message_us']['p99']:.1f} µs; candidates "
            f"p50 {q['candidates']['p50']} p99 {q['candidates']['p99']} max {q['candidates']['max']}"
        )
        print(
            f"  {'kind':<9} {'n':>5} {'CPU p50':>9} {'CPU p99':>9} {'bm+v p50':>9} {'bm+v p99':>9} "
            f"{'cand p50':>8} {'cand p99':>8} {'anchors':>7} {'full':>5} {'useful':>7} "
            f"{'tpl∈top5':>9} {'id∈top5':>8} {'any full':>9}"
        )
        for kind, k in q["per_kind"].items():  # anchors: hits per message; full: matches
            print(
                f"  {kind:<9} {k['n']:>5} {k['rank_cpu_us']['p50']:9.1f} {k['rank_cpu_us']['p99']:9.1f} "
                f"{k['by_message_verify_cpu_us']['p50']:9.1f} "
                f"{k['by_message_verify_cpu_us']['p99']:9.1f} "
                f"{k['candidates_p50']:>8} {k['candidates_p99']:>8} {k['anchor_hits_p50']:>7} "
                f"{k['full_matches_p50']:>5} "
                f"{100 * k['full_matches_total'] / max(1, k['candidates_total']):6.1f}% "
                f"{100 * k['template_in_top5']:8.1f}% {100 * k['record_in_top5']:7.1f}% "
                f"{100 * k['any_full_match']:8.1f}%"
            )
        print(
            "  slowest: "
            + "; ".join(
                f"{s['us']:.0f} µs {s['kind']} ({s['candidates']} cand.) {s['message'][:60]!r}"
                for s in q["slowest"][:3]
            )
        )
        sizes = q["structures"]
        print(
            "memory per structure (MiB, sys.getsizeof one level deep): "
            + ", ".join(
                f"{k} {v:.1f}" for k, v in sorted(sizes["mib"].items(), key=lambda kv: -kv[1])
            )
        )
        print("  " + ", ".join(f"{k} {v}" for k, v in sizes["facts"].items()))
    elif q:
        print(f"queries: {q.get('error')}")
    r = row.get("re")
    if r and "query_us" in r:
        print(
            f"re loop: {r['query_us']['n']} queries; a full match for "
            f"{100 * r['found_rate_rendered']:.1f}% of rendered (the own template first for "
            f"{100 * r['source_rate_rendered']:.1f}%) and {100 * r['found_rate_misses']:.1f}% of "
            f"{r['misses_n']} 'miss' queries"
        )
    s = row.get("re2set")
    if s and "query_us" in s:
        print(
            f"re2.Set: {s['query_us']['n']} queries; a full match for "
            f"{100 * s['found_rate_rendered']:.1f}% of rendered (the own template among them for "
            f"{100 * s['source_rate_rendered']:.1f}%) and {100 * s['found_rate_misses']:.1f}% of "
            f"{s['misses_n']} 'miss' queries"
        )


def print_goals(rows: dict[str, Any]) -> None:
    print("\ngoals (at 1M): p99 ≤ 100 µs, load ≤ 2 s, build ≤ 15 s, RSS ≤ 1024 MiB")
    for size, row in rows.items():
        b, q = row.get("build", {}), row.get("query", {})
        loads = [r["load_s"] for r in row.get("loads", []) if "load_s" in r]
        anchored_p99 = q.get("per_kind", {}).get("anchored", {}).get("rank_cpu_us", {}).get("p99")
        checks = [
            ("p99 (CPU)", q.get("rank_cpu_us", {}).get("p99"), GOAL_P99_US, "µs"),
            ("anchored p99 (CPU)", anchored_p99, GOAL_P99_US, "µs"),
            ("load", min(loads) if loads else None, GOAL_LOAD_S, "s"),
            ("build (CPU)", b.get("build_cpu_s"), GOAL_BUILD_S, "s"),
            ("RSS", q.get("rss_load_mib"), GOAL_RSS_MIB, "MiB"),
        ]
        text = []
        for name, value, goal, unit in checks:
            if value is None:
                text.append(f"{name} —")
            else:
                verdict = "ok" if value <= goal else "MISSED"
                text.append(f"{name} {value:.2f} {unit} {verdict} ({value / goal:.2f}× goal)")
        print(f"  {int(size):>9,}: " + "; ".join(text))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--queries", type=int, default=2000, help="measured queries per size")
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument(
        "--repeat", type=int, default=3, help="time each query this often, keep its best"
    )
    parser.add_argument("--miss-share", type=float, default=0.10)
    parser.add_argument("--packages", default="networkx,click,pydantic")
    parser.add_argument("--generated-tokens", type=int, default=50_000)
    parser.add_argument("--p-generated", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--load-repeat", type=int, default=3)
    parser.add_argument("--re-sizes", default="10000,100000", help="sizes for the re loop")
    parser.add_argument("--re2-sizes", default="", help="sizes for re2.Set (default: all)")
    parser.add_argument("--baseline-queries", type=int, default=1000)
    parser.add_argument(
        "--baseline-budget", type=float, default=300.0, help="seconds of queries per baseline"
    )
    parser.add_argument("--re2-max-mem-mib", type=int, default=4096)
    parser.add_argument("--re2-limit-gib", type=float, default=16.0)
    parser.add_argument("--re2-timeout", type=float, default=1200.0)
    parser.add_argument("--timeout", type=float, default=1800.0)
    parser.add_argument("--no-stages", action="store_true")
    parser.add_argument(
        "--no-loadparts", action="store_true", help="skip the load-parts diagnostic (minutes at 1M)"
    )
    parser.add_argument("--no-baselines", action="store_true")
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument(
        "--seeds", type=Path, default=None, help="reuse an earlier run's seeds.json (no scan)"
    )
    parser.add_argument(
        "--compare",
        type=Path,
        default=None,
        help="another run's work directory (or answers-SIZE.jsonl) on the same --seeds: "
        "count the queries whose top 5 differ",
    )
    parser.add_argument("--keep", action="store_true", help="keep the work directory and indexes")
    parser.add_argument("--json", type=Path, default=None, help="write all figures here")
    parser.add_argument("--child", choices=sorted(CHILDREN), help=argparse.SUPPRESS)
    parser.add_argument("--size", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.child:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        out = args.workdir / f"{args.child}-{args.size}.json"
        write_json(out, CHILDREN[args.child](args, args.size, out))
        return

    sizes = [int(s) for s in args.sizes.split(",") if s]
    re_sizes = {int(s) for s in args.re_sizes.split(",") if s}
    re2_sizes = {int(s) for s in args.re2_sizes.split(",") if s} or set(sizes)
    args.packages = [p for p in args.packages.split(",") if p]
    own = args.workdir is None
    args.workdir = Path(args.workdir or tempfile.mkdtemp(prefix="errdex-match-speed."))
    args.workdir.mkdir(parents=True, exist_ok=True)
    log(f"work directory {args.workdir}; scanning seeds …")
    report: dict[str, Any] = {
        "args": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
        "machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]},
        "seeds": prepare_seeds(args),
        "sizes": {},
    }
    try:
        for size in sizes:
            row: dict[str, Any] = {"load_average": [os.getloadavg()[0]]}
            report["sizes"][str(size)] = row
            row["build"] = run_child(args, "build", size, args.timeout)
            if "error" in row["build"]:
                continue
            if not args.no_stages:
                row["stages"] = run_child(args, "stages", size, args.timeout)
            row["query"] = run_child(args, "query", size, args.timeout)
            if args.compare is not None:
                theirs = args.compare / f"answers-{size}.jsonl"
                if args.compare.is_file():
                    # A file holds one size's answers: its name says which (answers-SIZE).
                    theirs = args.compare.parent / f"answers-{size}.jsonl"
                row["compare"] = compare_answers(args.workdir / f"answers-{size}.jsonl", theirs)
            row["loads"] = [row["query"]] + [
                run_child(args, "load", size, args.timeout) for _ in range(args.load_repeat - 1)
            ]
            if not args.no_loadparts:
                row["loadparts"] = run_child(args, "loadparts", size, args.timeout)
            if not args.no_baselines:
                if size in re_sizes:
                    row["re"] = run_child(args, "re", size, args.timeout)
                if size in re2_sizes:
                    row["re2set"] = run_child(args, "re2set", size, args.re2_timeout)
            row["load_average"].append(os.getloadavg()[0])
            if not args.keep:
                shutil.rmtree(args.workdir / f"n{size}", ignore_errors=True)
    finally:
        if args.json:
            args.json.write_text(json.dumps(report, indent=1))
        if own and not args.keep:
            shutil.rmtree(args.workdir, ignore_errors=True)
    print_report(report)


if __name__ == "__main__":
    main()
