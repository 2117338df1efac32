"""How far below a test's call a site may lie when the test names no message.

Without a message a test is linked only to the one raise its calls reach (rule 3 of
:mod:`.tests_evidence`). For a builtin class that raise must be one call away: deeper,
a gap in the call graph (C code, a callback, a dispatch table) could hide another
``ValueError``, and the interpreter raises builtin classes unseen. A class the
repository defines is raised only by the repository's own raises, all of which are
candidates: where the test's calls reach exactly one of them, through exact edges
alone, and reach no other (by any edge), a deeper one is the raise the test provokes:
``with self.assertRaises(tarfile.StreamError)`` around a read that reaches
``_Stream.seek`` three calls down.
"""

from __future__ import annotations

from collections.abc import Iterable

from .callgraph import MAX_DEPTH
from .repo import RepoIndex

__all__ = ["DEEP_DEPTH", "repository_classes"]

#: The deepest a site of a repository-defined class is linked without a message: as far
#: as the call graph's reverse walk goes.
DEEP_DEPTH = MAX_DEPTH


def repository_classes(index: RepoIndex, classes: Iterable[tuple[str, str]]) -> bool:
    """Whether every class the expectation names (as written, as it resolves) is one the
    repository defines: none is a builtin class or one errdex cannot resolve."""
    resolved = [canonical for _, canonical in classes]
    return bool(resolved) and all(c in index.classes for c in resolved)
