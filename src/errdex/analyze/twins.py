"""Python code that runs only where a C twin fails to import, in the shapes
:mod:`errdex.analyze.shadows` (a later import over a definition) does not read:

* a definition made inside the ``except ImportError`` of a ``try`` that imports the
  same name (``try: from _locale import *`` / ``except ImportError: def setlocale``);
* a definition bound to a public name only in that fallback: ``Pickler = _Pickler`` in
  the handler of ``try: from _pickle import Pickler``, or ``scanstring = c_scanstring
  or py_scanstring`` where ``c_scanstring`` is imported in a ``try`` (json.decoder);
* a whole module imported only in such a fallback: ``decimal.py``'s ``try: from
  _decimal import *`` / ``except ImportError: from _pydecimal import *``. Whether no
  other module of the library imports it is decided over the repository
  (:func:`twin_modules`).

Everything is read from the module's own statements, in order. Whether the ``try``
succeeds here is known only for a module of this interpreter (built in or compiled into
its standard library, :func:`errdex.analyze.shadows.interpreter_module`): it is
imported and asked for each name (``_ctypes`` has no ``_dyld_shared_cache_contains_path``
off macOS, so that fallback is what runs there).
"""

from __future__ import annotations

import ast
import importlib
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from .facts import within_module
from .package_twins import package_twins
from .shadows import Shadow, catches_import_error, interpreter_module, resolved_module, star_names

if TYPE_CHECKING:
    from .repo import RepoIndex

__all__ = [
    "ShadowFact",
    "TwinFacts",
    "dead_handlers",
    "dead_here",
    "provides",
    "shadow_of",
    "shadowed_by",
    "twin_facts",
    "twin_modules",
]


class ShadowFact(NamedTuple):
    """What runs instead of a site's code: the C module, and where it is imported."""

    name: str  # the site's top-level definition (its module, for ``kind == "module"``)
    module: str  # the module that runs instead
    line: int  # the line importing it
    conditional: bool  # inside ``try`` … ``except ImportError``: kept when it fails
    #: ``replaced``: a later import or a fallback definition (:mod:`~errdex.analyze.shadows`);
    #: ``rebound``: ``bound`` is the C one, and this definition only where it fails;
    #: ``module``: the whole module is imported (by ``importer``) only where it fails.
    kind: str = "replaced"
    bound: str = ""
    importer: str = ""  # the importing module's path, for ``kind == "module"``
    present: bool = False  # this interpreter has ``module``: the fallback does not run here
    #: The ``if`` test the import runs under (:class:`~errdex.analyze.shadows.Shadow`).
    guard: str = ""
    caught: bool = False  # with a guard: also inside ``try`` … ``except ImportError``


@dataclass(slots=True)
class TwinFacts:
    #: Definition replaced where the ``try``'s import works -> that import: defined only
    #: in the fallback handler, or rebound to an attribute of the imported C module.
    replaced: dict[str, Shadow] = field(default_factory=dict)
    #: Definition -> (C module, import line, the public name it is bound to only where
    #: that import fails).
    rebound: dict[str, tuple[str, int, str]] = field(default_factory=dict)
    #: (module imported, C module, line of the C import): a module of the repository
    #: imported only in a handler that does not run here.
    fallbacks: list[tuple[str, str, int]] = field(default_factory=list)


def twin_facts(tree: ast.Module, package: str = "") -> TwinFacts:
    """The fallback definitions and imports of one module's top level."""
    found = TwinFacts()
    imported: dict[str, tuple[str, int]] = {}  # name -> (module, line) bound by a try's import
    defined: set[str] = set()
    for stmt in _top(tree.body):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(stmt.name)
            # defined again after the fallback: which one a site is in, a name cannot say
            found.replaced.pop(stmt.name, None)
        elif isinstance(stmt, (ast.Try, ast.TryStar)):
            _try(stmt, package, found, imported, defined)
        elif isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.BoolOp):
            # ``scanstring = c_scanstring or py_scanstring``
            values = stmt.value.values
            target = stmt.targets[0] if len(stmt.targets) == 1 else None
            if (
                isinstance(stmt.value.op, ast.Or)
                and isinstance(target, ast.Name)
                and len(values) == 2
                and isinstance(first := values[0], ast.Name)
                and isinstance(second := values[1], ast.Name)
                and first.id in imported
                and second.id in defined
            ):
                module, line = imported[first.id]
                found.rebound[second.id] = (module, line, target.id)
    return found


