"""MCP ``match_traceback`` latency at 100k records, beside the same pastes in-process.

The catalogue: every template errdex extracts from the running standard library (and
``--packages``), as scanned, then copies with 1–3 words varied in synthetic
repositories (``bench/_catalogue.py``) until it holds ``--records``. Each copy is a
full record (the scanned record of its seed, its message, pattern, id and file
changed), written through ``SqliteStore.write_scan`` one repository per scan, so the
file is what ``errdex scan`` writes.

The pastes: tracebacks (a frame at the raise site, then ``Class: message``) rendered
from sampled records with hole values drawn as messages print them.

Measured in one run, on the same pastes in the same order:

* baseline: ``errdex.match.api.answers(paste, store, top=5)`` in this process, the
  store open and the match index warm;
* MCP: ``match_traceback`` through a real ``ClientSession`` over stdio to
  ``errdex mcp --db FILE`` (a subprocess; JSON-RPC, pydantic validation, JSON both ways,
  the tool's page URLs), after warm-up calls that load the index.

Both must return the same best candidate for every paste; the script says if not.

    PYTHONPATH=src .venv/bin/python bench/mcp_latency.py [--records 100000] [--queries 500]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import _catalogue as cat  # bench/ is on sys.path: scripts run from their folder


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def scanned(packages: Sequence[str]) -> list[tuple[cat.Seed, dict[str, Any], dict[str, Any]]]:
    """(seed, record, evidence) of every templated site of the stdlib and ``packages``."""
    from errdex.source import open_source
    from errdex.source.stdlib import stdlib_checkout

    sources: list[tuple[Any, str]] = [(stdlib_checkout(), "python/cpython")]
    sources += [(open_source(package=name), name) for name in packages]
    out = []
    for checkout, fallback in sources:
        items, note = cat._scan_items(checkout, checkout.repo or fallback, 2)
        if note:
            print(note, file=sys.stderr)
        for record, evidence in items:
            seed = cat.seed_of((record, evidence))
            if seed is not None:
                out.append((seed, record, evidence))
    return out


def build(db: Path, size: int, packages: Sequence[str], seed: int) -> list[dict[str, Any]]:
    """Write the catalogue; return the records written (compact: what pastes need)."""
    from errdex.record import iso_now
    from errdex.store import ScanSummary, SqliteStore
    from errdex.template import MessageTemplate

    sites = scanned(packages)
    seeds = [s for s, _, _ in sites]
    by_seed = {id(s): (r, e) for s, r, e in sites}
    vocabulary = cat.Vocabulary(seeds, 50_000, 0.5)
    print(f"{len(seeds)} real templates; building {size} records", file=sys.stderr)
    per_repo: dict[str, list[tuple[dict[str, Any], dict[str, Any]]]] = {}
    kept: list[dict[str, Any]] = []
    for i, (s, template, pattern, repo, file_path) in enumerate(
        cat.rows(seeds, size, vocabulary, seed=seed)
    ):
        record, evidence = by_seed[id(s)]
        message = MessageTemplate.from_json(template).display if template else ""
        record = {
            **record,
            "id": cat.entry_id(i),
            "repo": repo,
            "filePath": file_path,
            "errorMessage": message,
            "messagePattern": pattern,
        }
        evidence = {**evidence, "site": {**evidence["site"], "template": template}}
        per_repo.setdefault(repo, []).append((record, evidence))
        kept.append(
            {"id": record["id"], "cls": s.error_class, "template": template, "file": file_path}
            | {"line": s.line, "function": s.function}
        )
    with SqliteStore(db) as store:
        for repo, items in per_repo.items():
            now = iso_now()
            summary = ScanSummary(
                repo=repo, commit=None, ref=None, ref_kind="none", origin="bench",
                version=None, started_at=now, finished_at=now, seconds=0.0,
                files_read=0, files_excluded=0, sites=len(items), records=len(items),
            )  # fmt: skip
            store.write_scan(summary, items, dataset_version=now)
    return kept


def pastes(kept: list[dict[str, Any]], count: int, seed: int) -> list[str]:
    """Tracebacks of sampled records whose message has literal text to find them by."""
    rng = random.Random(seed + 1)
    seeds = [cat.Seed("", "", 0, None, None, k["template"]) for k in kept[:5000]]
    vocabulary = cat.Vocabulary(seeds, 50_000, 0.5)
    chosen = [k for k in kept if k["template"] and cat.is_anchored(k["template"])]
    out = []
    for k in rng.sample(chosen, min(count, len(chosen))):
        message = cat.render(k["template"], rng, vocabulary)
        out.append(
            "Traceback (most recent call last):\n"
            f'  File "/srv/app/main.py", line {rng.randrange(1, 400)}, in main\n'
            "    run()\n"
            f'  File "/usr/lib/python3/site-packages/{k["file"]}", line {k["line"]}, '
            f"in {k['function'] or '<module>'}\n"
            "    raise ...\n"
            f"{k['cls'] or 'Exception'}: {message}\n"
        )
    return out


def in_process(db: Path, texts: list[str], warmup: int) -> tuple[list[float], list[str | None]]:
    from errdex.match.api import answers
    from errdex.store import SqliteStore

    times, best = [], []
    with SqliteStore(db) as store:
        t = time.perf_counter()
        answers(texts[0], store)  # builds (and saves) the index
        print(f"index build: {time.perf_counter() - t:.1f} s", file=sys.stderr)
        for text in texts[:warmup]:
            answers(text, store)
        for text in texts:
            t = time.perf_counter()
            found = answers(text, store, top=5)
            times.append(time.perf_counter() - t)
            best.append(found[0].candidates[0].id if found and found[0].candidates else None)
    return times, best


def over_mcp(db: Path, texts: list[str], warmup: int) -> tuple[list[float], list[str | None]]:
    import anyio
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    times: list[float] = []
    best: list[str | None] = []

    async def go() -> None:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "errdex.cli", "mcp", "--db", str(db)],
            env={"PYTHONPATH": os.environ.get("PYTHONPATH", "")},
        )
        async with (
            stdio_client(params) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            t = time.perf_counter()
            await session.call_tool("match_traceback", {"text": texts[0]})
            print(f"first MCP call (index load): {time.perf_counter() - t:.2f} s", file=sys.stderr)
            for text in texts[:warmup]:
                await session.call_tool("match_traceback", {"text": text})
            for text in texts:
                t = time.perf_counter()
                result = await session.call_tool("match_traceback", {"text": text, "top": 5})
                times.append(time.perf_counter() - t)
                if result.is_error:
                    raise RuntimeError(str(result.content))
                data = result.structured_content or {}
                answers = data.get("answers") or []
                found = answers[0]["candidates"] if answers else []
                best.append(found[0]["id"] if found else None)

    anyio.run(go)
    return times, best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--warmup", type=int, default=50)
    parser.add_argument("--packages", default="networkx", help="comma-separated, beside the stdlib")
    parser.add_argument("--seed", type=int, default=20240601)
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="errdex-mcp-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    db = workdir / "catalogue.db"
    if db.exists():
        sys.exit(f"{db} exists: give an empty --workdir")
    packages = [p for p in args.packages.split(",") if p]
    t = time.perf_counter()
    kept = build(db, args.records, packages, args.seed)
    print(f"catalogue written in {time.perf_counter() - t:.0f} s: {db}", file=sys.stderr)
    texts = pastes(kept, args.queries, args.seed)
    base_t, base_best = in_process(db, texts, args.warmup)
    mcp_t, mcp_best = over_mcp(db, texts, args.warmup)
    differ = sum(a != b for a, b in zip(base_best, mcp_best, strict=True))
    found = sum(b is not None for b in base_best)
    figures: dict[str, Any] = {"records": args.records, "queries": len(texts), "answered": found}
    print(f"\n{args.records} records, {len(texts)} traceback pastes, {found} with a candidate")
    print(f"{'':<28}{'p50 ms':>10}{'p99 ms':>10}{'mean ms':>10}")
    for name, values in (("in-process answers()", base_t), ("MCP match_traceback", mcp_t)):
        p50, p99 = percentile(values, 0.5) * 1e3, percentile(values, 0.99) * 1e3
        mean = statistics.fmean(values) * 1e3
        figures[name] = {
            "p50_ms": round(p50, 3),
            "p99_ms": round(p99, 3),
            "mean_ms": round(mean, 3),
        }
        print(f"{name:<28}{p50:>10.2f}{p99:>10.2f}{mean:>10.2f}")
    ratio50 = percentile(mcp_t, 0.5) / percentile(base_t, 0.5)
    ratio99 = percentile(mcp_t, 0.99) / percentile(base_t, 0.99)
    figures["ratio"] = {"p50": round(ratio50, 2), "p99": round(ratio99, 2)}
    figures["best_differs"] = differ
    print(f"ratio MCP / in-process: p50 {ratio50:.2f}x, p99 {ratio99:.2f}x")
    print(f"best candidate differs on {differ} of {len(texts)} pastes")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
