"""Statements about errdex instead of the error, main against a branch (issue 10 deliver 5).

    PYTHONPATH=$PWD/src .venv/bin/python bench/about_errdex.py BASE.jsonl BRANCH.jsonl

Reads two exports of the same catalogue (``errdex export --jsonl``), main's and a
branch's, and counts, side by side with the ratio, the four shapes the paired blind
reviews of stop 34 judged misleading: prose on how entry points were found ("nearest
public entry points", "at most 4 deep", "calls resolved") in triggerScenarios; the tags
``raise``, ``warn`` and ``assert`` (how the site was found); ``handlingStrategy``
by value (``try-catch`` for a caller's mistake); ``solutions[0]`` "errdex found no fix".
"""

from __future__ import annotations

import argparse
import re
from collections import Counter

from solution_kinds import Envelope, load

#: How errdex found the entry points, said in a record.
METHOD = re.compile(
    r"nearest public entry|at most \d+ (?:calls )?deep|calls (?:errdex )?resolved"
    r"|errdex's call resolution"
)
NO_FIX = "errdex found no fix"


def shapes(records: dict[str, Envelope]) -> Counter[str]:
    """Each shape's count over one catalogue."""
    out: Counter[str] = Counter()
    for envelope in records.values():
        record = envelope["record"]
        out["triggerScenarios: how entry points were found"] += bool(
            METHOD.search(record.get("triggerScenarios") or "")
        )
        out["documentation: how callers were found"] += bool(
            METHOD.search(record.get("documentation") or "")
        )
        out["solutions: how callers were found"] += any(
            METHOD.search(s) for s in record.get("solutions") or []
        )
        tags = set(record.get("tags") or [])
        for kind in ("raise", "warn", "assert"):
            out[f"tag {kind!r}"] += kind in tags
        out[f"handlingStrategy {record.get('handlingStrategy')}"] += 1
        first = (record.get("solutions") or [""])[0]
        out["solutions[0] errdex found no fix"] += first.startswith(NO_FIX)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("base")
    parser.add_argument("branch")
    args = parser.parse_args()
    base, branch = shapes(load(args.base)), shapes(load(args.branch))
    print(f"{'shape':58} {'main':>6} {'branch':>7} {'ratio':>6}")
    for key in sorted(set(base) | set(branch)):
        a, b = base[key], branch[key]
        ratio = f"{b / a:.2f}" if a else "-"
        print(f"  {key:56} {a:>6} {b:>7} {ratio:>6}")


if __name__ == "__main__":
    main()
