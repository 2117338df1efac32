"""Whether a test can run Python code that a C twin replaces where it imports.

``operator.py`` defines ``indexOf`` and ends with ``from _operator import *``: a test
that does ``from operator import indexOf`` calls the C function and never reaches
``operator.py``'s raise, though the call graph resolves the name to it (blind review
2026-12-06, record 34: six false test links). A test reaches the Python definition
only where the C module is kept out: CPython's suites import the module again with it
blocked (``py_operator = import_fresh_module("operator", blocked=["_operator"])``), in
the test's module, in the module of a base of its class (``test_json``'s ``PyTest``), or
import the test module itself so (``test_datetime`` loads ``datetimetester`` with
``_datetime`` blocked). Without any of those a link to the Python line is false.

Only a definition whose own name the import replaces counts (``shadows``' ``replaced``,
present in this interpreter, under no ``if``): one bound to the public name only in a
fallback (``Pickler = _Pickler``) still runs under its own name, and one the module
binds to another name first (``_PyFuture = Future``) may be called through that.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from .facts import Expect, dotted
from .twins import shadow_of

if TYPE_CHECKING:
    from .repo import RepoIndex
    from .sites import SiteView

__all__ = ["TwinRuns", "fresh_imports", "fresh_reads"]

#: (the module it imports again, the modules it blocks) of one ``import_fresh_module`` call.
FreshImport = tuple[str, tuple[str, ...]]


def fresh_imports(tree: ast.Module, text: str) -> list[FreshImport]:
    """Each ``import_fresh_module(name, blocked=[...])`` call of a module, anywhere in
    it, with ``name`` as written or as a top-level string constant (``TESTS``)."""
    if "import_fresh_module" not in text:
        return []
    constants: dict[str, str] = {}
    for stmt in tree.body:
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(target := stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.Constant)
            and isinstance(stmt.value.value, str)
        ):
            constants[target.id] = stmt.value.value
    found: list[FreshImport] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        ref = dotted(node.func)
        if ref is None or ref[-1] != "import_fresh_module":
            continue
        first = node.args[0]
        name = ""
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            name = first.value
        elif isinstance(first, ast.Name):
            name = constants.get(first.id, "")
        blocked = [
            elt.value
            for kw in node.keywords
            if kw.arg == "blocked" and isinstance(kw.value, (ast.List, ast.Tuple))
            for elt in kw.value.elts
            if isinstance(elt, ast.Constant) and isinstance(elt.value, str)
        ]
        if name and blocked:
            found.append((name, tuple(blocked)))
    return found


def fresh_reads(
    tree: ast.Module, text: str
) -> tuple[list[FreshImport], dict[str, tuple[str, ...]]]:
    """:func:`fresh_imports`, and the top-level names bound to one that blocks modules
    (``P = import_fresh_module('decimal', blocked=['_decimal'])``: ``P`` is ``decimal``
    as it loads without ``_decimal``, so ``P.Decimal`` is ``_pydecimal``'s)."""
    found = fresh_imports(tree, text)
    names: dict[str, tuple[str, ...]] = {}
    for stmt in tree.body if found else ():
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(target := stmt.targets[0], ast.Name)
            and isinstance(stmt.value, ast.Call)
        ):
            one = fresh_imports(ast.Module(body=[stmt], type_ignores=[]), "import_fresh_module")
            if len(one) == 1:
                names[target.id] = one[0][1]
    return found, names


class TwinRuns:
    """Answers, per test and site, whether the test may run the site's Python code."""

    def __init__(self, index: RepoIndex) -> None:
        self.index = index
        self._replaced: dict[int, str | None] = {}
        self._blocked_for: dict[str, set[str]] | None = None

    def runs(self, expect: Expect, site: SiteView) -> bool:
        """False when a C module replaces the site's definition here and nothing the
        test's module or its class's bases' modules do keeps that module out."""
        c_module = self.replaced_by(site)
        return c_module is None or c_module in self.blocked(expect)

    def replaced_by(self, site: SiteView) -> str | None:
        """The C module that replaces the site's top-level definition in this
        interpreter; None when its code runs (or may, through another name)."""
        if site.index in self._replaced:
            return self._replaced[site.index]
        found: str | None = None
        shadow = shadow_of(self.index, site.module, site.function, site.path, site.rel)
        if shadow is not None and shadow.kind == "replaced" and shadow.present:
            facts = self.index.modules.get(site.module)
            aliased = facts is not None and any(
                ref == (shadow.name,) and alias not in facts.shadowed
                for alias, ref in facts.aliases.items()
            )
            if not aliased:
                found = shadow.module
        self._replaced[site.index] = found
        return found

    def blocked(self, expect: Expect) -> set[str]:
        """The modules a run of the test may block: by the test's module, by the modules
        of its class's bases, or by whatever imports the test's module afresh."""
        modules = {expect.module}
        func = self.index.function(expect.function) if expect.function else None
        cls = expect.runs_in or (func.cls if func is not None else None)
        todo = [cls] if cls else []
        seen: set[str] = set()
        while todo and len(seen) < 32:
            here = todo.pop()
            if here in seen or here not in self.index.classes:
                continue
            seen.add(here)
            modules.add(self.index.classes[here].module)
            todo.extend(self.index.bases(here))
        out: set[str] = set()
        for module in modules:
            facts = self.index.modules.get(module)
            for _, blocked in facts.fresh if facts is not None else ():
                out.update(blocked)
            out.update(self._by_importer().get(module, ()))
        return out

    def _by_importer(self) -> dict[str, set[str]]:
        """Test module -> the modules blocked where another module imports it afresh."""
        if self._blocked_for is None:
            self._blocked_for = {}
            for facts in self.index.modules.values():
                for name, blocked in facts.fresh:
                    self._blocked_for.setdefault(name, set()).update(blocked)
        return self._blocked_for
