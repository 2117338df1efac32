"""What ``errdex.install()`` costs: start-up of a process that raises nothing, and the time
from an uncaught exception to the printed block with catalogues of 10k and 100k records.

    .venv/bin/python bench/hook_overhead.py [--sizes 10000,100000] [--runs 30]
        [--before SRC] [--workdir DIR --reuse]

Each figure is printed beside its baseline, measured in the same run, interleaved:

* start-up: ``python -c pass`` against ``python -c "import errdex; errdex.install()"``
  (wall time of the whole process, median of ``--runs``). Goal: ≤ 20 ms added.
* exception to block: a script raises a real standard-library error
  (``ipaddress.ip_address('not an address')``, ``json.loads('{')``, ``fractions.Fraction(1, 0)``)
  uncaught; an ``atexit`` callback (which runs after the excepthook) writes the time
  since the raise. Baseline: the same script without the hook (the plain traceback).
  "cold" is a fresh process whose catalogue's match index was saved beforehand (as after
  any earlier ``errdex match`` or ``explain``); "unindexed" is a catalogue whose index was
  never built: the hook does not build it (that takes seconds to minutes) but prints a
  one-line hint, and that is what is timed. The index build itself (``index_for``, in a
  child) is printed beside. Goal: cold ≤ 300 ms at 100k.

``--before SRC`` times a second errdex (an older checkout's ``src``) in the same run,
interleaved with this one, on a hard link of the same catalogue (each keeps its own saved
index beside its own name): the before/after of a change. The children write and reuse
bytecode (``PYTHONPYCACHEPREFIX`` in the work directory), as an installed errdex has its
``.pyc`` files; ``PYTHONDONTWRITEBYTECODE`` would time compiling errdex on every raise.
``--reuse`` with ``--workdir`` keeps the stores of an earlier run (the scan and the store
writes take minutes at 100k).

Catalogues are real SQLite stores: the records of a scan of the running standard library
and of ``--packages`` as scanned (full records: permalinks, guards, fixes), then copies
whose templates have 1–3 words varied as in ``bench/_catalogue.py``, each round of copies
its own synthetic repository. Every block printed is checked to name the raise site.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _catalogue as cat

ROOT = Path(__file__).resolve().parent.parent
GOAL_IMPORT_MS = 20.0
GOAL_BLOCK_MS = 300.0

#: Real errors of the standard library, raised by pure-Python code errdex catalogues.
ERRORS = {
    "ipaddress": "import ipaddress\nipaddress.ip_address('not an address')",
    "json": "import json\njson.loads('{')",
    "fractions": "import fractions\nfractions.Fraction(1, 0)",
}

SCRIPT = """\
import atexit, os, time
{install}
def _done():
    with open(os.environ["BENCH_OUT"], "w") as out:
        out.write(f"{{time.perf_counter_ns() - START}} {{time.process_time_ns() - START_CPU}}")
atexit.register(_done)
START, START_CPU = time.perf_counter_ns(), time.process_time_ns()
{error}
"""

Item = tuple[dict[str, Any], dict[str, Any]]


def child_env(workdir: Path, src: Path | None = None, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ERRDEX_")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(workdir / "pycache" / ("before" if src else "this"))
    env["PYTHONPATH"] = str(src or ROOT / "src")
    env["XDG_CACHE_HOME"] = str(workdir / "cache")
    env["XDG_DATA_HOME"] = str(workdir / "data")
    env["ERRDEX_OFFLINE"] = "1"
    env["NO_COLOR"] = "1"
    env.update(extra)
    return env


# -- catalogues ------------------------------------------------------------------------


def scanned_items(packages: list[str]) -> list[Item]:
    """The records (with a template) of the standard library and of ``packages``."""
    from errdex.source import open_source
    from errdex.source.stdlib import stdlib_checkout

    sources: list[tuple[Any, str]] = [(stdlib_checkout(), "python/cpython")]
    sources += [(open_source(package=name), name) for name in packages]
    items: list[Item] = []
    for checkout, fallback in sources:
        found, note = cat._scan_items(checkout, checkout.repo or fallback, 2)
        if note:
            print("  note:", note[:200])
        items += [(r, e) for r, e in found if (e.get("site") or {}).get("template") is not None]
    return items


def catalogue_items(items: list[Item], n: int, seed: int) -> Iterator[Item]:
    """``n`` records: the scanned ones, then varied copies (see :mod:`_catalogue`)."""
    from errdex.record import slugify
    from errdex.template import MessageTemplate

    seeds = [
        cat.Seed(
            repo=r["repo"],
            file_path=r["filePath"],
            line=int(r["lineNumber"]),
            error_class=r["errorClass"],
            function=(e.get("site") or {}).get("function"),
            template=e["site"]["template"],
        )
        for r, e in items
    ]
    by_seed = {id(s): item for s, item in zip(seeds, items, strict=True)}
    vocabulary = cat.Vocabulary(seeds, 50_000, 0.5)
    for i, (s, template, pattern, repo, file_path) in enumerate(
        cat.rows(seeds, n, vocabulary, seed=seed)
    ):
        record, evidence = by_seed[id(s)]
        if repo == record["repo"] and file_path == record["filePath"]:
            yield record, evidence
            continue
        record, evidence = copy.deepcopy(record), copy.deepcopy(evidence)
        message = MessageTemplate.from_json(template).display or "error"
        record.update(
            id=f"{i:016x}",
            repo=repo,
            filePath=file_path,
            errorMessage=message,
            messagePattern=pattern,
            slug=slugify(message),
        )
        evidence["site"]["template"] = template
        yield record, evidence


def build_store(db: Path, items: Iterator[Item]) -> int:
    """Write ``items`` to a new store, one scan per repository; returns the count."""
    from errdex.store import SqliteStore
    from errdex.store.base import ScanSummary

    by_repo: dict[str, list[Item]] = {}
    for record, evidence in items:
        by_repo.setdefault(record["repo"], []).append((record, evidence))
    now = "2026-12-01T00:00:00.000Z"
    total = 0
    with SqliteStore(db) as store:
        for repo, repo_items in by_repo.items():
            summary = ScanSummary(
                repo=repo,
                commit=None,
                ref=None,
                ref_kind="none",
                origin="dir",
                version=None,
                started_at=now,
                finished_at=now,
                seconds=0.0,
                files_read=0,
                files_excluded=0,
                sites=len(repo_items),
                records=len(repo_items),
            )
            store.write_scan(summary, repo_items, dataset_version=now)
            total += len(repo_items)
    return total


def save_index(db: Path, workdir: Path, src: Path | None = None) -> float:
    """Build and save the catalogue's match index in a child (as ``errdex match`` would)."""
    code = (
        "import sys, time; from errdex.store import SqliteStore; from errdex.match.api import index_for\n"
        "t = time.perf_counter()\n"
        "with SqliteStore(sys.argv[1]) as s: index_for(s)\n"
        "print(time.perf_counter() - t)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(db)],
        env=child_env(workdir, src),
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout)


