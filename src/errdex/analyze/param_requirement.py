"""The condition under which a raise fires, said in a public entry point's parameters.

A requirement is written only where every name it reads is a parameter that reaches the
raise unchanged from the entry point's own parameters (:mod:`.chains` resolved that
binding exactly), or, among other conditions, the part over such parameters alone
(``partial``). The solutions (:mod:`.remedies`), the trigger and the tips say it in
those names.
"""

from __future__ import annotations

import ast
import builtins
import io
import re
import sys
import tokenize
from dataclasses import dataclass
from typing import Any

from errdex.evidence import EntryPoint
from errdex.template import Hole

from .chain_funcs import own_params
from .entrypoints import run_by_syntax
from .facts import FuncFacts
from .gathered import Gathered, short_name
from .guards import CONDITION_KINDS, free_names, has_private, negated, parse_guard
from .rebinding import rebound_before
from .returns_between import returns_before_raise

__all__ = [
    "ParamRequirement",
    "call_name",
    "innermost_condition",
    "message_shows",
    "module_constants",
    "param_requirement",
]

_BUILTINS = frozenset(dir(builtins))


def innermost_condition(g: Gathered) -> dict[str, Any] | None:
    """The closest condition to the raise, unless a handler is closer (then the raise
    translates a caught error, and negating an outer condition is no remedy)."""
    for guard in reversed(g.site.guards):
        if guard["kind"] == "except":
            return None
        if guard["kind"] in CONDITION_KINDS:
            return dict(guard)
    return None


def call_name(qualname: str, func: FuncFacts | None) -> str:
    """How a caller writes the call: ``open_archive()``, ``Archive()``, ``Archive.read()``."""
    if func is None or func.cls is None:
        name = short_name(qualname)
        if name in _BUILTINS and func is not None and func.module:  # ``gzip.open()``
            return f"{func.module.rpartition('.')[2]}.{name}()"
        return f"{name}()"
    cls = short_name(func.cls)
    if func.name in ("__init__", "__new__"):
        return f"{cls}()"
    return f"{cls}.{func.name}()"


@dataclass(frozen=True, slots=True)
class ParamRequirement:
    """The condition's negation over an entry point's own parameters."""

    entry: EntryPoint
    call: str  # ``open_archive()``
    params: tuple[str, ...]  # the entry point's parameters it reads
    requirement: str  # what must hold, in those names
    fires: str  # when it raises, in those names
    shown: tuple[str, ...]  # parameters whose value the message prints
    #: Other conditions on the way read what the caller does not pass (a local, ``self``):
    #: ``fires`` is then needed for the raise, not enough, and ``requirement`` is enough
    #: to avoid it (every condition must hold for the raise to run).
    partial: bool = False
    #: The conditions it stands for, in the raising function's names.
    condition: str = ""


def _renamed(text: str, names: dict[str, str]) -> str | None:
    """``text`` with the names in ``names`` replaced (attributes and keywords left alone)."""
    if parse_guard(text) is None:
        return None
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return None
    out = []
    significant = [t for t in tokens if t.type not in _SKIP_TOKENS]
    for i, tok in enumerate(significant):
        before = significant[i - 1].string if i else ""
        after = significant[i + 1].string if i + 1 < len(significant) else ""
        if tok.type == tokenize.NAME and tok.string in names and before != "." and after != "=":
            out.append((tok, names[tok.string]))
    for tok, new in reversed(out):  # one line: columns index the text directly
        if tok.start[0] != 1:
            return None
        text = text[: tok.start[1]] + new + text[tok.end[1] :]
    return text


_SKIP_TOKENS = frozenset(
    {
        tokenize.NEWLINE,
        tokenize.NL,
        tokenize.COMMENT,
        tokenize.INDENT,
        tokenize.DEDENT,
        tokenize.ENDMARKER,
    }
)


def message_shows(g: Gathered, param: str) -> bool:
    for part in g.site.template.parts:
        if isinstance(part, Hole):
            inner = part.text.strip("{}")
            if part.name == param or re.fullmatch(rf"{re.escape(param)}(?:[!:=].*)?", inner):
                return True
    return False


