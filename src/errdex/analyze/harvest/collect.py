"""Run a repository's own test suite under the harvest plugin, then read what it captured.

The suite runs in a subprocess (``python -m pytest``) of the interpreter where the
target's code is importable, by default errdex's own; ``python=`` picks the target's
virtual environment. Failing tests are expected and harmless: only a run that pytest
itself could not carry out (usage or internal error, nothing collected) is an error.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from . import plugin

__all__ = [
    "Capture",
    "HarvestError",
    "HarvestInterrupted",
    "HarvestRun",
    "Probe",
    "PytestSummary",
    "locate_distribution",
    "package_pytest_args",
    "probe",
    "read_captures",
    "run_pytest",
]

PLUGIN_MODULE = "errdex.analyze.harvest.plugin"
#: The name the plugin is copied under when errdex is not importable in the target.
STANDALONE_MODULE = "errdex_harvest_plugin"
#: pytest exit codes after which the captures are usable: all passed, some failed,
#: interrupted (by a test raising KeyboardInterrupt, say).
USABLE_EXIT_CODES = frozenset({0, 1, 2})
_TAIL_LINES = 40

_PROBE = """
import json, os, sys
out = {"python": sys.version.split()[0], "executable": sys.executable}
try:
    import pytest
    out["pytest"] = pytest.__version__
except Exception as exc:
    out["pytest"] = None
    out["error"] = f"{type(exc).__name__}: {exc}"
try:
    import errdex.analyze.harvest.plugin as p
    out["plugin"] = os.path.realpath(p.__file__)
except Exception:
    out["plugin"] = None
print(json.dumps(out))
"""


class HarvestError(Exception):
    """The test suite could not be run or read; the message says what to do."""


class HarvestInterrupted(HarvestError):
    """Ctrl-C: the test run was stopped and nothing should be written."""

    def __init__(self, message: str, captures: int) -> None:
        super().__init__(message)
        self.captures = captures


@dataclass(frozen=True)
class Capture:
    """One expected exception or warning, as the plugin saw it."""

    kind: str  # exception, warning
    via: str  # pytest.raises, pytest.warns, assertRaises, assertRaisesRegex, assertWarns, ...
    error_class: str  # as a traceback prints it: 'networkx.exception.NetworkXError'
    message: str
    truncated: bool
    site: tuple[str, int] | None  # the raising frame inside the target (absolute path)
    frames: tuple[tuple[str, int, str], ...]  # innermost first
    reported: tuple[str, int] | None  # warnings: WarningMessage.filename/lineno
    test: str | None
    expected: tuple[str, ...]
    match: str | None

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Capture:
        site = data.get("site")
        reported = data.get("reported")
        return cls(
            kind=str(data["kind"]),
            via=str(data.get("via", "")),
            error_class=str(data["errorClass"]),
            message=str(data["message"]),
            truncated=bool(data.get("truncated", False)),
            site=(str(site[0]), int(site[1])) if site else None,
            frames=tuple((str(f[0]), int(f[1]), str(f[2])) for f in data.get("frames") or ()),
            reported=(str(reported[0]), int(reported[1])) if reported else None,
            test=data.get("test"),
            expected=tuple(str(e) for e in data.get("expected") or ()),
            match=data.get("match"),
        )


@dataclass(frozen=True)
class PytestSummary:
    """pytest's own account of the run, written by the plugin at session finish."""

    exitstatus: int
    collected: int
    counts: dict[str, int]
    #: Node ids of the tests that failed or errored: a capture in one confirms no link.
    failed: tuple[str, ...] = ()


@dataclass(frozen=True)
class Probe:
    """What the target interpreter offers: its version, pytest's, and our plugin."""

    python: str
    executable: str
    pytest_version: str
    plugin_path: str | None  # errdex's plugin as importable there, if it is


@dataclass
class HarvestRun:
    """One test run: the captures, pytest's summary and how the process ended."""

    captures: list[Capture]
    summary: PytestSummary | None
    returncode: int
    seconds: float
    command: list[str]
    probe: Probe
    output_tail: str = ""
    bad_lines: int = 0
    notes: list[str] = field(default_factory=list)


