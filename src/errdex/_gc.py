"""Pausing the cyclic garbage collector around work that builds many acyclic objects.

Shared by the scan and the static analyst (both parse every file of a checkout), so it
lives below both.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["gc_paused"]


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic GC: syntax trees hold no cycles, and the collector's passes over
    millions of short-lived AST nodes cost more than the parsing itself."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
