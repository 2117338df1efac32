"""``errdex serve`` as a process, and a server that notices scans made while it runs."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
from click.testing import CliRunner

from errdex.web.commands import serve
from errdex.web.views import record_path

from .catalogue import scan_into, write_tree
from .conftest import LiveServer, Site

SHA = "3" * 40


def cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """``errdex ARGS`` as a process of its own, its output captured."""
    return subprocess.run(
        [sys.executable, "-m", "errdex.cli", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_serve_refuses_missing_and_foreign_files(tmp_path: Path) -> None:
    runner = CliRunner()
    missing = runner.invoke(serve, ["--db", str(tmp_path / "none.db")])
    assert missing.exit_code == 2 and "does not exist" in missing.output
    foreign = tmp_path / "notes.db"
    foreign.write_text("not a database")
    result = runner.invoke(serve, ["--db", str(foreign)])
    assert result.exit_code == 2 and "not an errdex database" in result.output


def test_serve_help_names_every_route() -> None:
    text = CliRunner().invoke(serve, ["--help"]).output
    for route in ("/api/errors/ID", "/api/search", "POST /api/match", "/datasets/OWNER/NAME.jsonl"):
        assert route in text
    for option in ("--db", "--host", "--port", "--issues-url"):
        assert option in text


def test_serve_runs_uvicorn(site: Site) -> None:
    port = free_port()
    code = "from errdex.web.commands import serve; serve()"
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "--db", str(site.db), "--port", str(port), "--no-access-log"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                response = httpx.get(f"http://127.0.0.1:{port}/api/repos", timeout=2)
                break
            except httpx.TransportError:
                assert proc.poll() is None, proc.stdout.read() if proc.stdout else ""
                assert time.monotonic() < deadline, "errdex serve did not answer"
                time.sleep(0.1)
        assert [r["repo"] for r in response.json()["repos"]] == ["acme/widgets", "jax-ml/jax"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_a_vanished_error_keeps_its_page(tmp_path: Path) -> None:
    db = tmp_path / "errdex.db"
    body = "def f():\n    raise ValueError('soon gone')\n\ndef g():\n    raise KeyError('stays')\n"
    root = write_tree(tmp_path / "a", {"a/m.py": body})
    gone = next(r for r, _ in scan_into(db, root, "o/a", SHA) if r["errorClass"] == "ValueError")
    write_tree(root, {"a/m.py": "def g():\n    raise KeyError('stays')\n"})
    scan_into(db, root, "o/a", "4" * 40)
    with LiveServer(db) as live, httpx.Client(base_url=live.url) as client:
        page = client.get(record_path("o/a", gone["id"], gone["slug"]))
        assert page.status_code == 200
        assert "no longer raises this error" in page.text
        assert client.get(f"/api/errors/{gone['id']}").status_code == 200
        assert client.get("/api/search", params={"q": "soon gone"}).json()["items"] == []
        assert client.get("/api/repos/o/a").json()["stale"] == 1


def test_a_scan_while_serving_shows_up(tmp_path: Path) -> None:
    db = tmp_path / "errdex.db"
    first = write_tree(
        tmp_path / "a", {"a/m.py": "def f():\n    raise ValueError('first catalogue entry')\n"}
    )
    scan_into(db, first, "o/a", SHA)
    with LiveServer(db) as live, httpx.Client(base_url=live.url) as client:
        assert client.get("/api/search", params={"q": "second"}).json()["items"] == []
        second = write_tree(
            tmp_path / "b", {"b/m.py": "def g():\n    raise KeyError('second catalogue entry')\n"}
        )
        scan_into(db, second, "o/b", SHA)
        deadline = time.monotonic() + 10
        while not client.get("/api/search", params={"q": "second"}).json()["items"]:
            assert time.monotonic() < deadline, "the new scan never reached search"
            time.sleep(0.1)
        repos = client.get("/api/repos").json()["repos"]
        assert [r["repo"] for r in repos] == ["o/a", "o/b"]


def test_serve_on_a_busy_port_says_so_first(site: Site) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        proc = cli("serve", "--db", str(site.db), "--port", str(port), timeout=60)
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("error: port ") and "already in use" in lines[0], lines[0]
    assert str(port) in lines[0]
