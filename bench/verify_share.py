"""Share of records with a verified reproducer, and with each verified code field.

    .venv/bin/python bench/verify_share.py [--target networkx --target stdlib ...] [-j 2]
        [--db-dir DIR] [--fresh] [--tests attrs=SDIST/tests ...] [--sample N [--seed S]]
        [--python PY]

For each target (an installed distribution by name, or ``stdlib``) it scans a catalogue
(``errdex scan --package NAME`` / ``--stdlib``; kept in ``--db-dir`` and reused), copies
it (so every run starts from the scan, not from an earlier verify), runs
``errdex verify REPO --json`` on the copy with a cache of its own (``--fresh`` empties it,
so the time is that of a cold run), and prints per target: records, the share with a
verified reproducer, each code field's passed / partial / failed / not-run counts, the
test files and snippets read, runs that timed out, were stopped as blocked or crashed,
and the wall and CPU time of verify (per 1,000 records). Beside each share is its baseline: before ``verify`` no record has a
reproducer and no code field was run (0%). Goals (issue 10): networkx >= 60%, stdlib >= 40%.

``--sample N`` verifies N records per target drawn with ``random.Random(seed)`` from the
sorted record ids (the same records every time for one catalogue and seed), through
``errdex verify --only``: only the test modules that import those records' top-level
packages are run, so the stdlib takes minutes; a reproducer from a test module that
imports none of them is missed, so a sample's share can be lower than the full run's.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from errdex.store import SqliteStore

GOALS = {"networkx": 0.60, "stdlib": 0.40}
DEFAULT_TARGETS = ("networkx", "stdlib", "attrs", "click")
FIELDS = ("tryCatchPattern", "validationCode", "typeGuard", "exampleFix")


def _errdex(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "errdex", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


def _children_cpu() -> float:
    """CPU seconds of this process's ended children and theirs (verify, its fork servers
    and every snippet they forked: each is waited for by its parent)."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def scan(target: str, db: Path, env: dict[str, str]) -> None:
    if db.exists():
        return
    what = ["--stdlib"] if target == "stdlib" else ["--package", target]
    done = _errdex("scan", *what, "--db", str(db), "--no-progress", env=env)
    if done.returncode != 0:
        raise SystemExit(f"scan of {target} failed: {done.stderr[-800:]}")


def sample_ids(db: Path, n: int, seed: int) -> list[str]:
    """N record ids drawn with a seeded generator from the sorted ids: deterministic."""
    with SqliteStore(db) as store:
        ids = sorted(env["record"]["id"] for env in store.iter_envelopes())
    return sorted(random.Random(seed).sample(ids, min(n, len(ids))))


