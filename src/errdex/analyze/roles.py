"""Sites that are not failures to avoid: abstract methods and control-flow signals.

A base class's ``raise NotImplementedError`` asks subclasses to override the method, and a
``__next__`` raising ``StopIteration`` or a ``SystemExit`` is how the code ends an
iteration or the program. Telling a developer to "make sure the condition does not hold"
there is false advice; these roles let the fields say what the site is for instead. A
role is given only on the evidence named in its docstring, never by a class's name alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .abc_basis import abc_basis, abc_words
from .classes import ClassTree
from .docstrings import summary
from .exit_status import exit_documentation, exit_solution, exit_status
from .gathered import Gathered, short_name
from .guards import has_private
from .home_signals import home_catchers
from .overrides_raise import still_abstract
from .quoting import quote
from .repo import RepoIndex
from .sites import SiteView

__all__ = ["Raisers", "Role", "abstract_trigger", "raisers_of", "role_documentation", "site_role"]

#: The iterator and generator protocols' methods: a ``StopIteration`` there ends the
#: iteration (``next`` is the old spelling some iterators keep, ``send``/``throw`` a
#: generator's).
_ITERATOR_METHODS = frozenset({"__next__", "next", "send", "throw"})
_ASYNC_ITERATOR_METHODS = frozenset({"__anext__", "asend", "athrow"})
#: Control-flow classes, with the methods whose raise is the signal (None: anywhere).
_SIGNALS: dict[str, frozenset[str] | None] = {
    "builtins.StopIteration": _ITERATOR_METHODS,
    "builtins.StopAsyncIteration": _ASYNC_ITERATOR_METHODS,
    "builtins.SystemExit": None,
    "builtins.KeyboardInterrupt": None,
    "builtins.GeneratorExit": None,
}
#: A library's own control-flow class, by what its docstring says it is: click's
#: ``Abort`` ("An internal signalling exception that signals Click to abort") and
#: ``Exit`` ("indicates that the application should exit").
#: unittest's ``_ShouldStop`` ("The test should stop.") says it the same way.
_SIGNAL_DOC = re.compile(r"\bsignal(?:s|ling|led)?\b|\bshould (?:exit|stop|abort)\b", re.IGNORECASE)
#: A ``NotImplementedError`` message that asks for an override: without one (or a
#: message-less raise, or subclasses implementing the method, or an abstract class) an
#: unconditional raise says the operation is unsupported here ("Can't dup() %s
#: instances"), which is no abstract method.
_OVERRIDE_DOC = re.compile(
    r"\bsubclass|\boverrid|\bmust (?:be )?implement|\bimplemented (?:by|in)\b|\babstract\b",
    re.IGNORECASE,
)
#: How the extractor says a raise carries no message, or only a value it was given.
_NO_MESSAGE_STYLES = frozenset({"class_no_args", "variable"})
#: Implementations named in an abstract method's solution, at most.
MAX_IMPLEMENTATIONS = 4


@dataclass(frozen=True, slots=True)
class Role:
    #: "abstract"; "signal" (a builtin control-flow class, or a class whose docstring
    #: says it signals); "internal" (a private class raised without a message and
    #: caught by the library's own callers).
    kind: str
    #: For "signal": the builtin class that makes it one; for "abstract": the base class.
    subject: str
    #: For "abstract": subclasses' methods of the same name, in the repository, but for
    #: those that raise ``NotImplementedError`` again (:mod:`.overrides_raise`).
    implementations: tuple[str, ...] = ()
    #: For a ``StopIteration`` outside the protocol's methods: no public function
    #: reaches it through resolved calls (a helper of the library's own iteration).
    helper: bool = False
    #: For "internal" by :func:`_module_signal`: the handlers of its own module that
    #: catch it by name, ``(function, line)``.
    caught_at: tuple[tuple[str, int], ...] = ()
    #: For an ``@abstractmethod``: where its class gets ``ABCMeta`` (:mod:`.abc_basis`).
    abc_from: str | None = None


@dataclass(slots=True)
class Raisers:
    """Where a class is raised, over the catalogued sites."""

    modules: set[str] = field(default_factory=set)
    #: Some site gives it words of its own (``runpy._Error("No module named %s")``).
    worded: bool = False


def raisers_of(sites: Iterable[SiteView]) -> dict[str, Raisers]:
    """:class:`Raisers` by canonical class name."""
    out: dict[str, Raisers] = {}
    for site in sites:
        if site.canonical_class:
            found = out.setdefault(site.canonical_class, Raisers())
            found.modules.add(site.module)
            found.worded = found.worded or _worded(site)
    return out


def _worded(site: SiteView) -> bool:
    return any(run.strip() for run in site.template.literals)


def site_role(
    g: Gathered,
    index: RepoIndex,
    tree: ClassTree,
    raised_in: Mapping[str, Raisers] | None = None,
) -> Role | None:
    """The role of ``g``'s site, or None for an ordinary error. ``raised_in``: where
    each class is raised (:func:`raisers_of`)."""
    canonical = g.site.canonical_class or (
        f"builtins.{g.site.error_class}" if g.site.error_class else None
    )
    if canonical is None or g.site.kind != "raise":
        return None
    ancestors = tree.ancestors(canonical)
    if "builtins.NotImplementedError" in ancestors or _declared_abstract(g):
        return _abstract(g, index, tree)
    for signal, methods in _SIGNALS.items():
        if signal not in ancestors:
            continue
        if methods is None or (g.func and g.func.name in methods):
            return Role("signal", signal)
        if signal == "builtins.StopIteration" and _helper(g):
            return Role("signal", signal, helper=True)
    about = _own_summary(g)
    if about and _SIGNAL_DOC.search(about):
        return Role("signal", canonical)
    if _internal(g, canonical):
        return Role("internal", canonical)
    raisers = (raised_in or {}).get(canonical)
    caught = _module_signal(g, index, canonical, raisers)
    if caught:
        return Role("internal", canonical, caught_at=caught)
    home = home_catchers(g, index, canonical, raisers.worded, raisers.modules) if raisers else ()
    if home:  # a public class that cuts its module's work short (:mod:`.home_signals`)
        return Role("internal", canonical, caught_at=home)
    return None


def _declared_abstract(g: Gathered) -> bool:
    """``@abstractmethod`` on the raising method: ``Coroutine.send``'s ``raise
    StopIteration`` is what an override replaces, whatever the class raised."""
    func = g.func
    return func is not None and any(d[-1:] == ("abstractmethod",) for d in func.decorators)


def _helper(g: Gathered) -> bool:
    """A function no public entry point reaches, nested in another or caught by its
    callers: its ``StopIteration`` tells the library's own code to stop (the JSON
    scanner's ``_scan_once``), not a caller."""
    func = g.func
    if func is None or g.entry_points:
        return False
    return bool(g.caught_by) or "<locals>" in func.qualname


