"""A run that waits on what never comes is stopped as blocked, soon and with where it
waits; one that computes times out by its CPU; one that only waits its turn gets time."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from errdex.verify import watch
from errdex.verify.cache import VerifyCache
from errdex.verify.executor import Executor, Job
from errdex.verify.sandbox import Sandbox

ACCEPT = "import socket\ns = socket.socket()\ns.bind(('127.0.0.1', 0))\ns.listen()\ns.accept()\n"
JOIN = (
    "import threading\nstop = threading.Event()\n"
    "t = threading.Thread(target=stop.wait)\nt.start()\nt.join()\n"
)


@pytest.mark.parametrize("fork", [False, True])
def test_a_server_waiting_in_accept_is_stopped_as_blocked_long_before_the_timeout(
    fork: bool,
) -> None:
    sandbox = Sandbox(timeout=30, fork=fork)
    try:
        started = time.monotonic()
        result = sandbox.run(ACCEPT)
        took = time.monotonic() - started
    finally:
        sandbox.close()
    assert result.status == "blocked", result
    assert "accept()" in result.detail and "inet_csk_accept" in result.detail
    assert took < 15, took  # the idle limit, not the 30 s clock


def test_a_thread_never_joined_is_blocked_and_a_busy_loop_still_times_out() -> None:
    sandbox = Sandbox(timeout=2)
    joined = sandbox.run(JOIN)
    assert joined.status == "blocked", joined
    assert "no CPU used" in joined.detail
    busy = sandbox.run("while True:\n    pass\n")
    assert busy.status == "timeout", busy


def test_a_short_wait_before_the_raise_is_not_cut_off() -> None:
    result = Sandbox(timeout=2).run("import time\ntime.sleep(1.5)\nraise KeyError('late')\n")
    assert (result.status, result.arg) == ("raised", "late")


def test_a_run_that_keeps_its_threads_runnable_gets_wall_time_past_the_timeout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A starved machine: the session is runnable and used little CPU. It is not stopped
    at ``timeout`` of wall time, only at ``slack`` times it."""
    state = watch.SessionState(cpu=0.5, running=True, wait="", processes=1)
    monkeypatch.setattr(watch, "session_state", lambda sid: state)
    w = watch.Watch(sid=1, timeout=10, started=0.0, _since=0.0)
    assert w.check(now=15.0) is None
    stopped = w.check(now=40.0)
    assert stopped is not None and stopped.status == "timeout"
    assert "0.5 s of CPU" in stopped.detail


def test_cpu_used_up_is_a_timeout_and_sleeping_on_is_blocked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    busy = watch.SessionState(cpu=10.2, running=True, wait="", processes=1)
    monkeypatch.setattr(watch, "session_state", lambda sid: busy)
    verdict = watch.Watch(sid=1, timeout=10, started=0.0, _since=0.0).check(now=12.0)
    assert verdict is not None and verdict.status == "timeout"
    asleep = watch.SessionState(cpu=0.3, running=False, wait="pipe_read", processes=2)
    monkeypatch.setattr(watch, "session_state", lambda sid: asleep)
    w = watch.Watch(sid=1, timeout=10, started=0.0, _since=0.0)
    assert w.check(now=1.0) is None  # the first look marks the CPU used so far
    verdict = w.check(now=1.0 + watch.IDLE)
    assert verdict is not None and verdict.status == "blocked"
    assert "a read from a pipe (kernel: pipe_read)" in verdict.detail


def test_a_blocked_run_is_counted_apart_and_cached(tmp_path: Path) -> None:
    """Blocking is the snippet's own doing (unlike a time-out on a busy machine): the
    next verify reads it from the cache instead of waiting again."""
    cache = VerifyCache(tmp_path / "cache.sqlite")
    try:
        first = Executor(Sandbox(timeout=20), cache, ("python", "3"), jobs=1)
        assert first.run_all([Job(ACCEPT)], "ctx")[Job(ACCEPT)].status == "blocked"
        assert (first.counts["blocked"], first.counts["timeout"]) == (1, 0)
        again = Executor(Sandbox(timeout=20), cache, ("python", "3"), jobs=1)
        assert again.run_all([Job(ACCEPT)], "ctx")[Job(ACCEPT)].status == "blocked"
        assert (again.counts["cached"], again.counts["ran"]) == (1, 0)
    finally:
        cache.close()
