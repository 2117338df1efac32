"""Where the slowest 1% of ``rank()`` queries spend their time (a diagnostic).

    .venv/bin/python bench/match_tail.py WORKDIR [--size 100000] [--share 0.01]
        [--answers OUT.jsonl [--against OTHER.jsonl]]

``WORKDIR`` is a work directory ``bench/match_speed.py --keep`` left (its
``n{size}/index`` and ``n{size}/queries.json``). Each measured query is ranked
``--repeat`` times (best kept), in CPU time of the thread (``time.thread_time_ns``: the
machine is shared, and wall time counts the time other jobs held the core); the slowest
``--share`` are then profiled together, on the same CPU clock, and
their time is split by the stage of ``rank`` it was spent in (the automaton scan and
posting lists, twin folding, edge filtering, verification of candidates, the group and
prior), with each query's candidate and verification counts.

``--answers OUT`` instead writes every query's answers (warm-up included), one JSON line
each: id, confidence, score, hole values and reasons of each candidate, in order; with
``--against OTHER`` (another checkout's file, on its own index of the same work
directory's queries) the queries whose answers differ are counted and shown. A change
made for speed must leave them all alike.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: (stage, module file suffix, function name) whose cumulative time is reported.
STAGES = (
    ("message_candidates (automaton + postings)", "index.py", "message_candidates"),
    ("by_message (hole values' anchors)", "index.py", "by_message"),
    ("collapse_folded (twin folding)", "index_groups.py", "collapse_folded"),
    ("may_match (edges, second literals)", "index.py", "may_match"),
    ("verify (full match, RE2 or literal runs)", "rank_verify.py", "verify"),
    ("class_agreement", "rank.py", "class_agreement"),
    ("class_sites (anchorless wrappers)", "rank_nested.py", "class_sites"),
    ("nested_literals", "rank_nested.py", "nested_literals"),
    ("_inner_fit (hole values' templates)", "rank_nested.py", "_inner_fit"),
    ("_partial_matches", "rank.py", "_partial_matches"),
    ("lone_holes", "rank_lone.py", "lone_holes"),
    ("fuzzy_matches", "rank_fuzzy.py", "fuzzy_matches"),
    ("overridden", "rank_override.py", "overridden"),
    ("expand (twins copied back)", "index_groups.py", "expand"),
    ("order_group (group + prior)", "group.py", "order_group"),
    ("_score_clue (all of one clue)", "rank.py", "_score_clue"),
    ("rank", "rank.py", "rank"),
)


def best_of(run: Callable[[], Any], repeat: int) -> int:
    """The least CPU time (ns, this thread) of ``repeat`` runs: preemption by other jobs
    on a shared machine inflates wall time, not this."""
    best = 1 << 62
    for _ in range(repeat):
        started = time.thread_time_ns()
        run()
        best = min(best, time.thread_time_ns() - started)
    return best


def answers(ranked: list[Any], index: Any) -> list[list[Any]]:
    """What a query answers, to compare two checkouts: each candidate's id, confidence,
    score, hole values and reasons, in order."""
    return [
        [index.entry(s.index).id, repr(s.confidence), repr(s.score), s.holes, s.reasons]
        for s in ranked
    ]


def write_answers(path: Path, rows: list[list[list[Any]]]) -> None:
    """One JSON line per query, in the order of ``queries.json``."""
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))


def compare_answers(ours: Path, theirs: Path) -> None:
    """Prints how many queries' answers differ (ids, confidences, scores, holes, reasons)."""
    a, b = ours.read_text().splitlines(), theirs.read_text().splitlines()
    differ = [k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y]
    print(f"{len(a)} and {len(b)} queries answered; {len(differ)} differ")
    for k in differ[:10]:
        print(f"  query {k}:\n    {a[k][:300]}\n    {b[k][:300]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("workdir", type=Path)
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--share", type=float, default=0.01)
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile-rounds", type=int, default=20)
    parser.add_argument(
        "--answers", type=Path, default=None, help="write every query's answers here, and stop"
    )
    parser.add_argument(
        "--against", type=Path, default=None, help="with --answers: another side's, compared"
    )
    args = parser.parse_args()

    from errdex.match.index import MatchIndex
    from errdex.match.rank import Clue, rank

    base = args.workdir / f"n{args.size}"
    index = MatchIndex.load(base / "index")
    assert index is not None
    queries = json.loads((base / "queries.json").read_text())
    measured = queries[args.warmup :]
    clues = [Clue(q["error_class"], q["message"], ()) for q in queries]
    if args.answers is not None:
        write_answers(args.answers, [answers(rank([c], index, top=5), index) for c in clues])
        if args.against is not None:
            compare_answers(args.answers, args.against)
        return
    for clue in clues[: args.warmup]:
        rank([clue], index, top=5)
    clues = clues[args.warmup :]
    times = [best_of(lambda c=c: rank([c], index, top=5), args.repeat) for c in clues]
    order = sorted(range(len(clues)), key=lambda k: -times[k])
    slow = order[: max(1, round(args.share * len(clues)))]
    ordered = sorted(times)
    print(
        f"{len(clues)} queries (CPU time): p50 {ordered[len(ordered) // 2] / 1000:.1f} µs, "
        f"p99 {ordered[int(0.99 * len(ordered)) - 1] / 1000:.1f} µs; "
        f"the slowest {len(slow)}:"
    )
    for k in slow:
        q = measured[k]
        found = index.by_message(q["message"]) if q["message"] else []
        passed = index.may_match(found, q["message"]) if q["message"] else []
        print(
            f"  {times[k] / 1000:8.1f} µs  {q['kind']:<8} cand {len(found):>4} "
            f"edges-pass {len(passed):>4}  {q['error_class']}: {q['message'][:90]!r}"
        )
    profile = cProfile.Profile(time.thread_time_ns, 1e-9)  # CPU time, as above
    profile.enable()
    for _ in range(args.profile_rounds):
        for k in slow:
            rank([clues[k]], index, top=5)
    profile.disable()
    stats = pstats.Stats(profile)
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    total = sum(v[3] for (f, _, name), v in raw.items() if f.endswith("rank.py") and name == "rank")
    print(f"\nwhere the slowest {len(slow)} spend it (cumulative, profiled, share of rank):")
    for stage, suffix, name in STAGES:
        cum = sum(v[3] for (f, _, n), v in raw.items() if f.endswith(suffix) and n == name)
        calls = sum(v[1] for (f, _, n), v in raw.items() if f.endswith(suffix) and n == name)
        print(f"  {stage:<42} {100 * cum / max(total, 1e-12):6.1f}%  calls {calls}")
    print()
    stats.sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
