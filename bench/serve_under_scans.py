"""``errdex serve`` under load while scans write into the same database file.

    .venv/bin/python bench/serve_under_scans.py [--db FILE] [--clients 50] [--seconds 30]

Without ``--db`` it scans the running Python's standard library into a temporary file.
One ``errdex serve`` process (default settings, one uvicorn worker) answers
``--clients`` keep-alive clients on loopback, cycling over error pages,
``/api/errors/{id}`` and ``/api/search`` for ``--seconds``, twice in the same run:

- **quiet**: nothing else touches the database (the baseline);
- **scanning**: ``errdex scan --package NAME`` runs one after another into the same
  file for the whole phase (click, jinja2, httpx, rich, pygments by default: real
  packages of this environment, each scan a real write transaction and WAL checkpoint).

It prints requests/s, p50/p99 and the non-200 answers of each phase and their ratio,
then the server's resident memory (``VmRSS``) before the first burst and after each of
``--bursts`` further bursts, so growth per burst shows. Loopback only; every loop is
bounded in requests and time.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from errdex.web.views import record_path
from serve_vs_datasette import HOST, Result, build_db, free_port, load, sample

SCANNED = ("click", "jinja2", "httpx", "rich", "pygments")
SEARCHES = ("not a node", "Expecting value", "invalid literal", "must be", "unsupported operand")


def rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start_server(db: Path, port: int) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "errdex.cli", "serve", "--db", str(db), "--port", str(port)]
    command.append("--no-access-log")
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while True:
        try:
            with urllib.request.urlopen(f"http://{HOST}:{port}/api/repos", timeout=5) as r:
                if r.status == 200:
                    return proc
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise SystemExit("errdex serve did not start")
        time.sleep(0.2)


def scan_loop(db: Path, stop: threading.Event, done: list[tuple[str, int]]) -> None:
    """Scan packages into ``db`` one after another until ``stop`` is set."""
    while not stop.is_set():
        for name in SCANNED:
            if stop.is_set():
                return
            command = [sys.executable, "-m", "errdex.cli", "scan", "--package", name]
            proc = subprocess.run(
                [*command, "--db", str(db), "--no-progress"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                timeout=600,
                check=False,
            )
            done.append((name, proc.returncode))


def phase(port: int, urls: list[str], args: argparse.Namespace) -> Result:
    return load(port, urls, args.requests, args.seconds, args.clients)


def line(label: str, result: Result) -> str:
    return (
        f"{label:12}{result.rps:10.0f}{result.quantile(0.50):10.2f}"
        f"{result.quantile(0.99):10.2f}{result.errors:8d}{result.requests:10d}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--db", type=Path, help="errdex database (default: scan the stdlib)")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0, help="length of each phase")
    parser.add_argument("--requests", type=int, default=200_000, help="bound per phase")
    parser.add_argument("--bursts", type=int, default=4, help="memory bursts after the phases")
    parser.add_argument("--ids", type=int, default=500, help="distinct records requested")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or build_db(Path(tmp))
        records = sample(db, args.ids, seed=1)
        urls = [record_path(r, i, s) for r, i, s in records]
        urls += [f"/api/errors/{i}" for _, i, _ in records]
        urls += [f"/api/search?q={q.replace(' ', '+')}" for q in SEARCHES] * 20
        port = free_port()
        proc = start_server(db, port)
        try:
            load(port, urls, 500, 30, min(args.clients, 8))  # warm up
            rss = [rss_mib(proc.pid)]
            quiet = phase(port, urls, args)
            stop = threading.Event()
            scans: list[tuple[str, int]] = []
            scanner = threading.Thread(target=scan_loop, args=(db, stop, scans))
            scanner.start()
            try:
                busy = phase(port, urls, args)
            finally:
                stop.set()
                scanner.join()
            for _ in range(args.bursts):
                phase_args = argparse.Namespace(**{**vars(args), "seconds": args.seconds / 3})
                phase(port, urls, phase_args)
                time.sleep(2)
                rss.append(rss_mib(proc.pid))
            alive = proc.poll() is None
        finally:
            proc.terminate()
            proc.wait(timeout=20)

    print(
        f"{len(records)} records of {db.name}; {args.clients} keep-alive clients on loopback, "
        f"{args.seconds:.0f} s per phase, {os.cpu_count()} CPUs shared by client, server "
        "and scans"
    )
    print(f"{'phase':12}{'req/s':>10}{'p50 ms':>10}{'p99 ms':>10}{'non-200':>8}{'requests':>10}")
    print(line("quiet", quiet))
    print(line("scanning", busy))
    failed = [f"{n} (exit {c})" for n, c in scans if c != 0]
    print(
        f"scans finished during the scanning phase: {len(scans)}"
        + (f"; failed: {', '.join(failed)}" if failed else "")
    )
    print(
        f"scanning / quiet: {busy.rps / quiet.rps:.2f}× the throughput, "
        f"{busy.quantile(0.99) / quiet.quantile(0.99):.2f}× the p99"
    )
    print(
        "server RSS MiB, after warm-up then after each burst: " + ", ".join(f"{m:.0f}" for m in rss)
    )
    print(f"server still running at the end: {alive}")


if __name__ == "__main__":
    main()
