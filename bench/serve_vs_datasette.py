"""``errdex serve`` beside Datasette on the same SQLite rows: requests/s and p99 latency.

    .venv/bin/python bench/serve_vs_datasette.py [--db FILE] [--requests 3000] [--seconds 20]

Without ``--db`` it scans the running Python's standard library into a temporary file
(``errdex scan --stdlib``). Both servers run as separate processes with their default
settings (one uvicorn worker, access log on) on loopback, over the same file, and are
measured in one run, interleaved round by round so that load on the machine hits all
alike:

- errdex's error page ``/repos/<repo>/errors/<id>/<slug>`` vs Datasette's row page
  ``/<db>/records/<id>``;
- errdex's ``/api/errors/<id>`` vs Datasette's row JSON ``/<db>/records/<id>.json``.

errdex memoises the highlighted source window (a pure function of the record); a
third server with that memo switched off shows what the error page costs without it.

The client is a small asyncio HTTP/1.1 client: 8 keep-alive connections, each sending
its next request as soon as the previous answer is read, cycling over the same
randomly chosen record ids for every target. Each target gets a bounded number of
requests and a time bound, whichever ends first. Loopback only.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from errdex.web.views import record_path

HOST = "127.0.0.1"


@dataclass
class Result:
    requests: int
    errors: int
    seconds: float
    latencies: list[float]

    @property
    def rps(self) -> float:
        return self.requests / self.seconds

    def quantile(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


# -- a minimal keep-alive HTTP/1.1 client --------------------------------------------------


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, bool]:
    """Read one response; return its status and whether the server keeps the connection."""
    status = int((await reader.readline()).split()[1])
    length: int | None = None
    chunked = False
    keep = True
    while (line := await reader.readline()) not in (b"\r\n", b""):
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        if name == b"content-length":
            length = int(value)
        elif name == b"transfer-encoding" and b"chunked" in value.lower():
            chunked = True
        elif name == b"connection" and b"close" in value.lower():
            keep = False
    if chunked:
        while size := int((await reader.readline()).split(b";")[0], 16):
            await reader.readexactly(size + 2)
        await reader.readline()
    elif length is not None:
        await reader.readexactly(length)
    else:
        await reader.read()
        keep = False
    return status, keep


async def _worker(
    port: int, paths: Callable[[], str | None], latencies: list[float], errors: list[int]
) -> None:
    reader, writer = await asyncio.open_connection(HOST, port)
    try:
        while (path := paths()) is not None:
            request = f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nAccept: */*\r\n\r\n"
            started = time.perf_counter()
            writer.write(request.encode())
            status, keep = await _read_response(reader)
            latencies.append(time.perf_counter() - started)
            if status != 200:
                errors.append(status)
            if not keep:
                writer.close()
                reader, writer = await asyncio.open_connection(HOST, port)
    finally:
        writer.close()


async def _load(port: int, urls: list[str], total: int, seconds: float, clients: int) -> Result:
    sent = 0
    deadline = time.perf_counter() + seconds

    def next_path() -> str | None:
        nonlocal sent
        if sent >= total or time.perf_counter() > deadline:
            return None
        sent += 1
        return urls[sent % len(urls)]

    latencies: list[float] = []
    errors: list[int] = []
    started = time.perf_counter()
    await asyncio.gather(*(_worker(port, next_path, latencies, errors) for _ in range(clients)))
    return Result(len(latencies), len(errors), time.perf_counter() - started, latencies)


def load(port: int, urls: list[str], total: int, seconds: float, clients: int) -> Result:
    return asyncio.run(_load(port, urls, total, seconds, clients))


# -- servers ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


@contextmanager
def server(command: list[str], port: int, ready_path: str) -> Iterator[None]:
    """Run a server process until the block ends; wait until it answers ``ready_path``."""
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(f"http://{HOST}:{port}{ready_path}", timeout=5) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"server did not start: {' '.join(command)}")
            time.sleep(0.2)
        yield
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def build_db(directory: Path) -> Path:
    db = directory / "stdlib.db"
    subprocess.run(
        [sys.executable, "-m", "errdex.cli", "scan", "--stdlib", "--db", str(db), "--no-progress"],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    return db


def sample(db: Path, count: int, seed: int) -> list[tuple[str, str, str]]:
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute(
            "SELECT repo, id, slug FROM records WHERE stale = 0 ORDER BY id"
        ).fetchall()
    finally:
        conn.close()
    random.Random(seed).shuffle(rows)
    return [(str(r), str(i), str(s)) for r, i, s in rows[:count]]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--db", type=Path, help="errdex database (default: scan the stdlib)")
    parser.add_argument("--requests", type=int, default=3000, help="per target and round")
    parser.add_argument(
        "--seconds", type=float, default=20.0, help="time bound per target and round"
    )
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--ids", type=int, default=500, help="distinct records requested")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or build_db(Path(tmp))
        records = sample(db, args.ids, args.seed)
        name = db.stem
        pages = [record_path(r, i, s) for r, i, s in records]
        targets: dict[str, tuple[str, list[str]]] = {
            "errdex error page": ("errdex", pages),
            "  same, no highlight memo": ("errdex-cold", pages),
            "datasette row page": ("datasette", [f"/{name}/records/{i}" for _, i, _ in records]),
            "errdex /api/errors/{id}": ("errdex", [f"/api/errors/{i}" for _, i, _ in records]),
            "datasette row .json": (
                "datasette",
                [f"/{name}/records/{i}.json" for _, i, _ in records],
            ),
        }
        ports = {"errdex": free_port(), "errdex-cold": free_port(), "datasette": free_port()}
        serve = "from errdex.web.commands import serve; serve()"
        cold = "import errdex.web.views as v; v.highlight_window = v.highlight_window.__wrapped__; "
        errdex_cmd = [sys.executable, "-c", serve, "--db", str(db), "--port", str(ports["errdex"])]
        cold_cmd = [
            sys.executable, "-c", cold + serve, "--db", str(db), "--port", str(ports["errdex-cold"]),
        ]  # fmt: skip
        datasette_cmd = [
            sys.executable, "-m", "datasette", "serve", "-i", str(db),
            "--port", str(ports["datasette"]), "--host", HOST,
        ]  # fmt: skip
        # errdex first: it adds its search tables to the file before Datasette opens it.
        with (
            server(errdex_cmd, ports["errdex"], "/api/repos"),
            server(cold_cmd, ports["errdex-cold"], "/api/repos"),
            server(datasette_cmd, ports["datasette"], f"/{name}.json"),
        ):
            for label, (which, urls) in targets.items():  # warm up, and check the answers
                warm = load(ports[which], urls, min(len(urls), 400), 30, args.clients)
                if warm.errors:
                    raise SystemExit(f"{label}: {warm.errors} non-200 answers while warming up")
            runs: dict[str, list[Result]] = {label: [] for label in targets}
            for _ in range(args.rounds):
                for label, (which, urls) in targets.items():
                    runs[label].append(
                        load(ports[which], urls, args.requests, args.seconds, args.clients)
                    )

    print(
        f"{len(records)} records of {db.name}, {args.clients} concurrent keep-alive clients, "
        f"{args.rounds} rounds of at most {args.requests} requests / {args.seconds:.0f} s, "
        f"{os.cpu_count()} CPUs (client and servers share them)"
    )
    print(f"{'':28}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'errors':>8}")
    for label, results in runs.items():
        rps = statistics.median(r.rps for r in results)
        p50 = statistics.median(r.quantile(0.50) for r in results)
        p99 = statistics.median(r.quantile(0.99) for r in results)
        errors = sum(r.errors for r in results)
        print(f"{label:28}{rps:10.0f}{p50:10.2f}{p99:10.2f}{errors:8d}")
    for ours, theirs in (
        ("errdex error page", "datasette row page"),
        ("  same, no highlight memo", "datasette row page"),
        ("errdex /api/errors/{id}", "datasette row .json"),
    ):
        a = statistics.median(r.rps for r in runs[ours])
        b = statistics.median(r.rps for r in runs[theirs])
        print(f"{ours.strip()} / {theirs}: {a / b:.2f}× the throughput")


if __name__ == "__main__":
    main()
