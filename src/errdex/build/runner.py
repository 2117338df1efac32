"""Schedule package tasks on Ray (a cluster, or a local one) or in this one process.

Ray gives the build its workers, placement and recovery from a lost worker; errdex adds
what Ray does not know: which failures are worth another attempt (a timeout, a lost
worker) and which are the package's own (no repository, no source), and a manifest so
that a stopped build resumes where it stopped.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from errdex.build.task import TRANSIENT_CAUSES, TaskOptions, run_package

__all__ = ["Placement", "Scheduler", "SchedulerError", "run_tasks"]

Scheduler = Literal["ray", "local"]
OnOutcome = Callable[[dict[str, Any]], None]


class SchedulerError(RuntimeError):
    """The scheduler cannot start (Ray missing, or no cluster at the address)."""


@dataclass(frozen=True)
class Placement:
    """``address``: None starts a local Ray cluster of ``workers`` CPUs; "auto" joins one."""

    scheduler: Scheduler = "ray"
    workers: int = 2
    address: str | None = None
    retries: int = 1


def _should_retry(outcome: dict[str, Any], attempt: int, retries: int) -> bool:
    transient = outcome.get("cause") in TRANSIENT_CAUSES or bool(outcome.get("transient"))
    return outcome.get("status") != "done" and transient and attempt <= retries


def _run_local(
    specs: Sequence[str], options: TaskOptions, retries: int, on_outcome: OnOutcome
) -> None:
    for spec in specs:
        attempt = 1
        while True:
            outcome = run_package(spec, options) | {"attempts": attempt}
            if not _should_retry(outcome, attempt, retries):
                break
            attempt += 1
        on_outcome(outcome)


def _start_ray(placement: Placement) -> Any:
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")  # a local cluster on loopback
    try:
        import ray
    except ImportError:
        raise SchedulerError(
            "--ray needs Ray, which is not installed: `pip install 'errdex[ray]'`, "
            "or build in one process with --ray off"
        ) from None

    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        try:
            if placement.address:
                ray.init(address=placement.address, **kwargs)
            else:
                ray.init(num_cpus=placement.workers, **kwargs)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            where = placement.address or "a local cluster"
            raise SchedulerError(f"cannot start Ray on {where}: {exc}") from None
    return ray


def _run_ray(
    specs: Sequence[str], options: TaskOptions, placement: Placement, on_outcome: OnOutcome
) -> None:
    ray = _start_ray(placement)
    from ray.exceptions import RayError

    # Ray re-runs a task whose worker died (max_retries); errdex's own retry loop
    # below handles the failures the task reports
    task = ray.remote(num_cpus=1, max_retries=placement.retries)(run_package)
    pending: dict[Any, tuple[str, int]] = {task.remote(s, options): (s, 1) for s in specs}
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            ref = ready[0]
            spec, attempt = pending.pop(ref)
            try:
                outcome = ray.get(ref) | {"attempts": attempt}
            except RayError as exc:
                outcome = {"spec": spec, "status": "failed", "cause": "worker-lost",
                           "message": f"{type(exc).__name__}: {str(exc)[:300]}", "attempts": attempt}  # fmt: skip
            if _should_retry(outcome, attempt, placement.retries):
                pending[task.remote(spec, options)] = (spec, attempt + 1)
                continue
            on_outcome(outcome)
    finally:
        if not placement.address:
            ray.shutdown()


def run_tasks(
    specs: Sequence[str], options: TaskOptions, placement: Placement, on_outcome: OnOutcome
) -> None:
    """Build every spec; ``on_outcome`` is called once per spec, in finishing order."""
    if not specs:
        return
    if placement.scheduler == "local":
        _run_local(specs, options, placement.retries, on_outcome)
    else:
        _run_ray(specs, options, placement, on_outcome)
