"""Is a running snippet computing, waiting on the machine, or blocked for good?

A wall-clock limit alone cannot tell a snippet that waits forever (a server's
``accept()``, ``input()`` on a pipe, a thread that is never joined, ``sleep(60)``) from
one that would finish in a second of CPU on a machine eight processes share: both were
"timed out" after the same ten seconds, the first wasting them, the second lost (time-outs
are not cached, so every later run paid for it again). The snippet's session is read from
``/proc`` instead: the CPU it has used, and whether any of its threads can run.

* used ``timeout`` CPU seconds: it computes too long, a time-out as before;
* every thread asleep and no CPU used for ``idle`` seconds: blocked, stopped at once, with
  where the kernel has it waiting (``inet_csk_accept``: a socket's accept) — a property of
  the snippet, so it is cached and never again run;
* otherwise it waits its turn for the CPU, up to ``slack`` times ``timeout`` of wall time.

Where ``/proc`` cannot be read (not Linux), the wall-clock limit is all there is.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from .sandbox import RunResult

__all__ = ["IDLE", "SLACK", "Verdict", "Watch", "session_state", "wait_watched", "waiting_in"]

#: Seconds a session may sleep without using CPU before it counts as blocked.
IDLE = 2.5
#: Seconds before ``/proc`` is first read (a look costs a few ms; most runs are over by then).
FIRST_LOOK = 0.5
#: Wall time allowed, as a multiple of the CPU budget, for a session that keeps running.
SLACK = 2.0
_PROC = "/proc"
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
#: The kernel's wait channels a blocked snippet is most often found in, in words.
_WAITS = {
    "inet_csk_accept": "a socket's accept()",
    "unix_stream_read_generic": "a read from a socket",
    "sk_wait_data": "a read from a socket",
    "wait_woken": "a read from a socket or terminal",
    "pipe_read": "a read from a pipe",
    "pipe_write": "a write to a full pipe",
    "futex_wait_queue": "a lock, a thread's join or a queue",
    "futex_wait_queue_me": "a lock, a thread's join or a queue",
    "futex_do_wait": "a lock, a thread's join or a queue",
    "hrtimer_nanosleep": "a sleep",
    "do_nanosleep": "a sleep",
    "do_sys_poll": "poll()/select() on files or sockets",
    "poll_schedule_timeout": "poll()/select() on files or sockets",
    "do_select": "poll()/select() on files or sockets",
    "do_epoll_wait": "an event loop's epoll wait",
    "ep_poll": "an event loop's epoll wait",
    "do_wait": "a child process to end",
    "sigsuspend": "a signal",
    "sys_pause": "a signal",
}


@dataclass(frozen=True)
class SessionState:
    """What ``/proc`` says of one session: its CPU seconds, whether a thread can run,
    and the wait channel of its first sleeping thread."""

    cpu: float
    running: bool
    wait: str
    processes: int


def _stat(path: str) -> list[str] | None:
    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8", "replace")
    except OSError:
        return None
    # the command name is in parentheses and may hold spaces: split after the last ')'
    head, _, rest = text.rpartition(")")
    return [head.split(" (", 1)[0], *rest.split()] if head else None


def session_state(sid: int, proc: str = _PROC) -> SessionState | None:
    """The session ``sid``'s processes summed up, or None where ``/proc`` is not there."""
    try:
        entries = os.listdir(proc)
    except OSError:
        return None
    cpu = 0.0
    running = False
    wait = ""
    count = 0
    for pid in entries:
        if not pid.isdigit():
            continue
        fields = _stat(f"{proc}/{pid}/stat")
        # fields: pid, state, ppid, pgrp, session, ..., utime [12], stime [13]
        if fields is None or len(fields) < 14 or fields[4] != str(sid) or fields[1] in "ZX":
            continue  # another session's, or a dead process waiting to be reaped
        count += 1
        cpu += (int(fields[12]) + int(fields[13])) / _TICK
        for task in _tasks(f"{proc}/{pid}"):
            if task[1] in ("R", "D"):  # running, or in the disk's hands: not idle
                running = True
            elif not wait and task[1] == "S":
                wait = _wchan(f"{proc}/{pid}/task/{task[0]}")
    return SessionState(cpu, running, wait, count)


