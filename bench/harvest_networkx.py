"""Harvest on a real library: networkx's own bundled test suite, run under the harvest plugin.

    .venv/bin/pip install -e '.[bench]'        # networkx==3.6.1
    .venv/bin/python bench/harvest_networkx.py [-n 8] [--python PATH] [--all] [-- PYTEST_ARGS]

Scans the installed networkx, runs ``pytest --pyargs networkx`` with the plugin, attaches
every capture to its record and prints: captures, captures attached to a record, observed
messages that failed their own record's pattern (goal 0, each listed with the pattern),
the share of records with an observed message, and the time of each step. Where the oracle
``../shared/bench/networkx.jsonl`` saw the same (test, message), it also says how often our
raising frame is the oracle's.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from collections import Counter
from dataclasses import asdict, replace
from pathlib import Path

from errdex.analyze.harvest.attach import RepoLayout, attach
from errdex.analyze.harvest.collect import (
    Capture,
    locate_distribution,
    package_pytest_args,
    run_pytest,
)
from errdex.record import iso_now
from errdex.scan import scan_checkout
from errdex.source import open_source
from errdex.store import ScanSummary, SqliteStore

ORACLE = Path(__file__).resolve().parents[2] / "shared" / "bench" / "networkx.jsonl"


def oracle_agreement(
    captures: list[Capture], layout: RepoLayout, path: Path
) -> tuple[int, int, int, list[str]]:
    """Per (test, message) seen by both: does one of our raising frames sit at the oracle's?

    The oracle kept one row per (test, message) and took the innermost frame of any
    library, the standard library included; harvest takes the innermost networkx frame
    (the line of networkx that called into ``random.py`` is the site it can attach to).
    Returns (keys seen by both, agreeing, oracle site outside networkx, the others).
    """
    if not path.exists():
        return 0, 0, 0, []
    oracle: dict[tuple[str, str], tuple[str, int]] = {}
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            oracle[(row["test_id"], row["message"])] = (row["raise_file"], int(row["raise_line"]))
    ours: dict[tuple[str, str], set[tuple[str | None, int]]] = {}
    for capture in captures:
        key = (capture.test or "", capture.message)
        if key in oracle and capture.site:
            ours.setdefault(key, set()).add((layout.file_path(capture.site[0]), capture.site[1]))
    agree = elsewhere = 0
    differ: list[str] = []
    for key, sites in sorted(ours.items()):
        if oracle[key] in sites:
            agree += 1
        elif not oracle[key][0].startswith("networkx/"):
            elsewhere += 1
        else:
            differ.append(f"{key[0]}: ours {sorted(sites, key=str)}, oracle {oracle[key]}")
    return len(ours), agree, elsewhere, differ


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("-n", "--workers", default="0", help="pytest-xdist workers (0: none)")
    parser.add_argument("--python", help="interpreter whose networkx and pytest to use")
    parser.add_argument("--db", type=Path, help="keep the database here (default: temporary)")
    parser.add_argument("--oracle", type=Path, default=ORACLE)
    parser.add_argument("--dump", type=Path, help="write the captures here as JSON lines")
    parser.add_argument("--all", action="store_true", help="list every miss, not the first 20")
    parser.add_argument("pytest_args", nargs="*", help="after --: more pytest arguments")
    args = parser.parse_args()
    import networkx  # type: ignore[import-untyped]

    started = time.perf_counter()
    checkout = open_source(package="networkx")
    repo = checkout.repo or "networkx/networkx"
    scan = scan_checkout(checkout, repo=repo)
    scanned = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "errdex.db"
        store = SqliteStore(db)
        now = iso_now()
        summary = ScanSummary(
            repo=repo,
            commit=None,
            ref=checkout.ref,
            ref_kind=checkout.ref_kind,
            origin=checkout.origin,
            version=checkout.version,
            started_at=now,
            finished_at=now,
            seconds=scan.seconds,
            files_read=scan.files_read,
            files_excluded=scan.files_excluded,
            sites=scan.sites,
            records=len(scan.items),
        )
        with store:
            store.write_scan(summary, scan.items, dataset_version=now)
            envelopes = list(store.iter_envelopes(repo=repo))
            layout = RepoLayout.from_checkout(checkout)
            if args.python:  # the same release, installed in the other environment
                found = locate_distribution(args.python, "networkx")
                assert found and found[1] == networkx.__version__, (
                    f"{args.python} must have networkx {networkx.__version__}: {found}"
                )
                layout = replace(layout, root=found[0])
            extra = [
                "-q",
                *(["-n", args.workers] if args.workers != "0" else []),
                *args.pytest_args,
            ]
            with tempfile.TemporaryDirectory(prefix="harvest-cwd-") as cwd:
                run = run_pytest(
                    cwd=Path(cwd),
                    roots=layout.roots(),
                    pytest_args=package_pytest_args(layout.root, layout.tops or (), extra),
                    python=args.python,
                )
            ran = time.perf_counter()
            result = attach(run.captures, envelopes, layout)
            written = store.update_records(result.updates)
            attached_at = time.perf_counter()

    kinds = Counter(c.kind for c in run.captures)
    records = len(envelopes)
    by_type = Counter(e["record"]["errorType"] for e in envelopes)
    observed_by_type = Counter(
        e["record"]["errorType"] for e in envelopes if e["record"]["id"] in result.observed
    )
    outcomes = run.summary.counts if run.summary else {}
    limit = None if args.all else 20
    print(
        f"networkx {networkx.__version__}: {records:,} records from {scan.files_read} files; "
        f"pytest {run.probe.pytest_version} exit {run.returncode}: "
        + ", ".join(f"{n:,} {k}" for k, n in sorted(outcomes.items()))
    )
    print(
        f"captures: {len(run.captures):,} ({kinds['exception']:,} exceptions, "
        f"{kinds['warning']:,} warnings)"
    )
    print(
        f"attached to a record: {result.attached:,} / {len(run.captures):,} = "
        f"{result.attached / max(len(run.captures), 1):.1%}"
        f"  (through a statement's end line: {result.by_range})"
    )
    print(
        f"failed their own record's pattern: {result.mismatched:,} captures, "
        f"{len(result.mismatches)} distinct  (goal 0)"
    )
    for m in result.mismatches[:limit]:
        print(f"   {m.file_path}:{m.line} {m.error_class} ×{m.count}  [{m.records[0]['style']}]")
        print(f"      message: {m.message[:200]!r}")
        for rec in m.records:
            print(f"      pattern: {rec['messagePattern'][:200]!r}")
    print(f"at a record of another class: {sum(m.count for m in result.class_differs):,}")
    for m in result.class_differs[:limit]:
        print(
            f"   {m.file_path}:{m.line} {m.error_class} vs "
            f"{[r['errorClass'] for r in m.records]}: {m.message[:120]!r}"
        )
    print(f"raise lines with no record: {sum(u.count for u in result.missed):,}")
    for u in result.missed[:limit]:
        print(f"   {u.file_path}:{u.line} {u.source[:100]}  ({u.error_class})")
    print(
        f"raised underneath a networkx line (builtin/C/stdlib): {result.underneath:,}; "
        f"in test files: {result.unscanned:,}; outside networkx: {result.outside:,}"
    )
    print(
        f"records with an observed message: {len(result.observed):,} / {records:,} = "
        f"{len(result.observed) / max(records, 1):.1%}  ("
        + ", ".join(
            f"{t} {observed_by_type[t]:,}/{n:,} = {observed_by_type[t] / n:.1%}"
            for t, n in by_type.most_common()
        )
        + f"); {written:,} records updated"
    )
    seen, agree, elsewhere, differ = oracle_agreement(run.captures, layout, args.oracle)
    if seen:
        print(
            f"raising frame at the oracle's, per (test, message) both saw: {agree:,} / {seen:,}"
            f" = {agree / seen:.1%}; oracle's frame outside networkx (stdlib): {elsewhere}; "
            f"different networkx line: {len(differ)}"
        )
        for text in differ[:limit]:
            print(f"   {text}")
    if args.dump:
        with args.dump.open("w", encoding="utf-8") as out:
            for capture in run.captures:
                out.write(json.dumps(asdict(capture)) + "\n")
    print(
        f"time: scan {scanned - started:.1f} s, pytest {run.seconds:.1f} s, "
        f"attach + write {attached_at - ran:.2f} s, total {attached_at - started:.1f} s"
    )


if __name__ == "__main__":
    main()
