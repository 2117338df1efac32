"""Fork servers: the target interpreter started once per worker, each snippet a forked child.

Starting an interpreter and importing the package under test (``import networkx``: half a
second of CPU) dominates a snippet's cost. A fork server is the same wrapper
(:mod:`errdex.verify._child`) started with ``--serve`` under the same isolation (``-I -B``,
minimal environment, ``unshare -rn`` where it works, the socket bootstrap) that imports the
repository's top-level packages once; each snippet is then a child forked from it, in its
own session, scratch folder and resource limits, exactly as a fresh interpreter would run
it with those modules already imported. The child's pid comes back at once, so a time-out
kills its whole session as in the plain mode.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from .watch import Verdict, wait_watched

__all__ = ["ForkServer", "ServerPool"]

_CHILD = Path(__file__).with_name("_child.py")


class ForkServer:
    """One server process; serves one request at a time."""

    def __init__(
        self, argv_prefix: list[str], python: str, env: dict[str, str], config: dict[str, Any]
    ) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="errdex-verify-server-"))
        child = self.root / "errdex_verify_child.py"
        shutil.copyfile(_CHILD, child)
        (self.root / "server.json").write_text(json.dumps(config), encoding="utf-8")
        self.proc = subprocess.Popen(
            [
                *argv_prefix,
                python,
                "-I",
                "-B",
                str(child),
                "--serve",
                str(self.root / "server.json"),
            ],
            cwd=self.root,
            env={**env, "HOME": str(self.root), "TMPDIR": str(self.root)},
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        self._buffer = b""

    def alive(self) -> bool:
        return self.proc.poll() is None

    def _line(self, timeout: float) -> dict[str, Any] | None:
        """The server's next answer, or None after ``timeout`` seconds. Read from the raw
        descriptor with a buffer of our own: a buffered reader could swallow two answers
        at once and leave ``select`` waiting for one it already holds."""
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + max(0.0, timeout)
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([fd], [], [], max(0.0, left))
            if not ready:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                raise EOFError("the fork server ended")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        data: dict[str, Any] = json.loads(line)
        return data

    def run(self, config: dict[str, Any], work: Path, out: Path, timeout: float) -> Verdict | None:
        """Run one request; None when the child ended, else why it was stopped (timed out
        or blocked, :mod:`.watch`), after killing the child's session."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        (work / "config.json").write_text(json.dumps(config), encoding="utf-8")
        request = {"config": str(work / "config.json"), "out": str(out), "work": str(work)}
        self.proc.stdin.write((json.dumps(request) + "\n").encode())
        self.proc.stdin.flush()
        started = self._line(30.0)
        if started is None:
            raise EOFError("the fork server did not answer")
        pid = int(started["pid"])
        answered: list[dict[str, Any]] = []

        def ended(step: float) -> bool:
            done = self._line(step)
            if done is not None:
                answered.append(done)
            return done is not None

        stopped = wait_watched(pid, timeout, ended)
        _kill(pid)  # the child's session: it, and whatever it left running
        if not answered:
            self._line(30.0)
        return stopped

    def close(self) -> None:
        if self.proc.stdin is not None:
            with contextlib.suppress(OSError):
                self.proc.stdin.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            _kill(self.proc.pid)
            self.proc.wait()
        shutil.rmtree(self.root, ignore_errors=True)


def _kill(pid: int) -> None:
    with contextlib.suppress(OSError):  # the session is gone already
        os.killpg(pid, signal.SIGKILL)


class ServerPool:
    """Idle servers, taken by a worker for one run and given back after."""

    def __init__(self) -> None:
        self._idle: list[ForkServer] = []
        self._all: list[ForkServer] = []
        self._lock = threading.Lock()

    def take(self, start: Any) -> ForkServer:
        with self._lock:
            while self._idle:
                server = self._idle.pop()
                if server.alive():
                    return server
        server = start()
        assert isinstance(server, ForkServer)
        with self._lock:
            self._all.append(server)
        return server

    def give(self, server: ForkServer) -> None:
        if server.alive():
            with self._lock:
                self._idle.append(server)

    def close(self) -> None:
        with self._lock:
            servers, self._all, self._idle = self._all, [], []
        for server in servers:
            server.close()
