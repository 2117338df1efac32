"""Blind review of records: draw the sample reviewers judge, and score their verdicts.

Why here: the review is how issue 10's goals (false and misleading statements per 100,
usefulness) are measured, and a sample or instructions rebuilt from memory make figures
that do not compare (docs/blind_review.md says how a review is run).

    python bench/blind_review.py sample CATALOGUE.jsonl OUT_DIR [--n 50] [--seed 2212]
    python bench/blind_review.py score RESULTS   # a folder of NN.json, or one .jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any


def sample(catalogue: Path, out: Path, n: int, seed: int) -> int:
    """Write ``n`` envelopes drawn uniformly (seeded) from an ``errdex export`` file."""
    rows = catalogue.read_text().splitlines()
    picked = random.Random(seed).sample(rows, min(n, len(rows)))
    out.mkdir(parents=True, exist_ok=True)
    for number, line in enumerate(picked):
        (out / f"{number:02d}.json").write_text(json.dumps(json.loads(line), indent=1))
    return len(picked)


def _results(path: Path) -> list[dict[str, Any]]:
    if path.is_dir():
        return [json.loads(p.read_text()) for p in sorted(path.glob("*.json"))]
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def score(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The review's figures: verdicts per 100 statements, usefulness, families by field."""
    verdicts: Counter[str] = Counter()
    false_by: Counter[str] = Counter()
    misleading_by: Counter[str] = Counter()
    with_false = 0
    for result in results:
        kinds = [s["verdict"] for s in result["statements"]]
        verdicts.update(kinds)
        with_false += "false" in kinds
        for s in result["statements"]:
            field = s["field"].split("[")[0].split(" ")[0]
            if s["verdict"] == "false":
                false_by[field] += 1
            elif s["verdict"] == "misleading":
                misleading_by[field] += 1
    total = sum(verdicts.values()) or 1
    return {
        "records": len(results),
        "statements": sum(verdicts.values()),
        "verdicts": dict(verdicts),
        "falsePer100": round(100 * verdicts["false"] / total, 1),
        "misleadingPer100": round(100 * verdicts["misleading"] / total, 1),
        "usefulness": round(sum(r["usefulness"] for r in results) / max(len(results), 1), 2),
        "vsSeed": dict(Counter(r["vs_seed"] for r in results)),
        "recordsWithFalse": with_false,
        "falseByField": dict(false_by.most_common()),
        "misleadingByField": dict(misleading_by.most_common()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    verbs = parser.add_subparsers(dest="verb", required=True)
    draw = verbs.add_parser("sample", help="draw the records to review")
    draw.add_argument("catalogue", type=Path, help="an `errdex export --jsonl` file")
    draw.add_argument("out", type=Path, help="folder for NN.json")
    draw.add_argument("--n", type=int, default=50)
    draw.add_argument("--seed", type=int, default=2212)
    scoring = verbs.add_parser("score", help="score reviewers' results")
    scoring.add_argument("results", type=Path, help="a folder of NN.json or a .jsonl file")
    args = parser.parse_args(argv)
    if args.verb == "sample":
        print(f"wrote {sample(args.catalogue, args.out, args.n, args.seed)} records to {args.out}")
        return 0
    if not args.results.exists():
        print(f"no results at {args.results}", file=sys.stderr)
        return 2
    print(json.dumps(score(_results(args.results)), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
