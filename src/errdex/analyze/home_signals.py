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
"""

from __future__ import annotations

import re

from .docstrings import summary
from .gathered import Gathered
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
    class's docstring says it cuts the work short. Empty otherwise."""
    cls = index.classes.get(canonical)
    if cls is None or cls.name.startswith("_") or worded or modules != {cls.module}:
        return ()
    if g.site.module != cls.module or g.conversion is not None:
        return ()
    about = summary(cls.docstring) if cls.docstring else None
    if not about or not _CUTS_SHORT.search(" ".join(about.split())):
        return ()
    inside = cls.module + "."
    if any(not e["qualname"].startswith(inside) for e in g.entry_points):
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
