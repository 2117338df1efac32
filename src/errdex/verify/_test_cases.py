"""Test classes across a repository's test modules, for tests that need their test case.

A test that calls ``self.check(...)``, or reads attributes that a base class, a mixin or
its ``setUp`` sets (``class TestPyDecode(TestDecode, PyTest)`` where ``PyTest`` binds
``json = import_fresh_module('json', blocked=['_json'])``), cannot be turned into plain
statements. Instead the snippet imports the concrete test class from its module, makes
the test case the way the runner would (``setUpClass``, the instance, ``setUp``) and runs
the test's statements with ``self`` bound to it. This module finds which class to make:
the one the test is written in when it can run, else the concrete subclasses of that
mixin among the test modules read (a unittest ``TestCase`` or a pytest ``Test*`` class).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field

__all__ = ["MAX_CLASSES", "CaseClass", "CaseIndex", "blocked_modules", "instance_prelude"]

#: Concrete classes a mixin's test is run under (each is its own snippet).
MAX_CLASSES = 3
_TESTCASE_BASES = frozenset(
    {"unittest.TestCase", "unittest.case.TestCase", "unittest.IsolatedAsyncioTestCase"}
)


@dataclass
class CaseClass:
    """One class of a test module, its bases resolved to dotted names where known."""

    module: str
    name: str
    bases: list[str]
    methods: dict[str, ast.FunctionDef] = field(default_factory=dict)
    blocked: frozenset[str] = frozenset()  # accelerators its module blocks

    @property
    def dotted(self) -> str:
        return f"{self.module}.{self.name}"


def blocked_modules(tree: ast.Module) -> frozenset[str]:
    """Modules a test module blocks on import (``import_fresh_module(..., blocked=[...])``,
    ``sys.modules['_json'] = None``): the C accelerators its tests run without."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name != "import_fresh_module":
                continue
            for kw in node.keywords:
                if kw.arg == "blocked" and isinstance(kw.value, (ast.List, ast.Tuple, ast.Set)):
                    out |= {
                        e.value
                        for e in kw.value.elts
                        if isinstance(e, ast.Constant) and isinstance(e.value, str)
                    }
        elif isinstance(node, ast.Assign) and _is_none(node.value):
            for target in node.targets:
                key = _sys_modules_key(target)
                if key is not None:
                    out.add(key)
    return frozenset(out)


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _sys_modules_key(target: ast.expr) -> str | None:
    if not isinstance(target, ast.Subscript):
        return None
    value = target.value
    if not (
        isinstance(value, ast.Attribute)
        and value.attr == "modules"
        and isinstance(value.value, ast.Name)
        and value.value.id == "sys"
    ):
        return None
    key = target.slice
    return key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None


def _imported(tree: ast.Module, module: str) -> dict[str, str]:
    """Top-level name -> the dotted name it was imported as."""
    out: dict[str, str] = {}
    package = module.split(".")[:-1]
    for stmt in tree.body:
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                out[(alias.asname or alias.name).split(".")[0]] = (
                    alias.name if alias.asname else alias.name.split(".")[0]
                )
        elif isinstance(stmt, ast.ImportFrom):
            base = stmt.module or ""
            if stmt.level:
                keep = package[: len(package) - (stmt.level - 1)] if stmt.level > 1 else package
                base = ".".join([*keep, *([base] if base else [])])
            for alias in stmt.names:
                if alias.name != "*":
                    out[alias.asname or alias.name] = f"{base}.{alias.name}"
    return out


def _dotted(node: ast.expr, imported: dict[str, str], local: set[str], module: str) -> str | None:
    if isinstance(node, ast.Name):
        if node.id in local:
            return f"{module}.{node.id}"
        return imported.get(node.id, node.id)
    if isinstance(node, ast.Attribute):
        head = _dotted(node.value, imported, local, module)
        return f"{head}.{node.attr}" if head else None
    return None


