"""Parse time of a 50 MiB paste beside reading the same text line by line.

    .venv/bin/python bench/paste_speed.py [--rounds 3]

The paste is the one ``tests/match/test_paste.py`` checks for correctness: real pastes
and training-log noise, a 1 MiB line, then a 100k-line message. The baseline, in the
same run, is ``str.split("\\n")`` plus one ``str.startswith`` per line, the least any
line-oriented parser does. Prints the medians and their ratio (the goal: linear time,
a small constant factor over the baseline).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from errdex.match.paste import parse_paste

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.match.test_paste import fifty_megabytes


def baseline(text: str) -> int:
    return sum(1 for line in text.split("\n") if line.startswith("Traceback"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    paste = fifty_megabytes()
    ours, theirs = [], []
    for _ in range(args.rounds):
        started = time.perf_counter()
        baseline(paste)
        theirs.append(time.perf_counter() - started)
        started = time.perf_counter()
        parse_paste(paste)
        ours.append(time.perf_counter() - started)
    a, b = statistics.median(ours), statistics.median(theirs)
    print(f"{len(paste) / 2**20:.0f} MiB paste, median of {args.rounds}")
    print(f"parse_paste {a:.2f} s; split + startswith {b:.2f} s; ratio {a / b:.1f}×")


if __name__ == "__main__":
    main()