def _top(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The module's statements in order, looking inside ``if`` blocks."""
    for stmt in body:
        if isinstance(stmt, ast.If):
            yield from _top(stmt.body)
            yield from _top(stmt.orelse)
        else:
            yield stmt


def _try(
    stmt: ast.Try | ast.TryStar,
    package: str,
    found: TwinFacts,
    imported: dict[str, tuple[str, int]],
    defined: set[str],
) -> None:
    bound = _bound(stmt.body, package)
    handlers = [h for h in stmt.handlers if catches_import_error(h)]
    if not handlers:
        return
    _attribute_rebinds(stmt, found, defined)
    if not bound:
        return
    for name, (module, _, line) in bound.items():
        imported[name] = (module, line)
    dead = dead_handlers(stmt, package)
    for handler in handlers:
        for inner in _top(handler.body):
            if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if inner.name in bound:
                    module, name, line = bound[inner.name]
                    # a name this interpreter's module lacks: the fallback is what runs here
                    if provides(module, name) or not _stdlib(module):
                        found.replaced[inner.name] = Shadow(module, line, conditional=True)
                defined.add(inner.name)
            elif isinstance(inner, ast.Assign):
                for public, value in _pairs(inner):
                    if public in bound and value in defined:
                        module, _, line = bound[public]
                        found.rebound[value] = (module, line, public)
            elif dead and isinstance(inner, ast.ImportFrom):
                fallback = resolved_module(inner, package)
                if fallback is not None:
                    c_module, _, line = next(iter(bound.values()))
                    if (fallback, c_module, line) not in found.fallbacks:
                        found.fallbacks.append((fallback, c_module, line))


def _attribute_rebinds(stmt: ast.Try | ast.TryStar, found: TwinFacts, defined: set[str]) -> None:
    """``try: import _asyncio`` … ``else: Future = _CFuture = _asyncio.Future``: a
    definition rebound to an attribute of the module the ``try`` imports."""
    modules: dict[str, tuple[str, int]] = {}
    for inner in stmt.body:
        if isinstance(inner, ast.Import):
            for alias in inner.names:
                if alias.asname or "." not in alias.name:
                    modules[alias.asname or alias.name] = (alias.name, inner.lineno)
    for inner in (*stmt.body, *stmt.orelse):
        if not isinstance(inner, ast.Assign):
            continue
        value = inner.value
        if not (
            isinstance(value, ast.Attribute)
            and isinstance(value.value, ast.Name)
            and value.value.id in modules
        ):
            continue
        module, line = modules[value.value.id]
        if _stdlib(module) and not provides(module, value.attr):
            continue  # this interpreter's module lacks it: the definition stays
        for target in inner.targets:
            if isinstance(target, ast.Name) and target.id in defined:
                found.replaced[target.id] = Shadow(module, line, conditional=True)


def _pairs(stmt: ast.Assign) -> Iterator[tuple[str, str]]:
    """``a = b`` and ``a, c = b, d``: (target, value) name pairs."""
    for target in stmt.targets:
        if isinstance(target, ast.Name) and isinstance(stmt.value, ast.Name):
            yield target.id, stmt.value.id
        elif isinstance(target, ast.Tuple) and isinstance(stmt.value, ast.Tuple):
            for t, v in zip(target.elts, stmt.value.elts, strict=False):
                if isinstance(t, ast.Name) and isinstance(v, ast.Name):
                    yield t.id, v.id


def _bound(body: list[ast.stmt], package: str) -> dict[str, tuple[str, str, int]]:
    """Name -> (module, its name there, line) for each ``from M import`` of a ``try``
    body (``*`` only for a module of this interpreter, whose names are known)."""
    out: dict[str, tuple[str, str, int]] = {}
    for stmt in body:
        if not isinstance(stmt, ast.ImportFrom):
            continue
        module = resolved_module(stmt, package)
        if module is None:
            continue
        for alias in stmt.names:
            if alias.name == "*":
                for name in star_names(module):
                    out.setdefault(name, (module, name, stmt.lineno))
            else:
                out[alias.asname or alias.name] = (module, alias.name, stmt.lineno)
    return out


def dead_handlers(stmt: ast.Try | ast.TryStar, package: str = "") -> bool:
    """Whether the ``try``'s ``except ImportError`` cannot run in this interpreter: its
    body only imports, from modules of this interpreter that have every name imported."""
    if not stmt.body:
        return False
    for inner in stmt.body:
        if isinstance(inner, ast.Import):
            if not all(provides(a.name, None) for a in inner.names):
                return False
        elif isinstance(inner, ast.ImportFrom):
            module = resolved_module(inner, package)
            if module is None or not all(
                provides(module, None if a.name == "*" else a.name) for a in inner.names
            ):
                return False
        elif not isinstance(inner, ast.Pass):
            return False
    return True


@cache
def provides(module: str, name: str | None) -> bool:
    """Whether ``from module import name`` (``import module`` for None) certainly works
    here: a module of this interpreter that has the name."""
    if not interpreter_module(module):
        return False
    try:
        loaded = importlib.import_module(module)
    except Exception:  # absent from this build
        return False
    return name is None or hasattr(loaded, name)


def twin_modules(index: RepoIndex) -> dict[str, tuple[str, int, str]]:
    """Module of the repository -> (C module, line, the module importing it) for each
    imported only in a fallback that does not run here: no library module imports it
    otherwise (``decimal`` alone imports ``_pydecimal``, in ``except ImportError``)."""
    wanted: dict[str, tuple[str, int, str]] = {}
    for facts in index.modules.values():
        if facts.is_test:
            continue
        for module, c_module, line in facts.fallbacks:
            if module in index.modules and module != facts.name:
                wanted.setdefault(module, (c_module, line, facts.name))
    if not wanted:
        return {}
    for facts in index.modules.values():
        if facts.is_test or not wanted:
            continue
        named = [*facts.imports.values(), *facts.star]
        for func in facts.functions:
            named.extend(func.local_imports.values())
        for target in named:
            for module in [m for m in wanted if m != facts.name]:
                if target == module or target.startswith(module + "."):
                    del wanted[module]
    return wanted


def _stdlib(module: str) -> bool:
    """A module name of the standard library (present in this build or not)."""
    return module.split(".")[0] in sys.stdlib_module_names


def shadow_of(
    index: RepoIndex, module: str, function: str | None, path: str, rel: str
) -> ShadowFact | None:
    """What replaces the code of ``function`` (a qualname in ``module``; None: the
    module's top level) at run time, if anything. ``path`` and ``rel``: the site's file
    as records write it and relative to the checkout (the importer's path is made alike)."""
    facts = index.modules.get(module)
    if facts is None:
        return None
    name = ""
    if function:
        name = within_module(function, module).split(".")[0]
    if name and name in facts.shadowed:
        source, line, conditional, guard, caught = facts.shadowed[name]
        # under an ``if``, whether the import runs here is the test's, not read here
        present = not guard and (not conditional or interpreter_module(source))
        return ShadowFact(
            name, source, line, conditional, present=present, guard=guard, caught=caught
        )
    if name and name in facts.rebound:
        source, line, bound = facts.rebound[name]
        present = provides(source, None)
        return ShadowFact(name, source, line, True, "rebound", bound, present=present)
    if index.twin_memo is None:
        index.twin_memo = twin_modules(index)
    prefix = path[: len(path) - len(rel)] if path.endswith(rel) else ""
    twin = index.twin_memo.get(module)
    if twin is None:
        return package_shadow(index, module, prefix)
    source, line, importer = twin
    owner = index.modules[importer]
    return ShadowFact(
        module, source, line, True, "module", importer=prefix + owner.rel, present=True
    )


def package_shadow(index: RepoIndex, module: str, prefix: str) -> ShadowFact | None:
    """A package's Python module imported only in place of its compiled one
    (:mod:`.package_twins`): whether that is built where the code runs is not known here."""
    if index.package_memo is None:
        index.package_memo = package_twins(index)
    found = index.package_memo.get(module)
    if found is None:
        return None
    alt, importer = found
    where = prefix + index.modules[importer].rel
    return ShadowFact(
        module, alt.compiled, alt.line, True, "module", importer=where, guard=alt.guard,
        caught=alt.caught,
    )  # fmt: skip


def shadowed_by(shadow: ShadowFact) -> dict[str, object]:
    """``evidence.shadowedBy``: the module, line and whether it is conditional; for the
    shapes beyond a later import, which (``kind``), the name the C one is bound to and
    the file that imports it."""
    out: dict[str, object] = {
        "module": shadow.module,
        "line": shadow.line,
        "conditional": shadow.conditional,
    }
    if shadow.guard:
        out["guard"] = shadow.guard
    if shadow.kind != "replaced":
        out["kind"] = shadow.kind
    if shadow.bound:
        out["name"] = shadow.bound
    if shadow.importer:
        out["path"] = shadow.importer
    return out


def dead_here(shadow: ShadowFact | None) -> bool:
    """A definition this interpreter replaces by its C twin: no call reaches its lines."""
    return shadow is not None and shadow.kind == "replaced" and shadow.present