class CaseIndex:
    """Every class of the test modules read, by its dotted name."""

    def __init__(self) -> None:
        self.classes: dict[str, CaseClass] = {}
        self.conftests: dict[str, tuple[str, ast.Module]] = {}  # folder -> (module, tree)
        self._subclasses: dict[str, list[str]] | None = None

    def conftests_for(self, rel_path: str) -> list[tuple[str, ast.Module]]:
        """The ``conftest.py`` modules that apply to a test file, nearest first."""
        parts = rel_path.split("/")[:-1]
        return [
            self.conftests[folder]
            for folder in ("/".join(parts[:n]) for n in range(len(parts), -1, -1))
            if folder in self.conftests
        ]

    def add(self, module: str, tree: ast.Module, rel_path: str = "") -> None:
        if rel_path.rsplit("/", 1)[-1] == "conftest.py":
            self.conftests[rel_path.rpartition("/")[0]] = (module, tree)
        imported = _imported(tree, module)
        local = {s.name for s in tree.body if isinstance(s, ast.ClassDef)}
        blocked = blocked_modules(tree)
        for stmt in tree.body:
            if not isinstance(stmt, ast.ClassDef):
                continue
            bases = [b for b in (_dotted(x, imported, local, module) for x in stmt.bases) if b]
            methods = {s.name: s for s in stmt.body if isinstance(s, ast.FunctionDef)}
            info = CaseClass(module, stmt.name, bases, methods, blocked)
            self.classes[info.dotted] = info
        self._subclasses = None

    def _ancestors(self, dotted: str) -> Iterator[CaseClass]:
        """The class and its indexed bases, in a depth-first order close to the MRO."""
        seen: set[str] = set()
        todo = [dotted]
        while todo:
            name = todo.pop(0)
            if name in seen:
                continue
            seen.add(name)
            info = self.classes.get(name)
            if info is not None:
                yield info
                todo[:0] = info.bases

    def is_testcase(self, dotted: str) -> bool:
        """A unittest ``TestCase`` below some base (indexed or named ``…TestCase``)."""
        for info in self._ancestors(dotted):
            for base in info.bases:
                if base in _TESTCASE_BASES or (
                    base not in self.classes and base.rsplit(".", 1)[-1] == "TestCase"
                ):
                    return True
        return False

    def method(self, dotted: str, name: str, module: str | None = None) -> ast.FunctionDef | None:
        """The method as the class resolves it; with ``module``, only one defined there."""
        for info in self._ancestors(dotted):
            if name in info.methods:
                return info.methods[name] if module in (None, info.module) else None
        return None

    def blocked(self, dotted: str) -> frozenset[str]:
        out: frozenset[str] = frozenset()
        for info in self._ancestors(dotted):
            out |= info.blocked
        return out

    def _children(self) -> dict[str, list[str]]:
        if self._subclasses is None:
            self._subclasses = {}
            for info in self.classes.values():
                for base in info.bases:
                    self._subclasses.setdefault(base, []).append(info.dotted)
        return self._subclasses

    def concrete(self, module: str, name: str) -> list[str]:
        """Classes to make for a test written in ``module.name``: itself when it is a test
        case, and its subclasses that are, nearest first; a pytest ``Test*`` class that no
        test case derives from is made itself."""
        start = f"{module}.{name}"
        out: list[str] = []
        todo = [start]
        seen: set[str] = set()
        children = self._children()
        while todo and len(out) < MAX_CLASSES:
            dotted = todo.pop(0)
            if dotted in seen:
                continue
            seen.add(dotted)
            if dotted not in self.classes:
                continue
            if self.is_testcase(dotted):
                out.append(dotted)
            todo.extend(sorted(children.get(dotted, [])))
        info = self.classes.get(start)
        if not out and info is not None and _pytest_class(info):
            out.append(start)
        return out


def _pytest_class(info: CaseClass) -> bool:
    return info.name.startswith("Test") and "__init__" not in info.methods


def instance_prelude(index: CaseIndex, dotted: str, test: str) -> list[ast.stmt]:
    """``from M import C``, then the test case made as its runner makes it, bound to ``self``."""
    module, name = dotted.rsplit(".", 1)
    lines = [f"from {module} import {name}"]
    if index.is_testcase(dotted):
        lines += [f"{name}.setUpClass()", f"self = {name}({test!r})", "self.setUp()"]
    else:
        if index.method(dotted, "setup_class") is not None:
            lines.append(f"{name}.setup_class()")
        lines.append(f"self = {name}()")
        for hook in ("setup_method", "setup"):
            method = index.method(dotted, hook)
            if method is not None:
                takes = len(method.args.args) > 1
                lines.append(f"self.{hook}({name}.{test})" if takes else f"self.{hook}()")
                break
    return ast.parse("\n".join(lines)).body
