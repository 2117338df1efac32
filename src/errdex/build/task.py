"""Run one package's worker process with a time and memory limit, and read its outcome.

This is the unit the build schedules (on Ray or in one process): it never raises, so a
package that fails is a row in the manifest, not a failed build.
"""

from __future__ import annotations

import hashlib
import json
import os
import resource
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["TaskOptions", "run_package"]

#: causes a fresh attempt may cure; the others are the package's own
TRANSIENT_CAUSES = frozenset({"timeout", "worker-lost"})


# what an exhausted address space looks like: Python's own error, or the loader's when
# an extension module cannot be mapped
_OUT_OF_MEMORY = ("MemoryError", "failed to map segment", "Cannot allocate memory")


@dataclass(frozen=True)
class TaskOptions:
    parts: str
    analyze: bool = True
    timeout: float = 900.0
    memory_mb: int = 4096


def _part_path(parts: Path, spec: str) -> Path:
    safe = "".join(c if c.isalnum() or c in "-_.=" else "_" for c in spec)[:120]
    digest = hashlib.sha256(spec.encode()).hexdigest()[:10]
    return parts / f"{safe}-{digest}.sqlite"


def _limits(memory_mb: int) -> Any:
    def apply() -> None:  # in the child, before exec
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    return apply


def _last_json(stdout: str) -> dict[str, Any] | None:
    for line in reversed(stdout.strip().splitlines()):
        if line.startswith("{"):
            try:
                value = json.loads(line)
            except json.JSONDecodeError:
                return None
            return value if isinstance(value, dict) else None
    return None


def run_package(spec: str, options: TaskOptions) -> dict[str, Any]:
    """Build ``spec`` in a child process; the outcome dict (``status`` done/failed)."""
    parts = Path(options.parts)
    part = _part_path(parts, spec)
    command = [sys.executable, "-m", "errdex.build.worker", spec, str(part)]
    with tempfile.TemporaryDirectory(prefix="errdex-build-") as scratch:
        if not options.analyze:
            command.append("--no-analyze")
        try:
            done = subprocess.run(
                command,
                capture_output=True,
                text=True,
                timeout=options.timeout,
                preexec_fn=_limits(options.memory_mb),
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
                cwd=scratch,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return {"spec": spec, "status": "failed", "cause": "timeout",
                    "message": f"not built within {int(options.timeout)} s"}  # fmt: skip
    outcome = _last_json(done.stdout)
    if outcome is not None:
        return outcome
    tail = (done.stderr.strip().splitlines() or [""])[-1][:300]
    if any(sign in done.stderr for sign in _OUT_OF_MEMORY):
        return {"spec": spec, "status": "failed", "cause": "memory",
                "message": f"the worker ran out of memory ({options.memory_mb} MiB): {tail}"}  # fmt: skip
    if done.returncode < 0:
        return {"spec": spec, "status": "failed", "cause": "killed",
                "message": f"the worker was killed by signal {-done.returncode}: {tail}"}  # fmt: skip
    return {"spec": spec, "status": "failed", "cause": "crash",
            "message": f"the worker exited with status {done.returncode}: {tail}"}  # fmt: skip
