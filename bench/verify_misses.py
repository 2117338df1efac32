"""Why each record of a verify sample has no reproducer: a tally of families.

    .venv/bin/python bench/verify_misses.py DB-DIR [--target stdlib] [--list] [--runs]

Without ``--runs``, the families the verified catalogue's evidence gives (the reproducer
check's status and reason, and whether the analyst linked a test). With it, it reads what ``bench/verify_share.py --db-dir DB-DIR --sample N`` left there (the catalogue
``TARGET.db``, the sample ``TARGET-sample.txt`` and the run cache), cuts the sample's
snippets again and runs verify in-process against that cache (a cached run is not run
again; only time-outs are), keeping every run. Each record without a reproducer is put
in the first family that holds:

- ``raised here, refused``: a snippet raised at its line and the check or the test's
  expectation refused it (another class, message, ...);
- ``linked test <status>``: the analyst linked tests to it and their snippets were
  blocked / timed out / crashed / raised elsewhere / returned / were never cut;
- ``reached its function``: some test's snippet raised with a frame inside the record's
  function, but not at its line;
- ``guard calls missed`` / ``no test reaches it``: errdex's built calls ran and missed, or
  nothing ran for it at all.

The baseline is the same script on main's verify run (PYTHONPATH=/work/main/src).
"""

from __future__ import annotations

import argparse
import ast
import os
import sys
from collections import Counter
from pathlib import Path
from typing import Any

from errdex.store import SqliteStore
from errdex.verify import runner
from errdex.verify.cache import VerifyCache
from errdex.verify.executor import Executor
from errdex.verify.from_tests import Candidate
from errdex.verify.locate import interpreter
from errdex.verify.misses import MISSED
from errdex.verify.outcome import RecordOutcome
from errdex.verify.sandbox import RunResult, Sandbox
from errdex.verify.sites import RepoSites

Runs = list[tuple[Candidate, RunResult]]


def _span(path: Path | None, line: int) -> tuple[int, int] | None:
    """The innermost function holding ``line`` in ``path``: (first line, last line)."""
    if path is None:
        return None
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return None
    best: tuple[int, int] | None = None
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            end = node.end_lineno or node.lineno
            if node.lineno <= line <= end and (best is None or node.lineno > best[0]):
                best = (node.lineno, end)
    return best


def _kind(result: RunResult, sites: RepoSites) -> str:
    if result.status != "raised":
        return {"ok": "returned"}.get(result.status, result.status)
    where = sites.innermost(result.frames)
    short = (result.error_class or "?").rsplit(".", 1)[-1]
    return f"raised {short} " + ("outside" if where is None else "elsewhere")


def family(out: RecordOutcome, runs: Runs, sites: RepoSites, file_of: Any) -> tuple[str, str]:
    """(family, detail) for one record without a reproducer."""
    env = out.envelope
    record, evidence = env["record"], env.get("evidence") or {}
    if out.failure:
        return "raised here, refused", out.failure[:200]
    linked = {t.get("name") for t in evidence.get("tests") or [] if t.get("name")}
    path = str(record["filePath"])
    span = _span(file_of(path), int(record["lineNumber"]))
    if linked:
        own = [(c, r) for c, r in runs if c.test in linked and c.kind != "guard"]
        if not own:
            return "linked test not cut", ", ".join(sorted(linked))[:200]
        kinds = Counter(_kind(r, sites) for _, r in own)
        for status in ("blocked", "timeout", "crashed"):
            if kinds.get(status):
                return f"linked test {status}", f"{dict(kinds)} {sorted(linked)[0]}"
        return f"linked test {kinds.most_common(1)[0][0]}", f"{dict(kinds)} {sorted(linked)[0]}"
    if span is not None:
        for cand, result in runs:
            if cand.kind == "guard" or result.status != "raised":
                continue
            if any(sites.file_of(f) == path and span[0] <= n <= span[1] for f, n in result.frames):
                where = sites.innermost(result.frames)
                return "reached its function", f"{cand.test} {result.error_class} at {where}"
    if out.missed:
        return "guard calls missed", out.missed[1][:200]
    return "no test reaches it", ""


