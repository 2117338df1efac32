"""Scan speed on the standard library, beside the floor of reading + ast.parse in one process.

.venv/bin/python bench/scan_speed.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import statistics
import time
from collections.abc import Callable

from errdex.scan import scan_checkout
from errdex.source import iter_source_files
from errdex.source.stdlib import stdlib_checkout


def floor(files: list[str]) -> float:
    checkout = stdlib_checkout()
    started = time.perf_counter()
    for rel in files:
        data = (checkout.root / rel).read_bytes()
        with contextlib.suppress(SyntaxError):
            ast.parse(data)
    return time.perf_counter() - started


def errdex_scan(jobs: int) -> Callable[[list[str]], float]:
    def run(files: list[str]) -> float:
        checkout = stdlib_checkout()
        started = time.perf_counter()
        result = scan_checkout(checkout, repo="python/cpython", jobs=jobs, analyze=False)
        elapsed = time.perf_counter() - started
        assert result.files_read == len(files), (result.files_read, len(files))
        return elapsed

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    files = iter_source_files(stdlib_checkout()).files
    print(f"standard library: {len(files)} files (Lib/ without tests, site-packages)")
    runs: dict[str, list[float]] = {"floor": [], "errdex --jobs 1": [], "errdex --jobs 2": []}
    contenders = {
        "floor": floor,
        "errdex --jobs 1": errdex_scan(1),
        "errdex --jobs 2": errdex_scan(2),
    }
    for _ in range(args.repeat):  # interleaved, so load on the machine hits all alike
        for name, fn in contenders.items():
            runs[name].append(fn(files))
    base = statistics.median(runs["floor"])
    print(f"{'':18}{'median s':>10}{'min s':>10}{'× floor':>10}")
    for name, times in runs.items():
        med = statistics.median(times)
        print(f"{name:18}{med:10.3f}{min(times):10.3f}{med / base:10.2f}")
    print("goal: --jobs 1 ≤ 1.30 × floor; --jobs 2 < 1.00 × floor")


if __name__ == "__main__":
    main()
