"""`errdex build` of real packages on a local Ray cluster, beside one process, same run.

    python bench/build_packages.py [--list bench/data/top_packages.txt] [--limit N]
        [--workers 2] [--baseline-sample N] [--no-analyze] [--out /tmp/errdex-build-bench]

Downloads are made first, into errdex's release cache, and timed apart, so that neither
build pays for the network and the second run is not favoured by the first's downloads.
Then the same list is built twice from the cache: `--ray local --workers N`, and
`--ray off` (one process, one package at a time). `--baseline-sample N` builds only a
random N of the list in one process, to save time; the per-package figures are then
compared on that sample and the report says so. Printed: wall time, packages per minute,
records, failures by cause, the ratio, and a projection to 10,000 packages.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from errdex.build.fetch import FetchError, newest_release  # noqa: E402
from errdex.build.manifest import Manifest  # noqa: E402
from errdex.build.specs import read_list  # noqa: E402


def _fetch_all(names: list[str]) -> tuple[float, dict[str, str]]:
    started = time.perf_counter()
    failed: dict[str, str] = {}

    def one(name: str) -> None:
        try:
            newest_release(name)
        except FetchError as exc:
            failed[name] = str(exc)

    with ThreadPoolExecutor(max_workers=4) as pool:
        list(pool.map(one, names))
    return time.perf_counter() - started, failed


def _build(listing: Path, out: Path, ray: str, workers: int, analyze: bool) -> dict[str, Any]:
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    command = [sys.executable, "-m", "errdex", "build", str(listing), "--db", str(out / "cat.db"),
               "--out", str(out / "work"), "--ray", ray, "--workers", str(workers), "--json",
               "--timeout", "1200"]  # fmt: skip
    if not analyze:
        command.append("--no-analyze")
    started = time.perf_counter()
    done = subprocess.run(
        command, capture_output=True, text=True, env={**os.environ, "RAY_AUTH_MODE": "disabled"}
    )
    wall = time.perf_counter() - started
    summary: dict[str, Any] = json.loads(done.stdout)
    manifest = Manifest(out / "work" / "manifest.jsonl")
    busy = [
        float(o.get("seconds", 0)) for o in manifest.outcomes.values() if o.get("status") == "done"
    ]
    summary |= {"processWall": round(wall, 1), "busySeconds": round(sum(busy), 1),
                "slowest": sorted(((float(o.get("seconds", 0)), s) for s, o in manifest.outcomes.items()
                                   if o.get("status") == "done"), reverse=True)[:5]}  # fmt: skip
    return summary


def _line(label: str, s: dict[str, Any]) -> str:
    return (f"{label:<22} {s['entries']:>5} entries  {s['built']:>4} built  {s['failed']:>3} failed  "
            f"{s['records']:>8,} records  wall {s['processWall']:>7.1f} s  "
            f"{60 * s['built'] / s['processWall']:>6.1f} pkg/min  merge {s['wallSeconds'] - s['buildSeconds']:.1f} s")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--list", default=str(ROOT / "bench" / "data" / "top_packages.txt"))
    parser.add_argument("--limit", type=int, default=0, help="first N entries only")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--baseline-sample", type=int, default=0)
    parser.add_argument("--no-analyze", action="store_true")
    parser.add_argument("--out", default="/tmp/errdex-build-bench")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    specs, _bad = read_list(Path(args.list).read_text(encoding="utf-8").splitlines())
    names = [s.text for s in specs][: args.limit or None]
    fetch_seconds, fetch_failed = _fetch_all(names)
    print(f"fetched {len(names) - len(fetch_failed)} of {len(names)} releases in {fetch_seconds:.1f} s "
          f"({len(fetch_failed)} failed)")  # fmt: skip
    listing = out / "list.txt"
    listing.write_text("\n".join(names) + "\n", encoding="utf-8")
    ray = _build(listing, out / "ray", "local", args.workers, not args.no_analyze)
    sample = names
    if args.baseline_sample and args.baseline_sample < len(names):
        sample = sorted(random.Random(0).sample(names, args.baseline_sample), key=names.index)
    base_list = out / "baseline.txt"
    base_list.write_text("\n".join(sample) + "\n", encoding="utf-8")
    one = _build(base_list, out / "one", "off", 1, not args.no_analyze)
    print(_line(f"ray, {args.workers} workers", ray))
    print(_line("one process", one))
    per_ray = ray["processWall"] / max(1, ray["built"])
    per_one = one["processWall"] / max(1, one["built"])
    print(
        f"wall per built package: ray {per_ray:.2f} s, one process {per_one:.2f} s, "
        f"ratio {per_one / per_ray:.2f}x"
        + (" (baseline on a sample)" if sample is not names else "")
    )
    print("failures by cause (ray):", dict(Counter(ray["failuresByCause"])) or "none")
    print("slowest (ray):", ", ".join(f"{s} {t:.0f} s" for t, s in ray["slowest"]))
    busy_per = ray["busySeconds"] / max(1, ray["built"])
    merge_per = (ray["wallSeconds"] - ray["buildSeconds"]) / max(1, ray["built"])
    for workers in (2, 16, 64, 256):
        compute = 10_000 * busy_per / workers
        merge = 10_000 * merge_per
        print(f"projection, 10,000 packages on {workers:>3} workers: tasks {compute / 3600:6.1f} h, "
              f"merge (one writer) {merge / 3600:5.2f} h -> bottleneck: {'merge' if merge > compute else 'tasks'}")  # fmt: skip
    (out / "result.json").write_text(json.dumps({"ray": ray, "one": one, "fetchSeconds": fetch_seconds,
                                                 "fetchFailed": fetch_failed}, indent=2))  # fmt: skip


if __name__ == "__main__":
    main()