def _conditions(g: Gathered) -> str | None:
    """Every condition on the way to the raise, joined: all must hold for it to fire (an
    ``else`` after ``if a: … elif b: …`` fires only when neither holds)."""
    if innermost_condition(g) is None:
        return None
    texts = [str(x["text"]) for x in g.site.guards if x["kind"] in CONDITION_KINDS]
    if len(texts) == 1:
        return texts[0]
    parts = []
    for text in texts:
        node = parse_guard(text)
        if node is None:
            return None
        loose = isinstance(node, (ast.BoolOp, ast.IfExp, ast.Lambda, ast.NamedExpr))
        keep = isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And)
        parts.append(f"({text})" if loose and not keep else text)
    return " and ".join(parts)


def _conjuncts(g: Gathered) -> list[str] | None:
    """Each condition on the way, split at its top-level ``and``: all hold when it fires."""
    if innermost_condition(g) is None:
        return None
    out: list[str] = []
    for guard in g.site.guards:
        if guard["kind"] not in CONDITION_KINDS:
            continue
        node = parse_guard(str(guard["text"]))
        if node is None:
            return None
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
            out.extend(ast.unparse(v) for v in node.values)
        else:
            out.append(str(guard["text"]))
    return out


def _over_params(g: Gathered, usable: set[str], modules: set[str]) -> str | None:
    """The conditions on the way that read only parameters in ``usable`` (and imported
    ``modules``), joined."""
    parts = []
    for text in _conjuncts(g) or []:
        names = (free_names(text, usable) or set()) - modules
        if names and names <= usable:
            node = parse_guard(text)
            loose = isinstance(node, (ast.BoolOp, ast.IfExp, ast.Lambda, ast.NamedExpr))
            parts.append(f"({text})" if loose else text)
    return " and ".join(parts) or None


def param_requirement(g: Gathered) -> ParamRequirement | None:
    """The site's conditions over the raising function's parameters, said in the
    parameters of the nearest public entry point that passes them on unchanged. When
    other conditions read something else (a local, an attribute of ``self``), the ones
    over parameters alone (``partial``): negating one of them is still enough to avoid
    the raise. None when no condition reads only parameters."""
    condition = _conditions(g)
    func = g.func
    if condition is None or func is None:
        return None
    usable = set(own_params(func)) - _rebound(g, func)
    modules = set(g.import_lines)  # ``re`` in ``re.search(r'\$OUT', cmd)``: a caller has it too
    modules |= module_constants(g, func)
    own = own_params(func)  # ``format`` in ``TarInfo.tobuf(format=…)``: no builtin there
    names = (free_names(condition, own) or set()) - modules
    partial = returns_before_raise(g)  # ``if ismodule(o): if o.__file__: return …``
    if not names or not names <= usable:
        condition = _over_params(g, usable, modules) or ""
        names = (free_names(condition, own) or set()) - modules if condition else set()
        partial = True
        if not names:
            return None
    # one whose calls test no flag first (``call_later``, not ``call_soon``'s ``if
    # self._debug:``): what it is said in then holds on every call
    for entry in sorted(g.entry_points, key=lambda e: bool(e.get("onlyWhen"))):
        passes = entry.get("passes") or {}
        if not names <= passes.keys():
            continue
        mapping = {n: passes[n] for n in names}
        requirement = _renamed(negated(condition), mapping)
        fires = _renamed(condition, mapping)
        if requirement is None or fires is None or has_private(requirement):
            continue
        entry_func = g.entry_funcs.get(entry["qualname"])
        order = list(entry_func.params) if entry_func is not None else []
        rank = {p: i for i, p in enumerate(order)}
        params = tuple(sorted(set(mapping.values()), key=lambda p: (rank.get(p, len(rank)), p)))
        shown = tuple(
            p for p in params if any(message_shows(g, n) for n in names if mapping[n] == p)
        )
        call = call_name(entry["qualname"], entry_func)
        if run_by_syntax(entry["qualname"]) or has_private(call):
            continue  # ``io.OpenWrapper`` runs ``__getattr__(name)``: no call to pass to
        if entry_func is not None and _setter(entry_func):
            continue  # ``zf.comment = c`` runs ``ZipFile.comment``: nobody writes that call
        return ParamRequirement(entry, call, params, requirement, fires, shown, partial, condition)
    return _own_method_requirement(g, condition, names, partial)


def _setter(func: FuncFacts) -> bool:
    """A property's setter or deleter: an assignment runs it, not a call by name."""
    refs = {".".join(d) for d in func.decorators}
    return f"{func.name}.setter" in refs or f"{func.name}.deleter" in refs


