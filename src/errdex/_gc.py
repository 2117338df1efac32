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
    millions of short-lived AST nodes cost more than the parsing itself.

    On leaving, what the pause made and kept goes to the oldest generation (a freeze
    and an unfreeze: two list splices), not to the youngest: else the first allocation
    after it runs a young collection over every object made meanwhile (1.7 s of a
    jax re-scan's 6, for the cached facts and items it keeps). A cycle among them is
    still collected, by the next full collection. Objects someone froze before are
    left frozen: then the young collection is paid instead."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if gc.get_freeze_count() == 0:
                gc.freeze()
                gc.unfreeze()
            gc.enable()
