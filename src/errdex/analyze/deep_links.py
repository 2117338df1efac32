"""How far below a test's call a site may lie when the test names no message.

Without a message a test is linked only to the one raise its calls reach (rule 3 of
:mod:`.tests_evidence`), one call away at most on main: deeper, a gap in the call graph
(C code, a callback, a dispatch table) could hide another ``ValueError``, and the
interpreter raises builtin classes unseen. A class the
repository defines is raised only by the repository's own raises, so a deeper one is
the raise the test provokes when the test's calls reach exactly that one, through exact
edges alone, reach no other (by any edge), and nothing on the way could raise the class
unseen (:func:`clear_path`): ``with self.assertRaises(archive.StreamError)`` around
``tar.extract(0)`` that reaches ``_seek``'s raise three calls down. A warning is
linked as deep whatever its category: ``warnings.warn`` calls are the repository's
own, and the interpreter does not issue a ``DeprecationWarning`` for a call the way it
raises a ``TypeError`` (issue 10: warnings through call chains as raises are). A
builtin class is linked as deep only where, besides, every call each function on the
way makes lands in the repository exactly (:func:`inside`): no C function or builtin
there could raise it.

The stdlib showed what "unseen" must cover (main vs branch, same session): a function
on the way that raises an exception held in a variable (``configparser``'s ``_read``
collects a ``ParsingError`` and raises ``e``), and a call on a receiver of no known
class (``plistlib.load``'s ``p.parse(fp)`` through its table of formats,
``xml.sax.parse``'s ``parser.parse(source)``): both hid the raise the test really
provokes, and a reached raise of a subclass was linked in its place.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterable, Mapping
from typing import Protocol

from .callgraph import _CONTAINER_METHODS, MAX_DEPTH, Precision, Reach, exact_targets
from .expects import SYNTAX_DUNDERS
from .facts import Expect, FuncFacts
from .repo import RepoIndex
from .sites import SiteView

__all__ = [
    "DEEP_DEPTH",
    "NO_MESSAGE_DEPTH",
    "Linker",
    "clear_path",
    "deep_link",
    "inside",
    "repository_classes",
]

#: The builtin exception classes: calling one builds the exception a raise raises.
_BUILTIN_EXCEPTIONS = frozenset(
    n for n, v in vars(builtins).items() if isinstance(v, type) and issubclass(v, BaseException)
)

#: Bases that run no code for ``self[k]``, ``k in self``, ``len(self)`` or iteration.
_PLAIN_BASES = frozenset({"builtins.object", "object", "builtins.Exception"})

#: Without a message, the one reachable site must be this close to a call the test makes,
#: through imports only: further away, a gap in the call graph could hide another site
#: (unless :func:`deep_link` finds the path clear).
NO_MESSAGE_DEPTH = 1

#: The deepest a site of a repository-defined class is linked without a message: as far
#: as the call graph's reverse walk goes.
DEEP_DEPTH = MAX_DEPTH


def repository_classes(index: RepoIndex, classes: Iterable[tuple[str, str]]) -> bool:
    """Whether every class the expectation names (as written, as it resolves) is one the
    repository defines: none is a builtin class or one errdex cannot resolve."""
    resolved = [canonical for _, canonical in classes]
    return bool(resolved) and all(c in index.classes for c in resolved)


def clear_path(index: RepoIndex, via: Iterable[str], raises_unknown: Callable[[str], bool]) -> bool:
    """Whether no function on ``via`` (the chain from the test's callee down to the
    raising function) is a function of the test suite (a raise reached only through the
    suite's own helpers is left open: ``test_sax``'s ``check_parse``), raises an
    exception of no known class (``raises_unknown``), is a method of a class with
    syntax hooks (:func:`_syntax_hooks`), or makes a call the graph cannot follow into
    the repository."""
    for name in via:
        func = index.function(name)
        if func is None or func.is_test or raises_unknown(name) or _syntax_hooks(index, func):
            return False  # a suite's own helper on the way is no path to trust
        if any(_gap(index, func, ref) for ref in func.calls):
            return False
    return True


def _syntax_hooks(index: RepoIndex, func: FuncFacts) -> bool:
    """Whether ``func`` is a method whose class runs code for syntax the graph does not
    see as a call: a ``__getitem__``/``__contains__``/… of the repository (``self[key]``
    in ``mailbox.Mailbox.pop`` runs ``__getitem__``, whose raise the test provokes before
    ``discard``'s), or a base outside the repository (a ``dict``'s own ``KeyError``)."""
    if func.cls is None:
        return False
    if any(index.method(func.cls, name) is not None for name in SYNTAX_DUNDERS):
        return True
    return any(
        base not in index.classes and base not in _PLAIN_BASES for base in index.bases(func.cls)
    )


def _gap(index: RepoIndex, func: FuncFacts, ref: tuple[str, ...]) -> bool:
    """A call on an object of no known class (a parameter, a local, ``self.x``, an
    unknown receiver) that lands in no repository function exactly: it may run any of
    them. A builtin container's method, or a module's function, is no gap."""
    head = ref[0] if ref else ""
    if not ref or ref[-1] in _CONTAINER_METHODS:
        return False
    unknown = (
        head == ""
        or head in func.params
        or head in func.local_calls
        or head in func.local_binds
        or head in func.bound_lines
        or (head in ("self", "cls") and len(ref) > 2)
    )
    return unknown and not exact_targets(index, func, ref)


class Linker(Protocol):
    """What :func:`deep_link` reads of the linker (:mod:`.tests_evidence`)."""

    index: RepoIndex
    sites: list[SiteView]
    by_function: dict[str, list[int]]
    reaches: dict[str, dict[str, Reach]]

    def class_key(self, expect: Expect) -> tuple[tuple[tuple[str, str], ...], bool | None]: ...


def deep_link(linker: Linker, expect: Expect, callees: Mapping[str, Precision], i: int) -> bool:
    """Whether site ``i``, more than a call below the test's calls, is linked without a
    message: a warning, or every class expected is the repository's, and each exact path
    from an exact callee down to its function is at most :data:`DEEP_DEPTH` long and
    clear."""
    function = linker.sites[i].function or ""
    classes, warning = linker.class_key(expect)
    paths = [
        reach.via
        for callee, precision in callees.items()
        if precision == "exact"
        and (reach := linker.reaches.get(callee, {}).get(function)) is not None
        and reach.precision == "exact"
    ]

    def unknown(name: str) -> bool:  # ``raise e``: a class errdex does not know
        return any(not linker.sites[j].canonical_class for j in linker.by_function.get(name, ()))

    own = warning is True or repository_classes(linker.index, classes)
    return (
        bool(paths)
        and all(len(p) - 1 <= DEEP_DEPTH for p in paths)
        and all(clear_path(linker.index, p, unknown) for p in paths)
        and (own or all(inside(linker.index, p) for p in paths))
    )


def inside(index: RepoIndex, via: Iterable[str]) -> bool:
    """Whether every call each function on ``via`` makes lands in a repository function
    exactly (or is a builtin container's method): for a builtin class, no C function or
    builtin on the way raises one unseen (``test.support``'s ``temp_dir(path)`` reaches
    ``tempfile.mkdtemp``'s ``FileExistsError``, but calls ``os.mkdir(path)`` first, whose
    own ``FileExistsError`` the test provokes)."""
    for name in via:
        func = index.function(name)
        if func is None:
            return False
        for ref in func.calls:
            if not ref or ref[-1] in _CONTAINER_METHODS or _exception(index, func, ref):
                continue  # ``raise ValueError(...)`` builds the raise, it raises nothing
            if not exact_targets(index, func, ref):
                return False
    return True


def _exception(index: RepoIndex, func: FuncFacts, ref: tuple[str, ...]) -> bool:
    """Whether ``ref`` names a builtin exception class, or a repository class with no
    constructor and no base outside the repository but ``object`` or an exception: one
    that builds its instance running nothing (``class Port(int): pass`` runs
    ``int.__new__``, whose ``ValueError`` ``Port('x')`` raises)."""
    if len(ref) == 1 and ref[0] in _BUILTIN_EXCEPTIONS:
        return True
    target = index.resolve(func.module, ref, func.local_imports)
    return (
        target is not None
        and target.kind == "class"
        and not exact_targets(index, func, ref)
        and _plain_ancestry(index, target.qualname)
    )


def _plain_ancestry(index: RepoIndex, cls: str) -> bool:
    """Whether every ancestor of ``cls`` is the repository's, ``object`` or a builtin
    exception class."""
    seen: set[str] = set()
    todo = [cls]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if name in index.classes:
            todo.extend(index.bases(name))
        elif name not in _PLAIN_BASES and name.removeprefix("builtins.") not in _BUILTIN_EXCEPTIONS:
            return False
    return True
