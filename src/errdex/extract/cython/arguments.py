"""The errors Cython's generated argument parsing raises for a Python-visible function.

A ``def`` (or ``cpdef``) function's wrapper, which Cython writes from the signature,
raises ``TypeError``s that no ``raise`` in the source spells (Cython's
``FunctionArguments.c``): ``tostring() got an unexpected keyword argument 'x'``,
``get() takes at least 1 positional argument (0 given)``, ``f() got multiple values for
keyword argument 'b'`` (an argument given by position and by name: any function with an
argument that may be given either way), ``f() needs keyword-only argument b`` (each required
keyword-only argument, by name, as Cython 3.3.1's ``__Pyx_RaiseKeywordRequired`` writes it:
no quotes), ``Argument '_parent' has incorrect
type (expected lxml.etree._Element, got str)``. They are catalogued at the ``def`` line,
which is the line a Cython traceback prints for them when it prints one. Only what the
signature fixes is written: the function's own name, the counts, an argument typed with a
class of this file (printed as ``module.Class``) or a builtin type; any other type (a C
number, a class of another module) is left out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from typing import Any

from errdex.extract.left_out import note_left_out
from errdex.extract.site import ErrorSite
from errdex.template import Hole, Literal, MessageTemplate

from .module import cython_name, def_name
from .signature import allows_keywords, declarator_args, form_of, is_accessor, is_staticmethod

__all__ = ["NOTE", "SKIPPED", "STYLE", "argument_sites"]

#: ``evidence.site.style`` of these sites: raised before the function prints a frame, by
#: the function a traceback's innermost line calls (the matcher scores each on its own).
STYLE = "cython_arguments"

NOTE = (
    "raised by the argument parsing Cython generates for this signature: no raise in the "
    "source spells it"
)
#: Functions whose signature this module could not read, by name (a file by its path when
#: its tree could not be walked), in this process: their argument sites are left out, the
#: file's other sites stay (and a scan names them: :mod:`errdex.extract.left_out`).
SKIPPED: Counter[str] = Counter()
#: Python builtin types a ``def`` argument may be declared with, as a type test prints them.
_BUILTINS = {
    "str": "str",
    "unicode": "str",
    "bytes": "bytes",
    "bytearray": "bytearray",
    "list": "list",
    "dict": "dict",
    "tuple": "tuple",
    "set": "set",
    "frozenset": "frozenset",
}
#: Special methods whose wrapper is a slot of fixed arity (CPython's messages, not Cython's),
#: except these, which parse their arguments as a ``def`` does.
_PARSED_SPECIALS = frozenset({"__init__", "__cinit__", "__call__"})


def _stats(body: Any) -> list[Any]:
    if body is None:
        return []
    stats = getattr(body, "stats", None)
    return list(stats) if stats is not None else [body]


def _functions(
    stats: list[Any], prefix: str, classes: set[str], cdef: bool, keywords: bool | None
) -> Iterator[tuple[Any, str, bool, bool | None]]:
    """Each Python-visible function of the module and its classes, with its qualname,
    whether it is a ``cdef class``'s and the ``always_allow_keywords`` in force."""
    for node in stats:
        kind = type(node).__name__
        if kind in ("CClassDefNode", "PyClassDefNode"):
            name = def_name(node)
            if name:
                if kind == "CClassDefNode":
                    classes.add(name)
                yield from _functions(
                    _stats(node.body),
                    f"{prefix}{name}.",
                    classes,
                    kind == "CClassDefNode",
                    allows_keywords(node, keywords),
                )
        elif kind == "DefNode" or (kind == "CFuncDefNode" and getattr(node, "overridable", False)):
            name = def_name(node)
            if name and (
                not (name.startswith("__") and name.endswith("__")) or name in _PARSED_SPECIALS
            ):
                yield node, prefix + name, cdef, allows_keywords(node, keywords)
        elif kind == "StatListNode":
            yield from _functions(list(node.stats), prefix, classes, cdef, keywords)


def _arg(arg: Any) -> tuple[str, str | None]:
    """An argument's name and the type it is declared with (None: untyped)."""
    declarator = arg.declarator
    while declarator is not None and not cython_name(getattr(declarator, "name", "")):
        declarator = getattr(declarator, "base", None)
    name = cython_name(getattr(declarator, "name", "")) if declarator is not None else ""
    typed = cython_name(getattr(arg.base_type, "name", ""))
    if not name:  # ``self`` and other untyped names land in the base type
        return typed, None
    return name, typed or None


def _template(*parts: str | Hole) -> MessageTemplate:
    return MessageTemplate(Literal(p) if isinstance(p, str) else p for p in parts)


