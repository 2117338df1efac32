"""LLM analysis paid once per change: networkx 3.6.1 against a local fake model server.

    .venv/bin/pip install -e '.[bench]'        # networkx==3.6.1
    .venv/bin/python bench/llm_reanalyze.py [--concurrency 8] [--keep DIR]

Copies networkx's installed source to a temporary directory, scans it as
``networkx/networkx`` at a fake commit (``errdex scan DIR --repo --sha``) and runs
``errdex analyze --llm openai:gpt-4.1-mini`` against the loopback server of the tests
(``tests/analyze/llm/fake_server.py``: OpenAI protocol, token usage counted as words
and punctuation). Then, twice, it changes one line of one file, rescans at a new
commit and analyses again:

1. an in-place edit (a comment appended to a ``raise`` line): no line moves;
2. an inserted line (a comment above a ``raise``): every later line of the file moves.

Baseline: without the cache every re-analysis calls the model once per record. The
goal is one call per site whose prompt content changed, counted independently here
as the records whose source window differs from the previous scan's (or that are new).
Costs are estimates at the declared gpt-4.1-mini list price; nothing leaves the machine.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the fake server lives with the tests

from tests.analyze.llm.fake_server import FakeLlmServer  # noqa: E402

from errdex.analyze.llm import LlmRunReport, run_llm_analysis  # noqa: E402
from errdex.store import SqliteStore  # noqa: E402

REPO = "networkx/networkx"
MODEL = "openai:gpt-4.1-mini"
SHAS = ["a" * 40, "b" * 40, "c" * 40]
EDIT_FILE = "networkx/algorithms/shortest_paths/weighted.py"


def scan(source: Path, db: Path, sha: str) -> None:
    errdex = Path(sys.executable).with_name("errdex")
    command = [str(errdex), "scan", str(source), "--repo", REPO, "--sha", sha, "--db", str(db)]
    subprocess.run([*command, "--no-progress", "--json"], check=True, capture_output=True)


def windows(db: Path) -> dict[str, str]:
    with SqliteStore(db) as store:
        return {e["record"]["id"]: e["record"]["sourceCode"] for e in store.iter_envelopes(REPO)}


def analyze(db: Path, server: FakeLlmServer, concurrency: int) -> tuple[LlmRunReport, float]:
    started = time.perf_counter()
    with SqliteStore(db) as store:
        report = run_llm_analysis(
            store,
            repo=REPO,
            model=MODEL,
            concurrency=concurrency,
            base_url=server.openai_base,
            console=Console(stderr=True, quiet=True),
        )
    return report, time.perf_counter() - started


def raise_lines(db: Path, path: str) -> list[int]:
    with SqliteStore(db) as store:
        return sorted(
            e["record"]["lineNumber"]
            for e in store.iter_envelopes(REPO)
            if e["record"]["filePath"] == path and e["evidence"]["site"]["kind"] == "raise"
        )


def edit_in_place(file: Path, line: int) -> str:
    lines = file.read_text(encoding="utf-8").split("\n")
    lines[line - 1] += "  # bench: one-line change"
    file.write_text("\n".join(lines), encoding="utf-8")
    return f"{EDIT_FILE}:{line} (comment appended)"


def insert_line(file: Path, line: int) -> str:
    lines = file.read_text(encoding="utf-8").split("\n")
    target = lines[line - 1]
    indent = target[: len(target) - len(target.lstrip())]
    lines.insert(line - 1, f"{indent}# bench: inserted line")
    file.write_text("\n".join(lines), encoding="utf-8")
    return f"{EDIT_FILE}:{line} (line inserted above)"


def changed(before: dict[str, str], after: dict[str, str]) -> int:
    return sum(1 for rid, code in after.items() if before.get(rid) != code)


def row(label: str, report: LlmRunReport, seconds: float, baseline: int, goal: int | None) -> str:
    goal_text = "" if goal is None else f" (goal {goal:,})"
    return (
        f"| {label} | {report.calls:,}{goal_text} | {baseline:,} | {report.cache_hits:,} | "
        f"{report.tokens_in:,} / {report.tokens_out:,} | ${report.cost_usd:.4f} | {seconds:.1f} s |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--keep", type=Path, help="work in DIR and keep it (default: a temp dir)")
    args = parser.parse_args()
    import networkx

    work = args.keep or Path(tempfile.mkdtemp(prefix="errdex-llm-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    source, db = work / "src", work / "bench.db"
    if source.exists():
        shutil.rmtree(source)
    db.unlink(missing_ok=True)
    shutil.copytree(Path(networkx.__file__).parent, source / "networkx")
    edited = source / EDIT_FILE
    results: list[str] = []
    try:
        with FakeLlmServer() as server:
            scan(source, db, SHAS[0])
            first = windows(db)
            full, seconds = analyze(db, server, args.concurrency)
            assert full.status == "finished" and not full.failed, full.failed[:3]
            assert server.tokens_in == full.tokens_in, "token accounting drifted from the server"
            results.append(row("full analyze", full, seconds, len(first), None))
            lines = raise_lines(db, EDIT_FILE)
            target = lines[len(lines) // 2]
            previous = first
            for sha, change in zip(SHAS[1:], (edit_in_place, insert_line), strict=True):
                what = change(edited, target)
                scan(source, db, sha)
                current = windows(db)
                goal = changed(previous, current)
                report, seconds = analyze(db, server, args.concurrency)
                assert report.status == "finished" and not report.failed
                results.append(row(f"re-analyze: {what}", report, seconds, len(current), goal))
                previous = current
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)

    print(f"networkx {networkx.__version__}, {MODEL} on a loopback fake server, cost = estimate")
    print(
        "| run | calls (goal) | baseline: calls without cache | cache hits "
        "| tokens in / out | cost | time |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for line in results:
        print(line)


if __name__ == "__main__":
    main()
