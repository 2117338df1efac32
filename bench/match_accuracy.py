"""Matching accuracy on real errors: networkx 3.6.1's test suite, each error with its true raise site.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python bench/match_accuracy.py [--data ../shared/bench/networkx.jsonl]

Scans networkx (and the standard library, which some of its errors come from) into a
temporary store and asks errdex for each error's site, given (a) only the last line
``Class: message`` and (b) the full traceback. Top-1 and top-3 are scored on
``(filePath, lineNumber) == (raise_file, raise_line)``. A message the text cannot place
(raised verbatim at k sites) is answered by that group of k: the "in group" figure is
the share of errors whose true site is in the group answered (or is the best candidate
when it stands alone).

Part (a) is run twice: with the catalogue alone, and with runtime evidence
(``evidence.observed``, what ``errdex harvest`` records) cross-validated: the errors
of half the tests (split by test id) become observed evidence, the other half is
asked, and the other way round — so no answer is looked up from its own capture.
A message raised verbatim at several sites cannot be placed by its text alone; the
"ceiling" line says how many can be in principle: per error 1/(1 + k), k the other sites
of the class whose template renders the message with at least as many literal characters
as the true site's (bench/_ceiling.py, shared with match_realerrors.py).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from errdex.match.api import clues_from
from errdex.match.index import MatchIndex
from errdex.match.literal_match import match_runs
from errdex.match.paste import parse_paste
from errdex.match.rank import Clue, Scored, rank
from errdex.scan import scan_checkout
from errdex.source import open_source
from errdex.source.stdlib import stdlib_checkout
from errdex.template import MessageTemplate

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _ceiling import ceiling as message_ceiling

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "bench" / "networkx.jsonl"
Envelope = dict[str, Any]


def catalogue() -> list[Envelope]:
    envelopes: list[Envelope] = []
    for checkout, repo in (
        (open_source(package="networkx"), "networkx/networkx"),
        (stdlib_checkout(), "python/cpython"),
    ):
        result = scan_checkout(checkout, repo=checkout.repo or repo)
        envelopes.extend({"record": r, "evidence": e} for r, e in result.items)
    return envelopes


def fold_of(row: dict[str, Any]) -> int:
    return hashlib.sha256(row["test_id"].encode()).digest()[0] % 2


def with_observed(envelopes: list[Envelope], rows: Iterable[dict[str, Any]]) -> list[Envelope]:
    """Copies of the envelopes with ``observed`` messages from ``rows`` at their true sites."""
    at: dict[tuple[str, int], list[int]] = {}
    for i, env in enumerate(envelopes):
        at.setdefault((env["record"]["filePath"], env["record"]["lineNumber"]), []).append(i)
    observed: dict[int, list[dict[str, Any]]] = {}
    for row in rows:
        for i in at.get((row["raise_file"], row["raise_line"]), ()):
            runs = MessageTemplate.from_json(envelopes[i]["evidence"]["site"]["template"]).runs()
            if match_runs(runs, row["message"]) is not None:
                observed.setdefault(i, []).append(
                    {"message": row["message"], "test": row["test_id"]}
                )
    out = []
    for i, env in enumerate(envelopes):
        if i in observed:
            env = {
                "record": env["record"],
                "evidence": {**env["evidence"], "observed": observed[i][:5]},
            }
        out.append(env)
    return out


def score(
    rows: list[dict[str, Any]], index: MatchIndex, clues_for: Callable[[dict[str, Any]], list[Clue]]
) -> dict[str, Any]:
    top1 = top3 = confident = confident_wrong = in_group = grouped = 0
    latencies: list[float] = []
    misses: Counter[str] = Counter()
    for row in rows:
        clues = clues_for(row)
        started = time.perf_counter()
        ranked: list[Scored] = rank(clues, index, top=3)
        latencies.append(time.perf_counter() - started)
        truth = (row["raise_file"], row["raise_line"])
        got = [(index.entry(s.index).file_path, index.entry(s.index).line) for s in ranked]
        first = bool(got) and got[0] == truth
        top1 += first
        top3 += truth in got[:3]
        # the answer: the group the text cannot split (confidence shared), else the best
        group = [g for g, s in zip(got, ranked, strict=True) if s.group_size > 1] or got[:1]
        in_group += truth in group
        grouped += len(group) > 1
        if ranked and ranked[0].confidence >= 0.9:
            confident += 1
            confident_wrong += not first
        if not first:
            misses[_why(ranked, index, truth, got)] += 1
    n = len(rows)
    return {
        "n": n,
        "top1": top1 / n,
        "top3": top3 / n,
        "in_group": in_group / n,
        "grouped": grouped,
        "confident": confident,
        "confident_wrong": confident_wrong,
        "p50_ms": statistics.median(latencies) * 1000,
        "misses": dict(misses.most_common()),
    }


def _why(
    ranked: list[Scored], index: MatchIndex, truth: tuple[str, int], got: list[tuple[str, int]]
) -> str:
    if not ranked:
        return "nothing matched"
    if truth in got:
        mine = ranked[got.index(truth)]
        if abs(mine.score - ranked[0].score) < 1e-9:
            return "tied with another site raising the same message"
        return "ranked below another site"
    return "true site not among the candidates"


def ceiling(rows: list[dict[str, Any]], index: MatchIndex) -> float:
    """Expected top-1 from the text alone if ties were broken at random (bench/_ceiling.py,
    the definition match_realerrors.py uses)."""
    total = sum(
        message_ceiling(
            index, row["exc_type"], row["message"], (row["raise_file"], row["raise_line"])
        )
        for row in rows
    )
    return total / len(rows)


def report(title: str, result: dict[str, Any]) -> None:
    print(
        f"{title:58} top-1 {result['top1']:7.2%}  top-3 {result['top3']:7.2%}  "
        f"conf≥0.9: {result['confident']:4} answers, {result['confident_wrong']} wrong  "
        f"(p50 {result['p50_ms']:.3f} ms)"
    )
    print(
        f"{'':58} true site in the answer's group (or its best, when alone): "
        f"{result['in_group']:7.2%}  ({result['grouped']} answers are a group)"
    )
    if result["misses"]:
        print(f"{'':58} misses: {result['misses']}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    args = parser.parse_args()
    rows = [json.loads(line) for line in args.data.open(encoding="utf-8") if line.strip()]
    rows = [r for r in rows if r["is_python_raise"]]
    envelopes = catalogue()
    index = MatchIndex.build(envelopes)
    print(f"{len(rows)} real errors (Python raise sites); catalogue of {len(index):,} records")

    def last_line(row: dict[str, Any]) -> list[Clue]:
        return clues_from(parse_paste(f"{row['exc_type']}: {row['message']}"))

    def traceback(row: dict[str, Any]) -> list[Clue]:
        return clues_from(parse_paste(row["traceback_text"]))

    print(f"(a) ceiling from the text alone (ties broken at random): {ceiling(rows, index):.2%}")
    report("(a) last line `Class: message`, catalogue only", score(rows, index, last_line))
    with tempfile.TemporaryDirectory():
        folds = []
        for k in (0, 1):
            asked = [r for r in rows if fold_of(r) == k]
            known = [r for r in rows if fold_of(r) != k]
            folded = MatchIndex.build(with_observed(envelopes, known))
            folds.append((asked, score(asked, folded, last_line)))
        n = sum(len(a) for a, _ in folds)
        merged = {
            "n": n,
            "top1": sum(r["top1"] * len(a) for a, r in folds) / n,
            "top3": sum(r["top3"] * len(a) for a, r in folds) / n,
            "in_group": sum(r["in_group"] * len(a) for a, r in folds) / n,
            "grouped": sum(r["grouped"] for _, r in folds),
            "confident": sum(r["confident"] for _, r in folds),
            "confident_wrong": sum(r["confident_wrong"] for _, r in folds),
            "p50_ms": statistics.median([r["p50_ms"] for _, r in folds]),
            "misses": dict(sum((Counter(r["misses"]) for _, r in folds), Counter()).most_common()),
        }
        report("(a) last line, with cross-validated observed messages", merged)
    report("(b) full traceback", score(rows, index, traceback))
    print(
        "goals: (a) ≥ 92% top-1, (b) ≥ 99.5% top-1; at confidence ≥ 0.9 fewer than 1 in 1,000 wrong"
    )


if __name__ == "__main__":
    main()
