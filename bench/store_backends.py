"""PostgreSQL beside SQLite on the same catalogue: bulk insert, then the API under load.

    PYTHONPATH=src .venv/bin/python bench/store_backends.py [--records 50000] [--clients 8]

The catalogue is real records: installed packages scanned by errdex (``--packages``),
copied under further repository names (ids re-derived, related ids mapped alike) until
it holds ``--records``. Both stores get the very same ``(record, evidence)`` pairs:

- bulk insert: every repository's ``write_scan`` into a new SQLite file (WAL,
  ``synchronous=NORMAL``) and into a new database of a PostgreSQL server started here
  (the Debian package, its default durability: ``fsync`` and ``synchronous_commit`` on);
  records per second of wall time;
- ``errdex serve`` (a real uvicorn process, one worker) over each, and 8 concurrent
  keep-alive clients (``serve_vs_datasette``'s client) on ``/api/errors/{id}`` and on
  ``/api/search?q=…`` (the first words of sampled messages): requests/s, p50, p99;
  interleaved round by round so the load of the machine hits both alike;
- how alike the two searches answer those queries (same best hit, top-10 overlap).

The figures of PostgreSQL are printed beside SQLite's, with their ratio.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import statistics
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.store.pg_server

from tests.store.pg_server import PostgresServer

import _catalogue as cat  # bench/ is on sys.path: scripts run from their folder
from errdex.record import iso_now
from errdex.store import ScanSummary, open_store
from errdex.store.listing import SearchQuery
from serve_vs_datasette import Result, free_port, load, server

Item = tuple[dict[str, Any], dict[str, Any]]
PACKAGES = ("pydantic", "rich", "click", "httpx", "jinja2", "starlette", "fastapi", "pygments")


def scanned(packages: tuple[str, ...]) -> dict[str, list[Item]]:
    """Each package's ``(record, evidence)`` pairs, as errdex scans them."""
    from errdex.source import open_source

    out: dict[str, list[Item]] = {}
    for name in packages:
        checkout = open_source(package=name)
        items, note = cat._scan_items(checkout, checkout.repo or name, 2)
        if note:
            print(note, file=sys.stderr)
        out[checkout.repo or name] = items
    return out


def _copy_id(record_id: str, copy: int) -> str:
    return (
        record_id if copy == 0 else hashlib.sha256(f"{copy}:{record_id}".encode()).hexdigest()[:16]
    )


def catalogue(base: dict[str, list[Item]], size: int) -> dict[str, list[Item]]:
    """``base`` and copies of it under other repository names, ``size`` records in all."""
    out: dict[str, list[Item]] = {}
    total, copy = 0, 0
    while total < size:
        for repo, items in base.items():
            name = repo if copy == 0 else f"{repo}-copy{copy}"
            kept: list[Item] = []
            for record, evidence in items[: size - total]:
                related = [_copy_id(r, copy) for r in evidence.get("related") or []]
                record = {**record, "id": _copy_id(record["id"], copy), "repo": name}
                kept.append((record, {**evidence, "related": related}))
            out[name] = kept
            total += len(kept)
            if total >= size:
                break
        copy += 1
    return out


def bulk_insert(location: str, repos: dict[str, list[Item]]) -> float:
    """Write every repository's scan; return records per second."""
    count = sum(len(items) for items in repos.values())
    with open_store(location) as store:
        started = time.perf_counter()
        for repo, items in repos.items():
            now = iso_now()
            summary = ScanSummary(
                repo=repo, commit=None, ref=None, ref_kind="none", origin="bench",
                version=None, started_at=now, finished_at=now, seconds=0.0,
                files_read=0, files_excluded=0, sites=len(items), records=len(items),
            )  # fmt: skip
            store.write_scan(summary, items, dataset_version=now)
        seconds = time.perf_counter() - started
    return count / seconds


def queries(repos: dict[str, list[Item]], count: int, rng: random.Random) -> list[str]:
    """Search URLs: the first two or three words of sampled messages."""
    records = [record for items in repos.values() for record, _ in items]
    out = []
    while len(out) < count:
        words = cat.WORD.findall(rng.choice(records)["errorMessage"])
        if len(words) >= 2:
            text = " ".join(words[: rng.choice((2, 3))])
            out.append("/api/search?" + urllib.parse.urlencode({"q": text, "limit": 20}))
    return out


