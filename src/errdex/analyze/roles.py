"""Sites that are not failures to avoid: abstract methods and control-flow signals.

A base class's ``raise NotImplementedError`` asks subclasses to override the method, and a
``__next__`` raising ``StopIteration`` or a ``SystemExit`` is how the code ends an
iteration or the program. Telling a developer to "make sure the condition does not hold"
there is false advice; these roles let the fields say what the site is for instead. A
role is given only on the evidence named in its docstring, never by a class's name alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .classes import ClassTree
from .docstrings import summary
from .gathered import Gathered, short_name
from .quoting import quote
from .repo import RepoIndex

__all__ = ["Role", "site_role"]

#: Control-flow classes, with the methods whose raise is the signal (None: anywhere).
_SIGNALS: dict[str, frozenset[str] | None] = {
    "builtins.StopIteration": frozenset({"__next__"}),
    "builtins.StopAsyncIteration": frozenset({"__anext__"}),
    "builtins.SystemExit": None,
    "builtins.KeyboardInterrupt": None,
    "builtins.GeneratorExit": None,
}
#: A library's own control-flow class, by what its docstring says it is: click's
#: ``Abort`` ("An internal signalling exception that signals Click to abort") and
#: ``Exit`` ("indicates that the application should exit").
_SIGNAL_DOC = re.compile(r"\bsignal(?:s|ling|led)?\b|\bshould exit\b", re.IGNORECASE)
#: Implementations named in an abstract method's solution, at most.
MAX_IMPLEMENTATIONS = 4


@dataclass(frozen=True, slots=True)
class Role:
    kind: str  # "abstract" or "signal"
    #: For "signal": the builtin class that makes it one; for "abstract": the base class.
    subject: str
    #: For "abstract": subclasses' methods of the same name, in the repository.
    implementations: tuple[str, ...] = ()


def site_role(g: Gathered, index: RepoIndex, tree: ClassTree) -> Role | None:
    """The role of ``g``'s site, or None for an ordinary error."""
    canonical = g.site.canonical_class or (
        f"builtins.{g.site.error_class}" if g.site.error_class else None
    )
    if canonical is None or g.site.kind != "raise":
        return None
    ancestors = tree.ancestors(canonical)
    if "builtins.NotImplementedError" in ancestors:
        return _abstract(g, index, tree)
    for signal, methods in _SIGNALS.items():
        if signal in ancestors and (methods is None or (g.func and g.func.name in methods)):
            return Role("signal", signal)
    about = _own_summary(g)
    if about and _SIGNAL_DOC.search(about):
        return Role("signal", canonical)
    return None


def _own_summary(g: Gathered) -> str | None:
    """The first sentences of the raised class's own docstring, in the repository."""
    info = g.class_info
    text = summary(info.get("docstring")) if info is not None else None
    return " ".join(text.split()) if text else None


def _abstract(g: Gathered, index: RepoIndex, tree: ClassTree) -> Role | None:
    """An unconditional ``raise NotImplementedError`` in a method: the method is abstract."""
    func = g.func
    if func is None or func.cls is None or g.site.guards:
        return None
    found = []
    for qualname in index.methods_by_name.get(func.name, []):
        for impl in index.functions.get(qualname, []):
            if impl.cls and impl.cls != func.cls and func.cls in tree.ancestors(impl.cls):
                found.append(impl.qualname)
    unique = sorted(dict.fromkeys(found))
    return Role("abstract", func.cls, tuple(unique[:MAX_IMPLEMENTATIONS]))


def role_documentation(g: Gathered, role: Role) -> str:
    """What the site is for, for ``documentation``."""
    if role.kind == "abstract":
        method = g.func.name if g.func else g.site.qualname
        return (
            f"`{short_name(role.subject)}.{method}` raises `NotImplementedError` unconditionally: "
            f"it is meant to be overridden by subclasses of `{short_name(role.subject)}`."
        )
    name = short_name(role.subject)
    if not role.subject.startswith("builtins."):
        return f"`{name}` is a control-flow signal, not a failure, as its docstring says."
    if name in ("StopIteration", "StopAsyncIteration"):
        return f"`{name}` here is the iterator protocol's end-of-iteration signal, not a failure."
    if name == "GeneratorExit":
        return (
            "`GeneratorExit` here is how a generator is told to close (`close()` or garbage "
            "collection), not a failure."
        )
    if name == "SystemExit":
        return "`SystemExit` here ends the program (the interpreter exits unless it is caught)."
    return (
        "`KeyboardInterrupt` here stops the program as Ctrl-C does; it derives from "
        "`BaseException`, so `except Exception` does not catch it."
    )


def role_solution(g: Gathered, role: Role) -> str:
    """The one thing to do about it, in the caller's terms."""
    if role.kind == "abstract":
        method = g.func.name if g.func else g.site.qualname
        text = f"Implement `{method}` in your subclass of `{short_name(role.subject)}`"
        if role.implementations:
            listed = ", ".join(f"`{q}`" for q in role.implementations)
            text += f" (the repository's own implementations: {listed})"
        return text + ", or use a subclass that implements it."
    name = short_name(role.subject)
    if not role.subject.startswith("builtins."):
        top = role.subject.partition(".")[0]
        return (
            f"`{name}` is how `{top}` signals what its docstring says "
            f"({quote(_own_summary(g) or '')}); do not treat it as a failure: let it "
            "propagate to the code that handles it."
        )
    if name == "GeneratorExit":
        return (
            "Nothing to fix: let `GeneratorExit` propagate (or return) so that the generator "
            "closes; do not catch it as an error."
        )
    if name == "StopIteration":
        return (
            "Nothing to fix: a `for` loop over the iterator ends here without an error; "
            "when calling `next()` by hand, pass a default (`next(it, None)`)."
        )
    if name == "StopAsyncIteration":
        return "Nothing to fix: an `async for` loop over the iterator ends here without an error."
    if name == "SystemExit":
        return (
            "Nothing to fix if the program is meant to end here; to keep running after it "
            "(in a test, say), catch `SystemExit`, e.g. with `pytest.raises(SystemExit)`."
        )
    return "Catch `KeyboardInterrupt` explicitly where the program must clean up before stopping."