def _internal(g: Gathered, canonical: str) -> bool:
    """A private class of the repository's own, raised with no message of its own, that
    reaches no public function and that a caller catches: ``lib2to3``'s ``_EveryNode``."""
    name = short_name(canonical)
    return (
        g.class_info is not None
        and name.startswith("_")
        and _style(g) in _NO_MESSAGE_STYLES
        and bool(g.caught_by)
        and not g.entry_points
    )


def _module_signal(
    g: Gathered, index: RepoIndex, canonical: str, raised_in: Raisers | None
) -> tuple[tuple[str, int], ...]:
    """The handlers that make a private class a signal inside its own module: it is
    raised only in the module that defines it, never with words of its own (a message
    like ``_DeadlockError``'s "deadlock detected by %r", or ``runpy._Error``'s, which
    ``runpy`` prints, is meant to be read), and a function there catches it by name
    without raising it again (``pickle._Stop``, caught by ``_Unpickler.load``;
    ``unittest.case._UnexpectedSuccess``)."""
    cls = index.classes.get(canonical)
    if cls is None or not cls.name.startswith("_") or raised_in is None:
        return ()
    if raised_in.worded or raised_in.modules != {cls.module}:
        return ()
    module = index.modules.get(cls.module)
    if module is None:
        return ()
    found: list[tuple[str, int]] = []
    for written, where in module.handled.items():
        if index.canonical_class(cls.module, tuple(written.split("."))) == canonical:
            found.extend(where)
    return tuple(sorted(set(found), key=lambda x: (x[1], x[0])))


def _style(g: Gathered) -> str | None:
    style = g.site.evidence.get("site", {}).get("style")
    return str(style) if style else None


def _catchers(g: Gathered, role: Role | None = None) -> str:
    if role is not None and role.caught_at:
        return ", ".join(f"`{q}` (line {line})" for q, line in role.caught_at)
    return ", ".join(f"`{c['qualname']}` (line {c['line']})" for c in g.caught_by)


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
    found, defining = [], []
    for qualname in index.methods_by_name.get(func.name, []):
        for impl in index.functions.get(qualname, []):
            if impl.cls and impl.cls != func.cls and func.cls in tree.ancestors(impl.cls):
                found.append(impl.qualname)
                if not still_abstract(index, impl):  # an override that raises it again
                    defining.append(impl.qualname)
    unique = sorted(dict.fromkeys(found))
    asks = _style(g) == "class_no_args" or any(
        _OVERRIDE_DOC.search(run) for run in g.site.template.literals
    )
    if not (asks or unique or func.cls_abstract or _declared_abstract(g)):
        return None  # "Can't dup() %s instances": unsupported here, not to be overridden
    meta = abc_basis(index, func.cls) if _declared_abstract(g) else None
    defined = sorted(dict.fromkeys(defining))[:MAX_IMPLEMENTATIONS]
    return Role("abstract", func.cls, tuple(defined), abc_from=meta)


