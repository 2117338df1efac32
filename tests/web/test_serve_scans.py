"""A served catalogue survives scans written into the same file while it serves.

Real processes on both sides: ``errdex serve`` on a loopback port and ``errdex scan``
runs into its database, with a client asking for every kind of page meanwhile.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from .catalogue import scan_into, write_tree
from .test_serve import cli, free_port

CLI = [sys.executable, "-m", "errdex.cli"]


def _module(n: int) -> str:
    return "".join(
        f"def check_{n}_{k}(x):\n    if x == {k}:\n        raise ValueError('scan {n} code {k}: {{x}}'.format(x=x))\n\n"
        for k in range(40)
    )


@pytest.fixture()
def served(tmp_path: Path) -> Iterator[tuple[str, Path, subprocess.Popen[bytes]]]:
    db = tmp_path / "errdex.db"
    root = write_tree(tmp_path / "first", {"first/m.py": _module(0)})
    scan_into(db, root, "o/first", "1" * 40)
    port = free_port()
    proc = subprocess.Popen(
        [*CLI, "serve", "--db", str(db), "--port", str(port), "--no-access-log"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                httpx.get(f"{url}/api/repos", timeout=2)
                break
            except httpx.TransportError:
                assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
                assert time.monotonic() < deadline, "errdex serve did not answer"
                time.sleep(0.1)
        yield url, db, proc
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _load(url: str, stop: threading.Event, answers: list[tuple[str, int, str]]) -> None:
    """Ask for pages, search, the API and matches until told to stop."""
    with httpx.Client(base_url=url, timeout=30) as client:
        while not stop.is_set():
            for method, path, body in (
                ("GET", "/", None),
                ("GET", "/search?q=scan+code", None),
                ("GET", "/api/search?q=code", None),
                ("GET", "/api/repos", None),
                ("GET", "/repos/o/first", None),
                ("POST", "/api/match", {"text": "ValueError: scan 0 code 7: 7"}),
                ("GET", "/api/search?q=scan+2", None),
            ):
                try:
                    response = client.request(method, path, json=body)
                except httpx.TransportError as exc:
                    answers.append((path, 0, repr(exc)))
                    continue
                answers.append((path, response.status_code, response.text[:200]))


def test_serve_survives_three_scans_into_its_file(
    tmp_path: Path, served: tuple[str, Path, subprocess.Popen[bytes]]
) -> None:
    url, db, server = served
    stop = threading.Event()
    answers: list[tuple[str, int, str]] = []
    loader = threading.Thread(target=_load, args=(url, stop, answers))
    loader.start()
    try:
        for n in (1, 2, 3):
            root = write_tree(tmp_path / f"r{n}", {f"r{n}/m.py": _module(n)})
            proc = cli(
                "scan", str(root), "--repo", f"o/r{n}", "--sha", str(n) * 40, "--db", str(db)
            )
            assert proc.returncode == 0, proc.stderr
            time.sleep(2.5)  # past the server's poll, so it re-indexes between scans
    finally:
        stop.set()
        loader.join(timeout=60)
    failed = [a for a in answers if a[1] != 200]
    if failed:
        server.terminate()
        log = server.communicate(timeout=10)[0].decode(errors="replace")
        raise AssertionError(f"{len(failed)} of {len(answers)} failed: {failed[:5]}\n{log[-3000:]}")
    assert answers
    with httpx.Client(base_url=url, timeout=30) as client:
        repos = [r["repo"] for r in client.get("/api/repos").json()["repos"]]
        assert repos == ["o/first", "o/r1", "o/r2", "o/r3"]
        hits = client.get("/api/search", params={"q": "scan 3 code 5"}).json()["items"]
        assert hits and hits[0]["repo"] == "o/r3"