def probe(python: str, *, cwd: Path | None = None, env: Mapping[str, str] | None = None) -> Probe:
    """Check that ``python`` runs and has pytest, before starting a long test run."""
    try:
        done = subprocess.run(
            [python, "-c", _PROBE],
            cwd=cwd,
            env=dict(env) if env is not None else None,
            capture_output=True,
            text=True,
            timeout=120,
        )
    except FileNotFoundError as exc:
        raise HarvestError(
            f"no Python interpreter at {python}; give --python the path of the interpreter "
            "of the environment where the project's tests run (for example .venv/bin/python)"
        ) from exc
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise HarvestError(f"cannot run {python}: {exc}") from exc
    try:
        info = json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError) as exc:
        tail = (done.stderr or done.stdout).strip()[-800:]
        raise HarvestError(f"{python} does not run as a Python interpreter: {tail}") from exc
    if not info.get("pytest"):
        raise HarvestError(
            f"pytest is not installed in {info.get('executable') or python} "
            f"({info.get('error', 'cannot import pytest')}); install it there "
            f"(`{python} -m pip install pytest`) or give --python the interpreter of the "
            "environment where the project's tests run"
        )
    return Probe(
        python=str(info["python"]),
        executable=str(info["executable"]),
        pytest_version=str(info["pytest"]),
        plugin_path=info.get("plugin"),
    )


_LOCATE = """
import importlib.metadata as m, json, os, sys
name = sys.argv[1]
try:
    dist = m.distribution(name)
except m.PackageNotFoundError:
    owners = sorted(set(m.packages_distributions().get(name, [])))
    dist = m.distribution(owners[0]) if len(owners) == 1 else None
out = None
if dist is not None:
    out = {"root": os.path.realpath(str(dist.locate_file(""))), "version": dist.version}
print(json.dumps(out))
"""


def locate_distribution(python: str, name: str) -> tuple[Path, str] | None:
    """Where ``python`` has distribution ``name`` installed (site-packages) and its version.

    An installed package scanned in errdex's environment and tested in another one is the
    same code only if the versions agree; its records' paths are then valid there too.
    """
    try:
        done = subprocess.run(
            [python, "-c", _LOCATE, name], capture_output=True, text=True, timeout=120
        )
        found = json.loads(done.stdout.strip().splitlines()[-1])
    except (OSError, subprocess.TimeoutExpired, ValueError, IndexError) as exc:
        raise HarvestError(f"cannot ask {python} where {name} is installed: {exc}") from exc
    if not found:
        return None
    return Path(found["root"]), str(found["version"])


def read_captures(path: Path) -> tuple[list[Capture], PytestSummary | None, int]:
    """Captures, pytest's summary and the count of unreadable lines (a killed writer's last)."""
    captures: list[Capture] = []
    summary: PytestSummary | None = None
    bad = 0
    if not path.exists():
        return captures, summary, bad
    with path.open(encoding="utf-8", errors="replace") as fh:
        for line in fh:
            if not line.strip():
                continue
            try:
                data = json.loads(line)
                if data.get("v") != plugin.FORMAT_VERSION:
                    raise ValueError("unknown format")
                if data["type"] == "capture":
                    captures.append(Capture.from_json(data))
                elif data["type"] == "summary":
                    summary = PytestSummary(
                        exitstatus=int(data["exitstatus"]),
                        collected=int(data.get("collected", 0)),
                        counts={str(k): int(v) for k, v in data.get("counts", {}).items()},
                        failed=tuple(str(t) for t in data.get("failed", ())),
                    )
            except (ValueError, KeyError, TypeError, IndexError):
                bad += 1
    return captures, summary, bad


def package_pytest_args(
    root: Path, tops: Iterable[str], user_args: Sequence[str] = ()
) -> list[str]:
    """Arguments that run an installed package's bundled tests, by import name.

    ``--rootdir`` is site-packages so node ids read ``networkx/…/test_x.py::test_y``,
    the cache plugin is off so nothing is written into site-packages, and the import
    names are added unless ``user_args`` already name a module of the package.
    """
    names = sorted({PurePosixPath(t).stem for t in tops})
    targeted = any(a.split("::")[0].replace("/", ".").split(".")[0] in names for a in user_args)
    return [
        "--pyargs",
        "--rootdir",
        str(root),
        "-p",
        "no:cacheprovider",
        *user_args,
        *([] if targeted else names),
    ]


def _plugin_args(found: Probe, workdir: Path, env: dict[str, str]) -> list[str]:
    """``-p`` our plugin by name when the target imports this very file, else a copy."""
    ours = os.path.realpath(plugin.__file__)
    if found.plugin_path == ours:
        return ["-p", PLUGIN_MODULE]
    shutil.copyfile(ours, workdir / f"{STANDALONE_MODULE}.py")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(workdir), env.get("PYTHONPATH", "")) if p)
    return ["-p", STANDALONE_MODULE]