def _count_sites(name: str, required: int, positional: int, star: bool) -> list[MessageTemplate]:
    """``takes exactly|at least|at most N positional argument(s) (M given)``."""
    given = Hole("{given}", "given", kind="int")
    out: list[MessageTemplate] = []
    exact = required == positional and not star
    bounds = [("exactly", required)] if exact else []
    if not exact and required > 0:
        bounds.append(("at least", required))
    if not exact and not star:
        bounds.append(("at most", positional))
    for word, n in bounds:
        plural = "" if n == 1 else "s"
        out.append(
            _template(f"{name}() takes {word} {n} positional argument{plural} (", given, " given)")
        )
    return out


def argument_sites(
    tree: Any,
    file_path: str,
    module: str,
    module_classes: AbstractSet[str] = frozenset(),
) -> list[ErrorSite]:
    """The sites of every Python-visible function's generated argument parsing;
    ``module_classes``: the ``cdef class`` names the rest of the module defines (its
    includer and the files included with this one)."""
    classes: set[str] = set(module_classes)
    directives = getattr(tree, "directive_comments", None) or {}
    keywords = directives.get("always_allow_keywords", True)
    try:
        found = list(
            _functions(
                _stats(tree.body),
                "",
                classes,
                False,
                keywords if isinstance(keywords, bool) else None,
            )
        )
    except (
        Exception
    ) as exc:  # a tree not understood costs its argument sites, not the file's raises
        SKIPPED[file_path] += 1
        note_left_out(
            f"Cython: generated argument errors of every function not read "
            f"({type(exc).__name__}: {exc})"
        )
        return []
    sites: list[ErrorSite] = []
    for node, qualname, cdef, allow in found:
        try:
            templates = _templates(node, qualname, cdef, allow, module, classes)
        except Exception as exc:  # a signature not understood costs its own sites only
            SKIPPED[qualname.rsplit(".", 1)[-1]] += 1
            note_left_out(
                f"Cython: generated argument errors of {qualname}() at line {node.pos[1]} "
                f"not read ({type(exc).__name__}: {exc})"
            )
            continue
        line = node.pos[1]
        for template in templates:
            sites.append(
                ErrorSite(
                    file_path=file_path,
                    line=line,
                    end_line=line,
                    kind="raise",
                    template=template,
                    error_class="TypeError",
                    qualified_class="builtins.TypeError",
                    qualname=f"{module}.{qualname}",
                    function=qualname.rsplit(".", 1)[-1],
                    style=STYLE,
                    notes=[NOTE],
                    language="cython",
                )
            )
    return sites


def _templates(
    node: Any, qualname: str, cdef: bool, allow: bool | None, module: str, classes: set[str]
) -> list[MessageTemplate]:
    """The messages one function's generated parsing prints (:mod:`.signature`)."""
    name = qualname.rsplit(".", 1)[-1]
    if is_accessor(node):
        return []
    args = node.args if type(node).__name__ == "DefNode" else declarator_args(node)
    if cdef and args and not is_staticmethod(node):
        args = args[1:]  # ``self`` (``cls`` of a classmethod) is passed by the binding
    form = form_of(node, args, cdef, allow)
    if form == "none":
        return []
    declared = [(_arg(a), a) for a in args]
    templates: list[MessageTemplate] = []
    if form == "one":
        given = Hole("{given}", "given", kind="int")
        templates.append(_template(f"{name}() takes exactly one argument (", given, " given)"))
        templates.append(_template(f"{name}() takes no keyword arguments"))
    else:
        positional = [a for _, a in declared if not getattr(a, "kw_only", False)]
        required = sum(1 for a in positional if a.default is None)
        templates += _count_sites(
            name, required, len(positional), getattr(node, "star_arg", None) is not None
        )
        if getattr(node, "starstar_arg", None) is None:
            kw = Hole("{kw}", "kw")
            templates.append(_template(f"{name}() got an unexpected keyword argument '", kw, "'"))
        if any(not getattr(a, "pos_only", False) for a in positional):
            # one given by position and by name (``**kw`` or not): Cython 3.3.1's
            # __Pyx_RaiseDoubleKeywordsError
            kw = Hole("{kw}", "kw")
            templates.append(
                _template(f"{name}() got multiple values for keyword argument '", kw, "'")
            )
        for (arg_name, _), arg in declared:  # Cython's __Pyx_RaiseKeywordRequired
            if getattr(arg, "kw_only", False) and arg.default is None and arg_name:
                templates.append(_template(f"{name}() needs keyword-only argument {arg_name}"))
    for (arg_name, typed), _ in declared:
        expected = f"{module}.{typed}" if typed in classes else _BUILTINS.get(typed or "")
        if expected:
            got = Hole("{type}", "type")
            templates.append(
                _template(
                    f"Argument '{arg_name}' has incorrect type (expected {expected}, got ",
                    got,
                    ")",
                )
            )
    return templates
