"""Where the calls errdex resolved up from a raise reach no public function but end where
Python or a script runs them: an object's ``__del__``, or a module run as a program.

Read-only review, session 39: "Which public call leads here is not known: no chain of
calls errdex resolved starts at a public function (calls through a callback, …)" was put
on ``Resource._close``, which only ``Resource.__del__`` calls, and on helpers only a
module's ``_main`` calls from its ``if __name__ == "__main__":`` block: the chain is
known, and its reasons did not apply. Said only where every top of the walk is such an
end, a function nothing calls (a caller that is cut off by the depth limit, or that
catches the class, leaves the way not known).
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass

from .chain_parts import Hop
from .chains import Chains
from .repo import RepoIndex

__all__ = ["WayEnd", "way_end"]


@dataclass(frozen=True, slots=True)
class WayEnd:
    """How the walk ends: ``del`` (a finalizer) or ``script`` (a module run as a
    program), the functions it ends at, and the module (``script``)."""

    kind: str
    functions: tuple[str, ...]
    module: str = ""


#: ``if __name__ == "__main__":`` (either way round), at a line's start.
_MAIN_BLOCK = re.compile(
    r"^if\s+(?:__name__\s*==\s*['\"]__main__['\"]|['\"]__main__['\"]\s*==\s*__name__)\s*:",
    re.MULTILINE,
)


def way_end(index: RepoIndex, chains: Chains, hops: Sequence[Hop]) -> WayEnd | None:
    """The end shared by every top of the walk (``hops``: what lets the class out), or
    None where any top is called from elsewhere or is neither end."""
    reached = {h.qualname for h in hops}
    tops = [h.qualname for h in hops if not _callers(chains, h.qualname) & reached]
    if not tops or any(_callers(chains, q) for q in tops):
        return None  # a caller the walk did not take (cut off, or catching): not known
    if all(q.rpartition(".")[2] == "__del__" for q in tops):
        return WayEnd("del", tuple(tops))
    modules = {_script_module(index, q) for q in tops}
    if len(modules) == 1 and (module := modules.pop()) is not None:
        return WayEnd("script", tuple(tops), module)
    return None


def _callers(chains: Chains, qualname: str) -> set[str]:
    return {c.qualname for c, _ in chains.callers.get(qualname, ()) if not c.is_test}


def _script_module(index: RepoIndex, qualname: str) -> str | None:
    """The module whose run as a program runs ``qualname``: defined under its
    ``if __name__ == "__main__":`` block, or a module-level function that block calls
    by name (``pydoc.cli``, ``_main``)."""
    func = index.function(qualname)
    module = index.modules.get(func.module) if func is not None else None
    if func is None or module is None or not index.root:
        return None  # the file is read: no directory, no reading
    if func.cls is not None or "<locals>" in func.qualname:
        return None
    try:
        with open(
            os.path.join(index.root, module.rel), encoding="utf-8", errors="replace"
        ) as handle:
            text = handle.read()
    except OSError:
        return None
    block = _MAIN_BLOCK.search(text)
    if block is None:
        return None
    lines = text[block.end() :].splitlines() or [""]
    body = [lines[0]]  # ``if __name__ == "__main__": main()`` on one line
    for line in lines[1:]:
        if line.strip() and not line[:1].isspace():
            break  # the block ends at the next line at the module's level
        body.append(line)
    called = re.search(rf"(?<![\w.])(?<!def ){re.escape(func.name)}\(", "\n".join(body))
    return func.module if called is not None else None