def _tasks(entry: str) -> list[list[str]]:
    try:
        names = [t for t in os.listdir(f"{entry}/task") if t.isdigit()]
    except OSError:
        return []
    return [fields for t in names if (fields := _stat(f"{entry}/task/{t}/stat"))]


def _wchan(task: str) -> str:
    try:
        with open(f"{task}/wchan", encoding="utf-8", errors="replace") as f:
            return f.read().strip()
    except OSError:
        return ""


def waiting_in(wchan: str) -> str:
    """The wait channel in words, with the kernel's name beside it."""
    said = _WAITS.get(wchan.split(".", 1)[0])  # 'poll_schedule_timeout.constprop.0'
    if said is None:
        return f"the kernel's {wchan}" if wchan and wchan != "0" else "an unknown wait"
    return f"{said} (kernel: {wchan})"


@dataclass(frozen=True)
class Verdict:
    """Why a run was stopped: ``timeout`` (computing, or never scheduled) or ``blocked``."""

    status: Literal["timeout", "blocked"]
    detail: str
    seconds: float = 0.0  # wall time until it was stopped

    def result(self) -> RunResult:
        from .sandbox import RunResult  # the sandbox imports this module

        return RunResult(self.status, detail=self.detail, seconds=round(self.seconds, 3))


@dataclass
class Watch:
    """Polled while a snippet runs; :meth:`check` says when to stop it and why."""

    sid: int
    timeout: float
    idle: float = IDLE
    slack: float = SLACK
    started: float = field(default_factory=time.monotonic)
    _cpu: float = 0.0
    _since: float = field(default_factory=time.monotonic)  # last CPU used or thread running
    _seen: bool = False

    def check(self, now: float | None = None) -> Verdict | None:
        """None to go on waiting, else why the run is stopped now."""
        now = time.monotonic() if now is None else now
        wall = now - self.started
        state = session_state(self.sid)
        if state is None or state.processes == 0:
            # no /proc, or the session is gone (its answer is on the way): the wall limit
            return self._wall_only(wall)
        self._seen = True
        if state.cpu >= self.timeout:
            said = f"used {state.cpu:.1f} s of CPU (limit {self.timeout:g} s)"
            return Verdict("timeout", said, wall)
        if state.running or state.cpu > self._cpu + 0.02:  # ran since the last mark
            self._since, self._cpu = now, state.cpu
        if now - self._since >= self.idle:
            return Verdict(
                "blocked",
                f"blocked: waited {now - self._since:.1f} s in {waiting_in(state.wait)} "
                f"with no CPU used ({state.cpu:.2f} s in all)",
                wall,
            )
        if wall >= self.timeout * self.slack:
            return Verdict(
                "timeout",
                f"no result within {wall:.0f} s of wall time ({state.cpu:.1f} s of CPU)",
                wall,
            )
        return None

    def _wall_only(self, wall: float) -> Verdict | None:
        limit = self.timeout * (self.slack if self._seen else 1.0)
        if wall >= limit:
            return Verdict("timeout", f"no result within {self.timeout:g} s", wall)
        return None


def wait_watched(sid: int, timeout: float, ended: Callable[[float], bool]) -> Verdict | None:
    """Wait for a run whose session is ``sid``: ``ended(step)`` waits up to ``step``
    seconds and says whether it ended. None once it has, else why it must be stopped
    (the caller kills the session). Short steps first: most snippets end in milliseconds."""
    watch = Watch(sid, timeout)
    step = 0.05
    while not ended(step):
        if time.monotonic() - watch.started >= FIRST_LOOK:
            verdict = watch.check()
            if verdict is not None:
                return verdict
        step = min(0.25, step * 2)
    return None
