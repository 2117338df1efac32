"""Whether a test's calls all land in C code a repository module re-exports.

``os.stat("file", dir_fd=0)`` under ``assertRaisesRegex(NotImplementedError, "dir_fd
unavailable")`` (``test_posix``) calls ``posix.stat``, which ``os.py`` takes with ``from
posix import *``: the message is C's. It fits ``shutil.rmtree``'s "dir_fd unavailable
on this platform" word for word, and with nothing the test calls reaching a site, that
fit alone made ten false links (issue 10, item 2). A call is outside when its module is
the repository's but the name is defined in none of the repository's code and the module
takes names from a star import of a module the repository does not hold; a test whose
calls are all outside reaches no Python raise by them.
"""

from __future__ import annotations

from .facts import CallRef, Expect
from .repo import RepoIndex

__all__ = ["calls_outside"]


def calls_outside(index: RepoIndex, expect: Expect) -> bool:
    """Whether the expectation makes calls and every one lands outside the repository."""
    func = index.function(expect.function) if expect.function else None
    local = func.local_imports if func is not None else None
    return bool(expect.calls) and all(
        _outside(index, expect.module, r, local) for r in expect.calls
    )


def _outside(index: RepoIndex, module: str, ref: CallRef, local: dict[str, str] | None) -> bool:
    if len(ref) < 2 or index.resolve(module, ref, local) is not None:
        return False
    owner = index.resolve(module, ref[:-1], local)
    if owner is None or owner.kind != "module":
        return False
    facts = index.modules.get(owner.qualname)
    if facts is None or "__getattr__" in facts.top or ref[-1] in facts.imports:
        return False
    return any(star not in index.modules for star in facts.star)
