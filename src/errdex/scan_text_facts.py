"""A cached scan's part in keeping what package files' texts show between processes
(:mod:`errdex.extract.python.text_store`): the facts stored by earlier scans are loaded
when an extraction first needs them, and those made meanwhile are written back with
the plan (:meth:`errdex.scan_reuse.Plan.save`)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from errdex.extract.python.text_store import Stored, keeping
from errdex.scan_reuse import Plan

__all__ = ["texts_kept"]


@contextmanager
def texts_kept(plan: Plan | None) -> Iterator[None]:
    """Extractions within this block take package files' text facts from the plan's
    cache (none with ``plan.read`` off) and leave the new ones in ``plan.texts``."""
    if plan is None:
        yield
        return

    def load() -> Stored:
        return plan.cache.texts(plan.scope) if plan.read else {}

    with keeping(load) as fresh:
        plan.texts = fresh
        yield