def stored_family(env: dict[str, Any]) -> str:
    """The family a verified catalogue's evidence alone gives (no run needed)."""
    evidence = env.get("evidence") or {}
    if "reproducer" in evidence:
        return "verified"
    check = ((evidence.get("verification") or {}).get("fields") or {}).get("reproducer") or {}
    reason = str(check.get("reason") or "")
    linked = bool(evidence.get("tests"))
    if check.get("status") == "failed":
        return "raised here, refused"
    if linked:
        return "linked test, no snippet raised here"
    if reason.startswith(MISSED):
        top = reason.split("; ", 1)[-1].split(",")[0]
        top = top.split(" (")[0].split(" at ")[0].split(" outside")[0]
        return f"guard calls missed ({top.split(' ', 1)[-1]})"
    return "no test linked, none reached it"


def stored(db_dir: Path, target: str, listing: bool) -> None:
    only = set((db_dir / f"{target}-sample.txt").read_text().split())
    tally: Counter[str] = Counter()
    rows = []
    with SqliteStore(db_dir / f"{target}-verified.db") as store:
        for env in store.iter_envelopes():
            record = env["record"]
            if record["id"] not in only:
                continue
            fam = stored_family(env)
            tally[fam] += 1
            rows.append(
                (fam, f"{record['filePath']}:{record['lineNumber']} {record['errorClass']}")
            )
    print(f"{db_dir}: {sum(tally.values())} records")
    for fam, n in tally.most_common():
        print(f"  {n:4d}  {fam}")
    if listing:
        for fam, where in sorted(rows):
            print(f"{fam} | {where}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db_dir", type=Path)
    parser.add_argument("--target", default="stdlib")
    parser.add_argument("--list", action="store_true", help="each record and its family")
    parser.add_argument(
        "--runs", action="store_true", help="run verify again from the cache: finer families"
    )
    args = parser.parse_args()
    if not args.runs:
        stored(args.db_dir, args.target, args.list)
        return
    only = set((args.db_dir / f"{args.target}-sample.txt").read_text().split())
    with SqliteStore(args.db_dir / f"{args.target}.db") as store:
        envelopes = list(store.iter_envelopes())
    repo = envelopes[0]["record"]["repo"]
    envelopes = [e for e in envelopes if e["record"]["repo"] == repo]
    interp = interpreter(sys.executable)
    sandbox = Sandbox(python=sys.executable, timeout=10.0, sys_path=(), fork=True)
    cache = VerifyCache(args.db_dir / "verify-cache.sqlite")
    executor = Executor(sandbox, cache, (interp.executable, interp.version), jobs=2)
    seen: list[Runs] = []
    assign = runner._assign

    def keep(envs: Any, sites: Any, runs: Runs) -> Any:
        seen.append(list(runs))
        return assign(envs, sites, runs)

    runner._assign = keep  # type: ignore[assignment]
    os.environ.setdefault("ERRDEX_OFFLINE", "1")
    run = runner.verify_repo(repo, envelopes, interp, executor, only=only)
    runs = seen[-1] if seen else []
    sites = RepoSites.of(envelopes)
    located = run.located
    file_of = located.file_of if located is not None else (lambda p: None)
    tally: Counter[str] = Counter()
    rows = []
    for out in run.outcomes:
        if out.reproducer is not None:
            tally["verified"] += 1
            continue
        fam, detail = family(out, runs, sites, file_of)
        tally[fam] += 1
        rec = out.envelope["record"]
        rows.append((fam, f"{rec['filePath']}:{rec['lineNumber']} {rec['errorClass']}", detail))
    print(f"{repo}: {len(run.outcomes)} records; runs {dict(executor.counts)}")
    for fam, n in tally.most_common():
        print(f"  {n:4d}  {fam}")
    if args.list:
        for fam, where, detail in sorted(rows):
            print(f"{fam} | {where} | {detail}")


if __name__ == "__main__":
    main()