def abstract_trigger(g: Gathered) -> str | None:
    """For an ``@abstractmethod``'s raise, how it is reached at all (blind review
    2026-12-06: "raises unconditionally" left out that a subclass without an override
    cannot be instantiated under ``ABCMeta``); None for any other site."""
    if g.role is None or g.role.kind != "abstract" or not _declared_abstract(g) or g.func is None:
        return None
    base, method = short_name(g.role.subject), g.func.name
    return (
        f"Triggered only through an override that calls it (`super().{method}(...)`) or a "
        f"direct call of `{base}.{method}`: `{method}` is an `@abstractmethod`, so under "
        f"{abc_words(g.role.abc_from, base)} a subclass of `{base}` that does not override it "
        "cannot be instantiated."
    )


def role_documentation(g: Gathered, role: Role) -> str:
    """What the site is for, for ``documentation``."""
    if role.kind == "abstract" and _declared_abstract(g) and g.func is not None:
        base, method = short_name(role.subject), g.func.name
        return (
            f"`{base}.{method}` is an `@abstractmethod`: under {abc_words(role.abc_from, base)}"
            f" a subclass of `{base}` that does not override it cannot be "
            f"instantiated, so its `{g.site.error_class or 'raise'}` is reached only when an"
            f" override delegates to it (`super().{method}(...)`) or `{base}.{method}` is "
            "called directly."
        )
    if role.kind == "abstract":
        method = g.func.name if g.func else g.site.qualname
        raised = g.site.error_class or "an exception"
        return (
            f"`{short_name(role.subject)}.{method}` raises `{raised}` unconditionally: "
            f"it is meant to be overridden by subclasses of `{short_name(role.subject)}`."
        )
    name = short_name(role.subject)
    if role.kind == "internal" and role.caught_at:
        module = role.subject.rpartition(".")[0]
        own = "private class" if name.startswith("_") else "class"
        text = (
            f"`{name}` is `{module}`'s own {own}, raised only in that module, without "
            f"a message of its own, and caught there by name, in {g.site.path} "
            f"({_catchers(g, role)}): how the "
            "module signals inside itself, not a failure."
        )
        if own == "class":  # a public name: say why no caller sees it (.home_signals)
            text += (
                f" No public function outside `{module}` reaches this raise through the "
                "calls errdex resolved, and no other module of the library imports the class."
            )
        return text
    if role.kind == "internal":
        return (
            f"`{name}` is the library's own private class, raised here without a message and "
            f"caught by {_catchers(g)}: a signal inside the library, not a failure that calling "
            "code sees through the calls errdex resolved."
        )
    if not role.subject.startswith("builtins."):
        return f"`{name}` is a control-flow signal, not a failure, as its docstring says."
    if name in ("StopIteration", "StopAsyncIteration") and role.helper:
        return (
            f"`{name}` here tells the code that called this function that there is nothing "
            "(more) to produce: a control-flow signal, not a failure. No public function "
            "reaches it through the calls errdex resolved."
        )
    if name in ("StopIteration", "StopAsyncIteration"):
        return f"`{name}` here is the iterator protocol's end-of-iteration signal, not a failure."
    if name == "GeneratorExit":
        return (
            "`GeneratorExit` here is how a generator is told to close (`close()` or garbage "
            "collection), not a failure."
        )
    if name == "SystemExit":
        return exit_documentation(exit_status(g.source_file, g.site.line))
    return (
        "`KeyboardInterrupt` here stops the program as Ctrl-C does; it derives from "
        "`BaseException`, so `except Exception` does not catch it."
    )


def role_solution(g: Gathered, role: Role) -> str:
    """The one thing to do about it, in the caller's terms."""
    if role.kind == "abstract":
        method = g.func.name if g.func else g.site.qualname
        text = f"Implement `{method}` in your subclass of `{short_name(role.subject)}`"
        public = [q for q in role.implementations if not has_private(q)]
        if public:  # ``_collections_abc.Generator.__next__``: no name a caller imports
            listed = ", ".join(f"`{q}`" for q in public)
            text += f" (the repository's own implementations: {listed})"
        return text + ", or use a subclass that implements it."
    name = short_name(role.subject)
    if role.kind == "internal" and role.caught_at:
        module = role.subject.rpartition(".")[0]
        return (
            f"Nothing to fix: `{name}` is how `{module}` signals inside the module, which "
            "catches it by name; do not treat it as a failure."
        )
    if role.kind == "internal":
        return (
            f"Nothing to fix: `{name}` is caught inside the library ({_catchers(g)}); "
            "do not treat it as a failure."
        )
    if name in ("StopIteration", "StopAsyncIteration") and role.helper:
        return (
            f"Nothing to fix: `{name}` is how this helper says it has nothing (more) to "
            "produce; do not treat it as a failure."
        )
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
        template = g.site.template
        message = quote(template.display) if template.literals and not template.holes else None
        handlers = [h["text"] for h in g.site.guards if h["kind"] == "except"]
        caught = handlers[-1].partition(" was raised")[0] if handlers else None
        return exit_solution(exit_status(g.source_file, g.site.line), message, caught)
    return (
        "Nothing to fix: `KeyboardInterrupt` is how the program is told to stop (Ctrl-C); "
        "do not treat it as a failure. Clean-up in `finally` (or a `with` block) runs "
        "without catching it."
    )
