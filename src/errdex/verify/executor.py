"""Runs many programs in parallel through the sandbox, each result cached by content hash.

Threads only wait here: each job is its own child process, so ``--jobs`` is how many
children run at once. A finished run is in the cache before the next starts, so an
interrupted ``verify`` resumes where it stopped. Time-outs are not cached (a busy
machine is no property of the snippet); a run stopped as blocked (it slept with no CPU
used, waiting on what never comes: :mod:`.watch`) is, and counted apart.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from .cache import VerifyCache, run_key
from .sandbox import RunResult, Sandbox

__all__ = ["Executor", "Job"]


@dataclass(frozen=True)
class Job:
    program: str
    warns: bool = False


@dataclass
class Executor:
    sandbox: Sandbox
    cache: VerifyCache | None
    interpreter: tuple[str, str]  # (executable, version)
    jobs: int = 2
    #: ran, cached, timeout, blocked, crashed
    counts: Counter[str] = field(default_factory=Counter)

    def key(self, job: Job, context: Any) -> str:
        full = [context, list(self.sandbox.sys_path)]
        return run_key(job.program, warns=job.warns, interpreter=self.interpreter, context=full)

    def run_all(
        self,
        jobs: Iterable[Job],
        context: Any,
        advance: Callable[[int], None] = lambda n: None,
    ) -> dict[Job, RunResult]:
        """Every distinct job's result (from the cache when it is there)."""
        out: dict[Job, RunResult] = {}
        todo: list[tuple[Job, str]] = []
        for job in dict.fromkeys(jobs):
            key = self.key(job, context)
            cached = self.cache.get(key) if self.cache is not None else None
            if cached is not None:
                out[job] = cached
                self.counts["cached"] += 1
                advance(1)
            else:
                todo.append((job, key))
        if not todo:
            return out
        with ThreadPoolExecutor(max_workers=max(1, self.jobs)) as pool:
            futures = {
                pool.submit(self.sandbox.run, job.program, warnings_as_errors=job.warns): (job, key)
                for job, key in todo
            }
            for future in as_completed(futures):
                job, key = futures[future]
                result = future.result()
                out[job] = result
                self.counts["ran"] += 1
                if result.status in ("timeout", "blocked", "crashed"):
                    self.counts[result.status] += 1
                if self.cache is not None and result.status != "timeout":
                    self.cache.put(key, result)
                advance(1)
        return out