def shares(db: Path, only: set[str] | None = None) -> dict[str, Any]:
    """Per repository: records, verified reproducers and each field's statuses."""
    out: dict[str, Any] = {}
    with SqliteStore(db) as store:
        for env in store.iter_envelopes():
            if only is not None and env["record"]["id"] not in only:
                continue
            repo = env["record"]["repo"]
            row = out.setdefault(repo, {"records": 0, "reproducer": 0, "fields": Counter()})
            row["records"] += 1
            evidence = env["evidence"]
            row["reproducer"] += "reproducer" in evidence
            checks = (evidence.get("verification") or {}).get("fields") or {}
            for name in FIELDS:
                check = checks.get(name)
                if check is not None:
                    row["fields"][f"{name} {check['status']}"] += 1
                elif env["record"].get(name):
                    row["fields"][f"{name} not-run"] += 1
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--target", action="append", help="distribution name or 'stdlib'")
    parser.add_argument("-j", "--jobs", type=int, default=2)
    parser.add_argument("--db-dir", type=Path, default=Path("bench-verify"))
    parser.add_argument("--fresh", action="store_true", help="empty the run cache first")
    parser.add_argument("--timeout", type=float, default=10.0)
    parser.add_argument(
        "--tests",
        action="append",
        default=[],
        metavar="NAME=DIR",
        help="a target's tests from elsewhere (without it, verify reads the sdist's tests "
        "itself when the wheel ships none)",
    )
    parser.add_argument(
        "--python",
        default=None,
        help="the interpreter reproducers run under (verify --python): one with the "
        "target's optional dependencies shows how many records only lack them",
    )
    parser.add_argument("--sample", type=int, default=None, metavar="N", help="records per target")
    parser.add_argument("--seed", type=int, default=0, help="the sample's seed")
    args = parser.parse_args()
    tests = dict(item.split("=", 1) for item in args.tests)
    args.db_dir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    cache = args.db_dir / "verify-cache.sqlite"
    env["ERRDEX_VERIFY_CACHE"] = str(cache)
    env.setdefault("ERRDEX_OFFLINE", "1")
    if args.fresh:
        for suffix in ("", "-wal", "-shm"):
            Path(str(cache) + suffix).unlink(missing_ok=True)
    for target in args.target or DEFAULT_TARGETS:
        scanned = args.db_dir / f"{target}.db"
        scan(target, scanned, env)
        db = args.db_dir / f"{target}-verified.db"
        shutil.copyfile(scanned, db)
        with SqliteStore(db) as store:
            repos = sorted({r["repo"] for r in store.stats()["repos"]})
        extra = ["--tests", tests[target]] if target in tests else []
        extra += ["--python", args.python] if args.python else []
        only: set[str] | None = None
        if args.sample is not None:
            only = set(sample_ids(db, args.sample, args.seed))
            listed = args.db_dir / f"{target}-sample.txt"
            listed.write_text("".join(f"{i}\n" for i in sorted(only)))
            extra += ["--only", str(listed)]
            print(f"{target}: a sample of {len(only):,} records (seed {args.seed})")
        started = time.monotonic()
        cpu_before = _children_cpu()
        done = _errdex(
            "verify",
            *repos,
            *extra,
            "--db",
            str(db),
            "--json",
            "--no-progress",
            "--jobs",
            str(args.jobs),
            "--timeout",
            str(args.timeout),
            env=env,
        )
        seconds = time.monotonic() - started
        cpu = _children_cpu() - cpu_before
        if done.returncode != 0:
            print(f"{target}: verify failed: {done.stderr[-800:]}")
            continue
        summary = json.loads(done.stdout)
        for repo, row in shares(db, only).items():
            verify_row = summary["repos"].get(repo, {})
            share = row["reproducer"] / max(1, row["records"])
            goal = GOALS.get(target)
            goal_text = (
                f" (goal {goal:.0%}: {'met' if share >= goal else 'not met'})" if goal else ""
            )
            print(f"== {target}: {repo}")
            print(
                f"records {row['records']:,}; verified reproducer {row['reproducer']:,} = "
                f"{share:.1%} (baseline 0.0%){goal_text}"
            )
            for name in FIELDS:
                counts = {
                    s: row["fields"].get(f"{name} {s}", 0)
                    for s in ("passed", "partial", "failed", "not-run")
                }
                shown = sum(counts.values())
                if shown:
                    ran_ok = counts["passed"] / max(1, row["records"])
                    print(
                        f"  {name}: passed {counts['passed']:,} ({ran_ok:.1%} of records), partial "
                        f"{counts['partial']:,}, failed and dropped {counts['failed']:,}, "
                        f"not run {counts['not-run']:,} (baseline: 0 run)"
                    )
            print(
                f"  tests: {verify_row.get('testFiles', 0):,} files"
                f"{' from ' + verify_row['testsFrom'] if verify_row.get('testsFrom') else ''}, "
                f"{verify_row.get('snippets', 0):,} snippets; skipped: {verify_row.get('skipped')}"
            )
            if verify_row.get("guardCallsDid"):
                print(f"  calls built from guards, most often: {verify_row['guardCallsDid']}")
        runs = summary["runs"]
        per_k = seconds / max(1, sum(r["records"] for r in summary["repos"].values())) * 1000
        print(
            f"  runs {runs.get('ran', 0):,} ran, {runs.get('cached', 0):,} cached, "
            f"{runs.get('timeout', 0):,} timed out, {runs.get('blocked', 0):,} blocked, "
            f"{runs.get('crashed', 0):,} crashed; "
            f"network cut by {summary['isolation']}; verify {seconds:.1f} s = "
            f"{per_k:.1f} s per 1,000 records (jobs {args.jobs}), CPU {cpu:.1f} s (verify "
            f"and every snippet it ran)"
        )


if __name__ == "__main__":
    main()