# -- measurements ----------------------------------------------------------------------


def startup(runs: int, workdir: Path, before: Path | None = None) -> dict[str, float]:
    """Median wall time of ``python -c pass`` and of importing errdex and installing."""
    install = [sys.executable, "-c", "import errdex; errdex.install()"]
    commands = {"pass": [sys.executable, "-c", "pass"], "install": install}
    envs = {"pass": child_env(workdir), "install": child_env(workdir)}
    if before is not None:
        commands["install_before"] = install
        envs["install_before"] = child_env(workdir, before)
    times: dict[str, list[float]] = {k: [] for k in commands}
    for _ in range(runs):
        for key, cmd in commands.items():
            t = time.perf_counter()
            subprocess.run(cmd, env=envs[key], check=True)
            times[key].append((time.perf_counter() - t) * 1000)
    return {k: statistics.median(v) for k, v in times.items()}


#: CPU ms (all threads) of each hooked run from the raise to exit, by errdex ("this"/"before"):
#: on a shared machine the wall time swings with the load, the CPU time much less.
CPU: dict[str, list[float]] = {"this": [], "before": []}


def raise_once(
    script: Path, env: dict[str, str], out: Path, cpu: str | None = None
) -> tuple[float, str]:
    done = subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True)
    if done.returncode != 1:
        raise SystemExit(f"{script.name}: exit {done.returncode}: {done.stderr[-500:]}")
    wall, cpu_ns = out.read_text().split()
    if cpu is not None:
        CPU[cpu].append(int(cpu_ns) / 1e6)
    return int(wall) / 1e6, done.stderr


def block_times(
    db: Path, workdir: Path, runs: int, first_ever: bool, before: tuple[Path, Path] | None = None
) -> dict[str, Any]:
    """Per error: median ms from raise to exit, with the hook and without (and with the
    ``before`` errdex, a source folder and its link of the catalogue)."""
    out = workdir / "elapsed"
    env = child_env(workdir, ERRDEX_DB=str(db), BENCH_OUT=str(out))
    before_env = None
    if before is not None:
        before_env = child_env(workdir, before[0], ERRDEX_DB=str(before[1]), BENCH_OUT=str(out))
    results: dict[str, Any] = {}
    for name, error in ERRORS.items():
        hooked = workdir / f"hooked_{name}.py"
        plain = workdir / f"plain_{name}.py"
        install = "import errdex; errdex.install()"
        hooked.write_text(SCRIPT.format(install=install, error=error))
        plain.write_text(SCRIPT.format(install="import errdex", error=error))
        with_hook: list[float] = []
        without: list[float] = []
        earlier: list[float] = []
        expected = "is not indexed yet" if first_ever else "── errdex"
        for _ in range(1 if first_ever else runs):
            if first_ever:
                drop_index(db, workdir)
            ms, stderr = raise_once(hooked, env, out, None if first_ever else "this")
            if expected not in stderr:
                raise SystemExit(f"no block for {name} at {db.name}:\n{stderr[-800:]}")
            with_hook.append(ms)
            without.append(raise_once(plain, env, out)[0])
            if before_env is not None and not first_ever:
                ms, old = raise_once(hooked, before_env, out, "before")
                if expected not in old:
                    raise SystemExit(f"no block from --before for {name}:\n{old[-800:]}")
                earlier.append(ms)
        site = next((ln for ln in stderr.splitlines() if "raised at" in ln), "(the hint)")
        results[name] = {
            "hook_ms": statistics.median(with_hook),
            "plain_ms": statistics.median(without),
            "before_ms": statistics.median(earlier) if earlier else None,
            "site": site.strip(),
        }
    return results