def _tail(path: Path, lines: int = _TAIL_LINES) -> str:
    if not path.exists():
        return ""
    with path.open(encoding="utf-8", errors="replace") as fh:
        return "".join(deque(fh, maxlen=lines)).rstrip()


#: How ``_stop`` ends the child after Ctrl-C: a signal (None: just wait), then seconds to wait.
#: The terminal sends SIGINT to the whole process group, so pytest usually needs no more.
STOP_STEPS: tuple[tuple[int | None, float], ...] = (
    (None, 5.0),
    (signal.SIGINT, 10.0),
    (signal.SIGTERM, 5.0),
    (signal.SIGKILL, 5.0),
)


def _wait(proc: subprocess.Popen[bytes]) -> int:
    return proc.wait()


def _stop(proc: subprocess.Popen[bytes]) -> None:
    """Let pytest finish its Ctrl-C handling, then insist: SIGINT, SIGTERM, SIGKILL."""
    for sig, wait in STOP_STEPS:
        if proc.poll() is not None:
            return
        try:
            if sig is not None:
                proc.send_signal(sig)
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue
        except KeyboardInterrupt:
            continue  # Ctrl-C again: go to the next, harder step
    with contextlib.suppress(OSError, subprocess.TimeoutExpired):
        proc.kill()
        proc.wait(timeout=5.0)


@contextlib.contextmanager
def _workdir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="errdex-harvest-") as tmp:
        yield Path(tmp)


def run_pytest(
    *,
    cwd: Path,
    roots: Sequence[Path],
    pytest_args: Sequence[str] = (),
    python: str | None = None,
    echo: bool = False,
    env: Mapping[str, str] | None = None,
) -> HarvestRun:
    """Run ``python -m pytest`` in ``cwd`` with the plugin; ``roots`` are the target's code.

    ``echo`` lets pytest write to this process's terminal; otherwise its output goes to a
    file whose tail is kept for error messages. Raises :class:`HarvestError` when pytest
    cannot run or reports a usage/internal error or no tests, and
    :class:`HarvestInterrupted` on Ctrl-C (after the child has stopped).
    """
    interpreter = python or sys.executable
    base_env = dict(os.environ if env is None else env)
    found = probe(interpreter, cwd=cwd, env=base_env)
    with _workdir() as work:
        out = work / "captures.jsonl"
        log = work / "pytest.log"
        run_env = dict(base_env)
        run_env[plugin.ENV_OUT] = str(out)
        run_env[plugin.ENV_ROOTS] = os.pathsep.join(str(r) for r in roots)
        command = [
            interpreter,
            "-m",
            "pytest",
            *_plugin_args(found, work, run_env),
            "--continue-on-collection-errors",
            *pytest_args,
        ]
        started = time.perf_counter()
        with log.open("wb") as log_fh:
            try:
                proc = subprocess.Popen(
                    command,
                    cwd=cwd,
                    env=run_env,
                    stdin=subprocess.DEVNULL,
                    stdout=None if echo else log_fh,
                    stderr=None if echo else subprocess.STDOUT,
                )
            except OSError as exc:
                raise HarvestError(f"cannot start {interpreter}: {exc}") from exc
            try:
                returncode = _wait(proc)
            except KeyboardInterrupt:
                _stop(proc)
                captures, _, _ = read_captures(out)
                raise HarvestInterrupted(
                    f"interrupted: the test run was stopped after {len(captures)} captures; "
                    "nothing was written",
                    len(captures),
                ) from None
        seconds = time.perf_counter() - started
        captures, summary, bad = read_captures(out)
        tail = "" if echo else _tail(log)
    if returncode == 5:
        raise HarvestError(
            f"pytest collected no tests in {cwd} (arguments: {' '.join(pytest_args) or 'none'}); "
            "give the tests to run after --" + (f"\n{tail}" if tail else "")
        )
    if returncode not in USABLE_EXIT_CODES:
        raise HarvestError(
            f"pytest stopped with exit code {returncode} (usage or internal error), "
            f"running: {' '.join(command)}" + (f"\n{tail}" if tail else "")
        )
    run = HarvestRun(
        captures=captures,
        summary=summary,
        returncode=returncode,
        seconds=seconds,
        command=command,
        probe=found,
        output_tail=tail,
        bad_lines=bad,
    )
    if summary is None:
        run.notes.append("pytest ended before its session finished: counts are unknown")
    return run
