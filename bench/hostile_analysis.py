"""Hostile input for the static analyst: many sites in one file, and huge message literals.

.venv/bin/python bench/hostile_analysis.py [--max-sites 100000] [--repeat 1]

For each case one file is written to a temporary repository and scanned twice in this
run: the bare extraction (``analyze=False``, the baseline) and the scan with the static
analyst, without a budget so that its whole cost shows. Printed per case: seconds per
site of each, the analyst's CPU seconds per site, and whether the default per-file
budget (``errdex.analyze.budget``) would cut the file (an estimate: it includes the
repository index, which the budget does not count). The goal is a per-site cost
that stays flat from 10 to 100k sites, and a literal's cost linear in its size.
"""

from __future__ import annotations

import argparse
import math
import statistics
import tempfile
import time
from pathlib import Path

from errdex.analyze.budget import budget_from_env
from errdex.scan import scan_checkout
from errdex.source import open_source

SHA = "0" * 40
#: Repeated to make a literal; each once made one analyst regex backtrack quadratically.
UNITS = {"letters": "a", "shape": "shape ", "deprecated": "x is deprecated "}


def sites_file(sites: int) -> str:
    """One function with ``sites`` guarded raises, one line each (a 100k-site file stays
    under the scan's 5 MB limit)."""
    body = "".join(f"  if x=={i}:raise ValueError('b{i}')\n" for i in range(sites))
    return "def f(x):\n  '''Check x.'''\n" + body


def literal_file(unit: str, size: int) -> str:
    literal = (unit * (size // len(unit) + 1))[:size]
    return f"def f(x):\n    '''Check x.'''\n    if x:\n        raise ValueError(f{literal + ' {x}'!r})\n"


def measure(root: Path, repeat: int) -> tuple[int, float, float, float]:
    """(sites, extraction s, scan-with-analyst s, the analyst's CPU s), medians of ``repeat``."""
    checkout = open_source(str(root), repo="bench/hostile", sha=SHA)
    bare: list[float] = []
    full: list[float] = []
    cpu: list[float] = []
    sites = 0
    for _ in range(repeat):
        started, cpu_started = time.perf_counter(), time.process_time()
        plain = scan_checkout(checkout, repo="bench/hostile", analyze=False)
        bare.append(time.perf_counter() - started)
        bare_cpu = time.process_time() - cpu_started
        started, cpu_started = time.perf_counter(), time.process_time()
        result = scan_checkout(checkout, repo="bench/hostile", analysis_budget=math.inf)
        full.append(time.perf_counter() - started)
        cpu.append(time.process_time() - cpu_started - bare_cpu)
        assert result.analysis_error is None and len(result.items) == len(plain.items)
        sites = result.sites
    return sites, statistics.median(bare), statistics.median(full), statistics.median(cpu)


def row(label: str, root: Path, repeat: int, budget: float) -> None:
    sites, bare, full, cpu = measure(root, repeat)
    analyst = max(full - bare, 0.0)
    n = sites or 1
    print(
        f"{label:28}{sites:>8,}{bare / n * 1e3:>16.3f}{analyst / n * 1e3:>16.3f}"
        f"{full / n * 1e3:>14.3f}{cpu:>15.2f}{'yes' if cpu > budget else 'no':>7}",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-sites", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    budget = budget_from_env()
    print(f"default per-file analysis budget: {budget:g} CPU s")
    print(
        f"{'case':28}{'sites':>8}{'extract ms/site':>16}{'analyst ms/site':>16}"
        f"{'total ms/site':>14}{'analyst CPU s':>15}{'cut?':>7}"
    )
    with tempfile.TemporaryDirectory(prefix="errdex-hostile-") as tmp:
        warm = Path(tmp) / "warm-up"  # imports and first-call costs are not the analyst's
        warm.mkdir()
        (warm / "m.py").write_text(sites_file(3))
        measure(warm, 1)
        for sites in (10, 100, 1_000, 10_000, 100_000):
            if sites > args.max_sites:
                break
            root = Path(tmp) / f"sites{sites}"
            root.mkdir()
            (root / "m.py").write_text(sites_file(sites))
            row(f"{sites:,} sites in one file", root, args.repeat, budget)
        for size, size_label in ((100_000, "100 kB"), (1_000_000, "1 MB")):
            for name, unit in UNITS.items():
                root = Path(tmp) / f"lit{size}{name}"
                root.mkdir()
                (root / "m.py").write_text(literal_file(unit, size))
                row(f"{size_label} literal ({name})", root, args.repeat, budget)
    print(
        "extract = the bare extraction of the same file (baseline); analyst = the scan with "
        "the analyst minus that (wall); cut? = the analyst's CPU time (index build included) "
        "exceeds the default per-file budget, so a default scan would keep the extractor's records"
    )


if __name__ == "__main__":
    main()