def module_constants(g: Gathered, func: FuncFacts) -> set[str]:
    """The module's public top-level names a condition reads as they are
    (``return_when not in (FIRST_COMPLETED, FIRST_EXCEPTION, ALL_COMPLETED)``,
    ``isinstance(dec, Decimal)``): a caller names them too. A name the function binds
    or takes as a parameter is its own, not the module's; one bound to a platform test
    (``ACKNOWLEDGE = sys.platform == 'darwin'``) is no value a caller picks. None of a
    private module's (``arcpkg._header.BLOCK``): a caller of the package does not see
    them, unless the module is a pure-Python twin (``_pyio``), which is imported as is."""
    parts = func.module.split(".")
    if any(has_private(part) for part in parts) and not pure_python_twin(parts[0]):
        return set()
    own = set(func.bound_lines) | {p.lstrip("*") for p in func.params}
    return set(g.module_names) - own - set(g.constants)


def _rebound(g: Gathered, func: FuncFacts) -> frozenset[str]:
    """The parameters that may not hold the caller's value at the raise: those the body
    binds on a line before it (``SocketIO.__init__`` checks ``mode`` and only then
    binds ``mode += "b"``); in a loop, every one it binds (an earlier round may have
    run a later line)."""
    if any(guard["kind"] in ("for", "while") for guard in g.site.guards):
        return func.rebound
    return func.rebound & rebound_before(func, g.site.line, g.site.guards)


def _own_method_requirement(
    g: Gathered, condition: str, names: set[str], partial: bool
) -> ParamRequirement | None:
    """The requirement over the raising method's own parameters, when no entry point was
    found and the method has a public name on a private class (``_ConnectionBase
    .send_bytes``, inherited by ``Connection``): callers write ``conn.send_bytes(...)``;
    or a public name in a private module (:func:`_in_a_private_module`)."""
    func = g.func
    if g.entry_points or func is None or has_private(func.name):
        return None
    if (
        func.cls is not None
        and not func.name.startswith("__")
        and has_private(short_name(func.cls))
    ):
        call = f"{func.name}()"
    elif _in_a_private_module(g, func):
        call = call_name(func.qualname, func)
    else:
        return None  # a public class's method is found as an entry point when public
    requirement, fires = negated(condition), condition
    if has_private(requirement) or has_private(call):
        return None
    order = {p: i for i, p in enumerate(func.params)}
    params = tuple(sorted(names, key=lambda p: (order.get(p, len(order)), p)))
    shown = tuple(p for p in params if message_shows(g, p))
    entry = EntryPoint(qualname=func.qualname, depth=0, path=g.site.path, line=func.line)
    return ParamRequirement(entry, call, params, requirement, fires, shown, partial, condition)


#: Twins of CPython releases newer than the one errdex runs on (a scanned 3.13 stdlib).
_LATER_TWINS = frozenset({"_pydatetime", "_pylong", "_py_warnings"})


def pure_python_twin(top: str) -> bool:
    """A standard-library module that PEP 399 pairs with a C one (``_pyio``, ``_py_abc``,
    ``_pydecimal``): its ``_py`` prefix alone would also take ``_pytest``, a private
    package whose names no caller of pytest imports."""
    return top.startswith("_py") and (top in sys.stdlib_module_names or top in _LATER_TWINS)


def _in_a_private_module(g: Gathered, func: FuncFacts) -> bool:
    """A public function, class constructor or method of a public class, in a pure-Python
    twin of a module (``_pyio``, ``_py_abc``: PEP 399's ``_py`` prefix): errdex finds no
    public entry point there, but whoever imports the module calls it by that name
    (``_pyio.BytesIO.seek``, ``_pyio.FileIO.__init__``), with the arguments the public
    module's class takes. Other private modules hold helpers of the package's own
    (``email._header_value_parser.get_value``, ``re._parser.Tokenizer``) that no caller
    of the package calls. Not one that a C twin replaces here: no call reaches its lines."""
    if g.shadow is not None and g.shadow.kind == "replaced" and g.shadow.present:
        return False
    if not pure_python_twin(func.module.partition(".")[0]):
        return False
    inner = func.qualname[len(func.module) + 1 :].split(".")
    if func.name.startswith("__") and func.name not in ("__init__", "__new__"):
        return False
    return not any(part.startswith("_") for part in inner[:-1])
