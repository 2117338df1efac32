"""A public class its own module raises to cut a piece of work short and catches itself.

jinja2's ``CompilerExit`` ("Any block that raises such an exception is not further
processed"), raised in ``CodeGenerator.visit_Extends`` and caught by
``CodeGenerator.blockvisit``, and ``xml.dom.expatbuilder.ParseEscape`` ("Exception raised
to short-circuit parsing"), caught by ``parseFile``/``parseString``, were written up as
failures in the paired blind review of stop 38 ("Catch `CompilerExit` around the call to
…", ``try-catch``, ``parse-error``), judged misleading: the library catches them. Their
names are public, so :func:`errdex.analyze.roles._module_signal` (private classes only)
left them out.

Every piece of evidence is needed, as a public class's name alone shows nothing:
``bdb.BdbQuit`` is raised without words only in ``bdb`` and caught there by name too, yet
reaches the user's program from ``set_trace()``; its docstring ("Exception to give up
completely") says nothing of cutting a piece of work short, so it stays an error.

Nor is a class that some public call lets out: ``parse_raw(text): return _step(text)``
(no ``try``) or a public generator that raises it were called internal (review rr6) while
the user's call gets it. Every resolved way in from a public function must pass through a
handler that swallows it (``Gathered.entry_points`` empty, ``caught_by`` not), and the
raising function must be no public one itself.
"""

from __future__ import annotations

import re

from .docstrings import summary
from .gathered import Gathered
from .guards import has_private
from .repo import RepoIndex

__all__ = ["home_catchers"]

#: The class's docstring says it cuts the work at hand short.
_CUTS_SHORT = re.compile(
    r"\bshort[- ]?circuit|\bfurther process|\bnot (?:be )?processed further\b"
    r"|\bstop (?:the )?(?:parsing|processing|visiting|compiling|compilation)\b",
    re.IGNORECASE,
)


def home_catchers(
    g: Gathered,
    index: RepoIndex,
    canonical: str,
    worded: bool,
    modules: set[str],
) -> tuple[tuple[str, int], ...]:
    """The handlers, ``(function, line)``, of the module that defines the public class
    ``canonical`` that catch it by name without raising it again, where: it is raised
    only in that module (``modules``: where the catalogue raises it) and never with words
    of its own (``worded``), no other module of the repository imports it, every public
    function that reaches this raise through resolved calls is in that module, and the
    class's docstring says it cuts the work short, and every resolved way in from a public
    function swallows it on the way (:func:`_caught_on_every_way`). Empty otherwise."""
    cls = index.classes.get(canonical)
    if cls is None or cls.name.startswith("_") or worded or modules != {cls.module}:
        return ()
    if g.site.module != cls.module or g.conversion is not None:
        return ()
    about = summary(cls.docstring) if cls.docstring else None
    if not about or not _CUTS_SHORT.search(" ".join(about.split())):
        return ()
    if not _caught_on_every_way(g):
        return ()
    for name, module in index.modules.items():
        if name != cls.module and canonical in module.imports.values():
            return ()
    home = index.modules.get(cls.module)
    if home is None:
        return ()
    found: set[tuple[str, int]] = set()
    for written, where in home.handled.items():
        if index.canonical_class(cls.module, tuple(written.split("."))) == canonical:
            found.update(where)
    return tuple(sorted(found, key=lambda x: (x[1], x[0])))


def _caught_on_every_way(g: Gathered) -> bool:
    """No public function lets the class out: none reaches the raise through resolved calls
    without a handler that swallows it (``entry_points``: what lets it out, re-raising
    handlers and sibling classes' included), some caller does swallow it, and the raising
    function is private or nested (a public one, a generator too, hands it to its caller)."""
    func = g.func
    if func is None or g.entry_points or not g.caught_by:
        return False
    return "<locals>" in func.qualname or has_private(func.qualname)