def drop_index(db: Path, workdir: Path) -> None:
    shutil.rmtree(db.with_name(db.name + ".matchindex"), ignore_errors=True)
    shutil.rmtree(workdir / "cache" / "errdex" / "matchindex", ignore_errors=True)


# -- main ------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--runs", type=int, default=30, help="start-up runs per command")
    parser.add_argument("--block-runs", type=int, default=5, help="runs per error and size")
    parser.add_argument("--packages", default="networkx,click")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None, help="write all figures here")
    parser.add_argument("--before", type=Path, default=None, help="another errdex's src/")
    parser.add_argument("--reuse", action="store_true", help="keep the stores in --workdir")
    args = parser.parse_args()
    before: Path | None = args.before.resolve() if args.before else None
    sys.path.insert(0, str(ROOT / "src"))
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="errdex-hook-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    report: dict[str, Any] = {"python": sys.version.split()[0]}

    up = startup(args.runs, workdir, before)
    added = up["install"] - up["pass"]
    report["startup_ms"] = up
    print(f"start-up (median of {args.runs}): python -c pass {up['pass']:.1f} ms,")
    print(
        f"  import errdex; errdex.install() {up['install']:.1f} ms: +{added:.1f} ms "
        f"(x{up['install'] / up['pass']:.2f}; goal <= {GOAL_IMPORT_MS:.0f} ms added)"
    )
    if before is not None:
        print(f"  the same with --before: +{up['install_before'] - up['pass']:.1f} ms")

    sizes = [int(s) for s in args.sizes.split(",") if s]
    kept = {n: workdir / f"catalogue-{n}.count" for n in sizes}
    reuse = args.reuse and all(path.is_file() for path in kept.values())
    t = time.perf_counter()
    items = [] if not sizes or reuse else scanned_items([p for p in args.packages.split(",") if p])
    if sizes and not reuse:
        print(f"scanned {len(items):,} records with templates in {time.perf_counter() - t:.1f} s")
    report["sizes"] = {}
    for size in sizes:
        db = workdir / f"catalogue-{size}.db"
        t = time.perf_counter()
        if reuse:
            count = int(kept[size].read_text())
        else:
            if db.exists():
                db.unlink()
            count = build_store(db, catalogue_items(items, size, args.seed))
            kept[size].write_text(str(count))
        built = time.perf_counter() - t
        first = block_times(db, workdir, args.block_runs, first_ever=True)
        drop_index(db, workdir)
        index_s = save_index(db, workdir)
        linked = None
        if before is not None:
            linked = (before, workdir / f"before-{size}.db")
            linked[1].unlink(missing_ok=True)
            os.link(db, linked[1])
            drop_index(linked[1], workdir)
            save_index(linked[1], workdir, before)
        CPU["this"].clear()
        CPU["before"].clear()
        cold = block_times(db, workdir, args.block_runs, first_ever=False, before=linked)
        cpu = {k: statistics.median(v) for k, v in CPU.items() if v}
        report["sizes"][size] = {
            "records": count,
            "first_ever": first,
            "cold": cold,
            "cold_cpu_ms": cpu,
        }
        print(
            f"\n{count:,} records ({db.stat().st_size / 2**20:.0f} MiB store, written in "
            f"{built:.1f} s; index build and save {index_s:.2f} s)"
        )
        print(f"  {'error':<10} {'plain':>8} {'cold hook':>10} {'added':>8} {'ratio':>6} "
              f"{'unindexed':>11} {'before':>9}  site")  # fmt: skip
        for name, c in cold.items():
            extra = c["hook_ms"] - c["plain_ms"]
            earlier = f"{c['before_ms']:>7.1f}ms" if c["before_ms"] is not None else f"{'-':>9}"
            print(
                f"  {name:<10} {c['plain_ms']:>6.1f}ms {c['hook_ms']:>8.1f}ms {extra:>6.1f}ms "
                f"{c['hook_ms'] / c['plain_ms']:>5.1f}x {first[name]['hook_ms']:>9.1f}ms "
                f"{earlier}  {textwrap.shorten(c['site'], 60)}"
            )
        worst = max(c["hook_ms"] for c in cold.values())
        print(f"  worst cold: {worst:.1f} ms (goal <= {GOAL_BLOCK_MS:.0f} ms)")
        print("  CPU from raise to exit, median over the errors: " + ", ".join(
            f"{k} {v:.1f} ms" for k, v in cpu.items()))  # fmt: skip
    if args.json:
        args.json.write_text(json.dumps(report, indent=2))
    if args.workdir is None:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