def agreement(locations: dict[str, str], urls: list[str]) -> tuple[float, float]:
    """How alike the two backends' search answers are, over the benchmark's queries: the
    share whose best hit is the same record, and the mean overlap of the top 10."""
    texts = [urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["q"][0] for url in urls]
    answers: dict[str, list[list[str]]] = {}
    for name, where in locations.items():
        with open_store(where) as store:
            store.refresh_search()
            answers[name] = [
                [h.id for h in store.search(SearchQuery(t, limit=10))[0]] for t in texts
            ]
    pairs = list(zip(answers["sqlite"], answers["postgres"], strict=True))
    top1 = sum(a[:1] == b[:1] for a, b in pairs) / len(pairs)
    overlap = statistics.mean(len(set(a) & set(b)) / max(1, len(a), len(b)) for a, b in pairs)
    return top1, overlap


def show(label: str, results: list[Result]) -> tuple[float, float, float]:
    rps = statistics.median(r.rps for r in results)
    p50 = statistics.median(r.quantile(0.50) for r in results)
    p99 = statistics.median(r.quantile(0.99) for r in results)
    errors = sum(r.errors for r in results)
    print(f"{label:34}{rps:10.0f}{p50:10.2f}{p99:10.2f}{errors:8d}")
    return rps, p50, p99


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--records", type=int, default=50_000)
    parser.add_argument("--packages", nargs="*", default=list(PACKAGES))
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--requests", type=int, default=2000, help="per target and round")
    parser.add_argument(
        "--seconds", type=float, default=20.0, help="time bound per target and round"
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--ids", type=int, default=500, help="distinct records requested")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    base = scanned(tuple(args.packages))
    repos = catalogue(base, args.records)
    count = sum(len(items) for items in repos.values())
    print(f"{count} records in {len(repos)} repositories ({sum(map(len, base.values()))} scanned "
          f"from {len(base)} packages, the rest copies)", file=sys.stderr)  # fmt: skip
    pg = PostgresServer(durable=True).start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            locations = {"sqlite": str(Path(tmp) / "bench.db"), "postgres": pg.new_database()}
            rates = {name: bulk_insert(where, repos) for name, where in locations.items()}
            ids = rng.sample([r["id"] for items in repos.values() for r, _ in items], args.ids)
            targets = {
                "/api/errors/{id}": [f"/api/errors/{i}" for i in ids],
                "/api/search?q=": queries(repos, args.ids, rng),
            }
            alike = agreement(locations, targets["/api/search?q="])
            ports = {name: free_port() for name in locations}
            serve = "from errdex.web.commands import serve; serve()"
            commands = {
                name: [sys.executable, "-c", serve, "--db", where, "--port", str(ports[name])]
                for name, where in locations.items()
            }
            runs: dict[tuple[str, str], list[Result]] = {}
            with (
                server(commands["sqlite"], ports["sqlite"], "/api/search?q=error"),
                server(commands["postgres"], ports["postgres"], "/api/search?q=error"),
            ):
                for name in locations:  # warm up, and check every answer is a 200
                    for label, urls in targets.items():
                        warm = load(ports[name], urls, len(urls), 60, args.clients)
                        if warm.errors:
                            raise SystemExit(f"{name} {label}: {warm.errors} non-200 answers")
                for _ in range(args.rounds):
                    for label, urls in targets.items():
                        for name in locations:
                            result = load(
                                ports[name], urls, args.requests, args.seconds, args.clients
                            )
                            runs.setdefault((label, name), []).append(result)
    finally:
        pg.stop()

    print(
        f"{count} records, {len(repos)} repositories; {args.clients} concurrent keep-alive clients, "
        f"{args.rounds} rounds of at most {args.requests} requests / {args.seconds:.0f} s; "
        f"{os.cpu_count()} CPUs shared by client, servers and PostgreSQL"
    )
    print(f"{'bulk insert (write_scan)':34}{'records/s':>10}")
    for name, rate in rates.items():
        print(f"  {name:32}{rate:10.0f}")
    print(f"  {'ratio postgres / sqlite':32}{rates['postgres'] / rates['sqlite']:10.2f}")
    print(
        f"search answers alike over {len(targets['/api/search?q='])} queries: same best hit "
        f"{alike[0]:.0%}, top-10 overlap {alike[1]:.0%}"
    )
    print(f"{'':34}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'errors':>8}")
    for label in targets:
        figures = {name: show(f"{label} {name}", runs[(label, name)]) for name in locations}
        (r_s, p50_s, p99_s), (r_p, p50_p, p99_p) = figures["sqlite"], figures["postgres"]
        print(
            f"  {'ratio postgres / sqlite':32}{r_p / r_s:10.2f}{p50_p / p50_s:10.2f}{p99_p / p99_s:10.2f}"
        )


if __name__ == "__main__":
    main()
