"""How many sites of a class a function holds or calls directly: a docstring's raise
sentence is this raise's only where the function raises the class once and calls
nothing that raises it (:mod:`.doc_raise_fit`). Direct calls only: a deeper callee's
raise is seldom what the function's own docstring describes, and counting every
transitive callee dropped true sentences (``Telnet.rawq_getchar``'s "Raise EOFError
when connection is closed")."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping

from .callgraph import CallGraph

__all__ = ["direct_counts"]


def direct_counts(
    graph: CallGraph, in_function: Mapping[tuple[str, str], int]
) -> Counter[tuple[str, str]]:
    """``[(function, class)]``: the sites of the class in the function itself and in the
    functions it calls directly."""
    out: Counter[tuple[str, str]] = Counter()
    for (function, cls_key), n in in_function.items():
        out[(function, cls_key)] += n
        for caller in graph.callers.get(function, {}):
            out[(caller, cls_key)] += n
    return out
