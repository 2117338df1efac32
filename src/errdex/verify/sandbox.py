"""Run one snippet in a child interpreter: time and memory limits, no network, scratch dir.

Each snippet gets its own process, started with ``-I`` (no user site, no ``PYTHON*``
variables, the script's folder not on ``sys.path``) and ``-B``, a minimal environment,
a fresh scratch directory as its working and home directory, and a new session so that
on time-out the whole process group is killed. The network is cut by a user+network
namespace (``unshare -rn``) where that works on this machine, and always by the
wrapper's socket bootstrap (:mod:`errdex.verify._child`). What the snippet raised comes
back as the JSON the wrapper wrote, never from stderr.

This keeps a test's statements from touching the network, the user's files or the
machine's memory; it is not a jail against hostile code (the child can still read what
the user can read).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, Literal

from .forkserver import ForkServer, ServerPool
from .watch import wait_watched

__all__ = [
    "DEFAULT_MEMORY",
    "DEFAULT_TIMEOUT",
    "RunResult",
    "Sandbox",
    "namespace_works",
]

DEFAULT_TIMEOUT = 10.0
DEFAULT_MEMORY = 2 << 30  # address space: numpy and its BLAS reserve a lot of it
_FILE_SIZE = 64 << 20
_CHILD = Path(__file__).with_name("_child.py")
Status = Literal["ok", "raised", "timeout", "blocked", "crashed"]


@dataclass(frozen=True)
class RunResult:
    """What one run did: it finished, raised, ran out of time, waited on something that
    never came (blocked, see :mod:`.watch`), or died without a result."""

    status: Status
    error_class: str | None = None
    classes: tuple[str, ...] = ()
    message: str | None = None
    arg: str | None = None
    frames: tuple[tuple[str, int], ...] = ()  # (file, line), outermost first
    traceback_tail: str = ""
    marks: tuple[str, ...] = ()
    python: str = ""
    seconds: float = 0.0
    detail: str = ""  # why a run crashed: exit status, the end of stderr

    @property
    def innermost(self) -> tuple[str, int] | None:
        return self.frames[-1] if self.frames else None

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "errorClass": self.error_class,
            "classes": list(self.classes),
            "message": self.message,
            "arg": self.arg,
            "frames": [list(f) for f in self.frames],
            "tracebackTail": self.traceback_tail,
            "marks": list(self.marks),
            "python": self.python,
            "seconds": self.seconds,
            "detail": self.detail,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> RunResult:
        # the wrapper writes {"file", "line"}, the cache [file, line]; a frame's line is
        # None where Python 3.11 knows none (it crashed a whole stdlib verify): line 0
        frames = tuple(
            (str(f["file"]), int(f["line"] or 0))
            if isinstance(f, dict)
            else (str(f[0]), int(f[1] or 0))
            for f in data.get("frames") or []
        )
        return cls(
            status=data.get("status", "crashed"),
            error_class=data.get("errorClass"),
            classes=tuple(data.get("classes") or ()),
            message=data.get("message"),
            arg=data.get("arg"),
            frames=frames,
            traceback_tail=data.get("tracebackTail") or "",
            marks=tuple(data.get("marks") or ()),
            python=data.get("python") or "",
            seconds=float(data.get("seconds") or 0.0),
            detail=data.get("detail") or "",
        )


@cache
def namespace_works() -> bool:
    """Whether ``unshare -rn`` can start a process here (user namespaces allowed)."""
    unshare = shutil.which("unshare")
    if unshare is None or not sys.platform.startswith("linux"):
        return False
    try:
        done = subprocess.run(
            [unshare, "-rn", "true"], capture_output=True, timeout=10, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


@dataclass(frozen=True)
class Sandbox:
    """How snippets run: which interpreter, limits, extra import roots."""

    python: str = field(default_factory=lambda: sys.executable)
    timeout: float = DEFAULT_TIMEOUT
    memory: int = DEFAULT_MEMORY
    sys_path: tuple[str, ...] = ()
    namespace: bool = True  # use ``unshare -rn`` where it works
    fork: bool = False  # fork each snippet from a server that imported ``preload`` once
    preload: tuple[str, ...] = ()
    _pool: ServerPool = field(default_factory=ServerPool, compare=False, repr=False)

    def isolation(self) -> str:
        """How the network is cut: ``namespace`` (and the bootstrap) or ``bootstrap``."""
        return "namespace" if self.namespace and namespace_works() else "bootstrap"

    def _env(self, home: str) -> dict[str, str]:
        env = {
            "PATH": "/usr/bin:/bin",
            "HOME": home,
            "TMPDIR": home,
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "PYTHONHASHSEED": "0",
            "PYTHONIOENCODING": "utf-8",
            "OMP_NUM_THREADS": "1",
            "OPENBLAS_NUM_THREADS": "1",
            "MKL_NUM_THREADS": "1",
            "MPLBACKEND": "Agg",
        }
        for key in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):  # see the machine's notes
            if key in os.environ:
                env[key] = os.environ[key]
        return env

    def _config(self, program: str, warnings_as_errors: bool) -> dict[str, Any]:
        return {
            "program": program,
            "memory": self.memory,
            "cpu": int(self.timeout) + 1,
            "fsize": _FILE_SIZE,
            "sysPath": list(self.sys_path),
            "warningsAsErrors": warnings_as_errors,
            "blockNetwork": True,
        }

    def _prefix(self) -> list[str]:
        return ["unshare", "-rn"] if self.isolation() == "namespace" else []

    def run(self, program: str, *, warnings_as_errors: bool = False) -> RunResult:
        """Run ``program`` once and say what it raised."""
        with tempfile.TemporaryDirectory(prefix="errdex-verify-") as scratch:
            work = Path(scratch)
            config = self._config(program, warnings_as_errors)
            if self.fork:
                return self._run_forked(config, work)
            (work / "config.json").write_text(json.dumps(config), encoding="utf-8")
            child = work / "errdex_verify_child.py"
            shutil.copyfile(_CHILD, child)
            out = work / "result.json"
            argv = [self.python, "-I", "-B", str(child), str(work / "config.json"), str(out)]
            return self._spawn([*self._prefix(), *argv], work, out)

    def _start_server(self) -> ForkServer:
        config = {
            "sysPath": list(self.sys_path),
            "blockNetwork": True,
            "preload": list(self.preload),
        }
        return ForkServer(self._prefix(), self.python, self._env("/"), config)

    def _run_forked(self, config: dict[str, Any], work: Path) -> RunResult:
        out = work / "result.json"
        try:
            server = self._pool.take(self._start_server)
        except OSError as exc:
            return RunResult("crashed", detail=f"could not start the fork server: {exc}")
        try:
            status = server.run(config, work, out, self.timeout)
        except (EOFError, OSError, ValueError) as exc:
            server.close()
            return RunResult("crashed", detail=f"fork server: {exc}")
        self._pool.give(server)
        if status is not None:
            return status.result()
        return _read_result(out, work / "stderr.txt", None)

    def close(self) -> None:
        """Stop the fork servers (a plain sandbox has none)."""
        self._pool.close()

    def _spawn(self, argv: list[str], work: Path, out: Path) -> RunResult:
        # stderr goes to a file in the scratch folder: the file-size limit bounds it, where
        # a pipe would hold whatever a runaway snippet prints in this process's memory
        with (work / "stderr.txt").open("w+b") as err:
            try:
                proc = subprocess.Popen(
                    argv,
                    cwd=work,
                    env=self._env(str(work)),
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=err,
                    start_new_session=True,
                )
            except OSError as exc:
                return RunResult("crashed", detail=f"could not start {argv[0]}: {exc}")
            stopped = wait_watched(proc.pid, self.timeout, lambda step: _ended(proc, step))
            _kill_group(proc)  # whatever the snippet started and left running
            if stopped is not None:
                return stopped.result()
        return _read_result(out, work / "stderr.txt", proc.returncode)


def _read_result(out: Path, stderr: Path, returncode: int | None) -> RunResult:
    try:
        data = json.loads(out.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        try:
            with stderr.open("rb") as err:
                err.seek(0, os.SEEK_END)
                err.seek(max(0, err.tell() - 2000))
                tail = err.read().decode("utf-8", "replace").strip().splitlines()[-3:]
        except OSError:
            tail = []
        status = f"exit status {returncode}" if returncode is not None else "no result"
        return RunResult("crashed", detail=status + (": " + " | ".join(tail) if tail else ""))
    return RunResult.from_json(data)


def _ended(proc: subprocess.Popen[bytes], step: float) -> bool:
    try:
        proc.wait(timeout=step)
    except subprocess.TimeoutExpired:
        return False
    return True


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Kill the snippet's session (the child leads it, so its id is the group's)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except OSError:  # the group is gone already
        if proc.poll() is None:
            proc.kill()
    proc.wait()
