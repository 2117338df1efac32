"""The static analyst on networkx 3.6.1: how much evidence it finds, how fast, how right.

.venv/bin/python bench/static_analyst.py [--repeat 3]

Figures, for records of the library (tests read for evidence, not catalogued) and again
with --include admitting the tests as records too:

- share of records with a guard, a docstring Raises entry naming the class (the raising
  function's own, and own-or-an-entry-point's), a triggering test, a public entry point;
- seconds per 1,000 sites for the analyst, beside extraction alone (the baseline: the
  extractor's records, whose only evidence is the guard);
- test links checked against ../shared/bench/networkx.jsonl, where each row is an
  exception the real test suite expected with the frame that really raised it:
  precision over links whose test the ground truth saw, and the share of ground-truth
  (site, test) pairs found.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from errdex.analyze.static import analyze_items
from errdex.scan import scan_checkout
from errdex.source import open_source

Item = tuple[dict[str, Any], dict[str, Any]]
TRUTH = Path(__file__).resolve().parents[2] / "shared" / "bench" / "networkx.jsonl"


def own_raises(evidence: dict[str, Any], line: int) -> bool:
    func = evidence.get("function")
    if not func:
        return False
    return any(
        d["path"] == func["path"] and func["line"] <= d["line"] <= line
        for d in evidence.get("raisesDoc", [])
    )


def shares(items: Sequence[Item]) -> dict[str, float]:
    n = len(items) or 1
    return {
        "guard": sum(bool(e["site"]["guards"]) for _, e in items) / n,
        "Raises (own docstring)": sum(own_raises(e, r["lineNumber"]) for r, e in items) / n,
        "Raises (own or entry point)": sum(bool(e.get("raisesDoc")) for _, e in items) / n,
        "triggering test": sum(bool(e.get("tests")) for _, e in items) / n,
        "entry point": sum(bool(e.get("entryPoints")) for _, e in items) / n,
        "backgroundTag": sum(r["backgroundTag"] is not None for r, _ in items) / n,
        "static prose": sum(
            e["provenance"]["documentation"]["analyst"] == "static" for _, e in items
        )
        / n,
    }


def truth_check(items: Sequence[Item]) -> dict[str, float] | None:
    if not TRUTH.exists():
        return None
    pairs: set[tuple[str, int, str]] = set()
    tests: set[str] = set()
    for line in TRUTH.read_text().splitlines():
        row = json.loads(line)
        test = re.sub(r"\[.*\]$", "", row["test_id"])
        pairs.add((row["raise_file"], row["raise_line"], test))
        tests.add(test)
    links = {
        (r["filePath"], r["lineNumber"], t["name"]) for r, e in items for t in e.get("tests", [])
    }
    judged = {link for link in links if link[2] in tests}
    return {
        "links": len(links),
        "links the ground truth can judge": len(judged),
        "precision": len(judged & pairs) / (len(judged) or 1),
        "ground-truth pairs found": len(links & pairs) / (len(pairs) or 1),
    }


def run(include: Sequence[str], repeat: int) -> None:
    checkout = open_source(package="networkx")
    repo = checkout.repo or "networkx/networkx"
    extract: list[float] = []
    analyse: list[float] = []
    analyse_cpu: list[float] = []
    items: list[Item] = []
    plain: list[Item] = []
    for _ in range(repeat):
        started = time.perf_counter()
        plain = scan_checkout(checkout, repo=repo, include=include, analyze=False).items
        extract.append(time.perf_counter() - started)
        started, cpu = time.perf_counter(), time.process_time()
        items = analyze_items(checkout, plain)
        analyse.append(time.perf_counter() - started)
        analyse_cpu.append(time.process_time() - cpu)
    sites = len(items)
    label = "library + tests as records" if include else "library records (tests read only)"
    print(f"\n{label}: {sites:,} records, networkx {checkout.version}")
    base = shares(plain)
    print(f"{'share of records with':32}{'analyst':>10}{'extractor':>11}")
    for key, value in shares(items).items():
        print(f"{key:32}{value:10.1%}{base[key]:11.1%}")
    per_k = 1000 / (sites or 1)
    print(
        f"{'s per 1,000 sites':32}{statistics.median(analyse) * per_k:10.2f}"
        f"{statistics.median(extract) * per_k:11.2f}   (wall, median of {repeat}; "
        "extractor = scan alone)"
    )
    print(
        f"{'CPU s per 1,000 sites':32}{statistics.median(analyse_cpu) * per_k:10.2f}"
        f"{'':11}   (this process only: robust to load from other processes)"
    )
    checked = truth_check(items)
    if checked is not None:
        print("test links against the ground truth (../shared/bench/networkx.jsonl):")
        for key, value in checked.items():
            shown = f"{value:.1%}" if isinstance(value, float) and value <= 1 else f"{value:,}"
            print(f"  {key:34}{shown:>8}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    run((), args.repeat)
    run(("networkx/**",), args.repeat)


if __name__ == "__main__":
    main()
