"""What a Cython module defines and imports, read from Cython's tree for the Python reader.

The Python extractor decides what a raised name means from the module's imports,
classes and functions (``ModuleReader``); here the same tables are filled from
Cython's nodes. Functions and methods are turned into Python ``ast`` stubs only when a
raise asks for one (a helper that returns an exception, a class's ``__init__``), with
the function's simple top-level statements converted in place.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Any

from .snippet import parse_at, parse_expr_at

__all__ = ["LazyDefs", "cython_name", "def_name", "index_module", "start_of"]

Stub = ast.FunctionDef
#: Statement types whose text is a Python statement a stub keeps (assignments, returns).
_SIMPLE = frozenset(
    {"ReturnStatNode", "SingleAssignmentNode", "InPlaceAssignmentNode", "ExprStatNode"}
)


def cython_name(value: Any) -> str:
    """A Cython identifier node's text (``EncodedString`` or ``IdentifierStringNode``)."""
    inner = getattr(value, "value", value)
    return str(inner) if inner is not None else ""


def def_name(node: Any) -> str | None:
    """The name a ``def``/``cdef``/``cpdef`` function or a class defines."""
    kind = type(node).__name__
    if kind in ("DefNode", "PyClassDefNode", "PropertyNode"):
        return cython_name(node.name)
    if kind == "CClassDefNode":
        return cython_name(node.class_name)
    if kind == "CFuncDefNode":
        declarator = node.declarator
        while declarator is not None and not hasattr(declarator, "name"):
            declarator = getattr(declarator, "base", None)
        return cython_name(declarator.name) if declarator is not None else None
    return None


def _children(node: Any) -> Iterator[Any]:
    for attr in node.child_attrs:
        value = getattr(node, attr, None)
        if isinstance(value, list):
            yield from (v for v in value if v is not None and hasattr(v, "child_attrs"))
        elif value is not None and hasattr(value, "child_attrs"):
            yield value


def start_of(node: Any, lines: list[str]) -> tuple[int, int]:
    """Where a statement's text starts: its leftmost node, before any opening brackets.

    Cython places an assignment at its ``=`` and an expression at its operator; the
    leftmost position among the node and its descendants is where the text begins.
    """
    best = tuple(node.pos[1:3])
    stack = list(_children(node))
    while stack:
        child = stack.pop()
        pos = tuple(child.pos[1:3])
        if pos < best:
            best = pos
        stack.extend(_children(child))
    line, col = best
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    while col > 0 and text[col - 1] in "( \t" and text[:col].strip(" \t("):
        col -= 1
    if not text[:col].strip(" \t("):
        col = len(text) - len(text.lstrip())
    return line, col


def _arg_names(node: Any) -> list[str]:
    names: list[str] = []
    for arg in getattr(node, "args", None) or getattr(node.declarator, "args", []) or []:
        declarator = getattr(arg, "declarator", None)
        while declarator is not None and not getattr(declarator, "name", ""):
            declarator = getattr(declarator, "base", None)
        name = cython_name(getattr(declarator, "name", "")) or cython_name(
            getattr(arg.base_type, "name", "")
        )
        names.append(name or "_")
    return names


def _body_stats(node: Any) -> list[Any]:
    return _stats_of(getattr(node, "body", None))


class LazyDefs(dict[Any, Stub]):
    """Function stubs by key, converted from Cython's node on first lookup."""

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self._lines = lines
        self._nodes: dict[Any, Any] = {}

    def add(self, key: Any, node: Any) -> None:
        if key not in self._nodes:
            self._nodes[key] = node
            super().__setitem__(key, _PLACEHOLDER)

    def __getitem__(self, key: Any) -> Stub:
        value = super().__getitem__(key)
        if value is _PLACEHOLDER:
            value = self._stub(self._nodes[key])
            super().__setitem__(key, value)
        return value

    def get(self, key: Any, default: Any = None) -> Any:
        # not ``super().get``: that would hand out the placeholder unconverted
        return self[key] if key in self else default  # noqa: SIM401

    def _stub(self, node: Any) -> Stub:
        body = self._statements(_body_stats(node))
        arguments = ast.arguments(
            posonlyargs=[],
            args=[ast.arg(name) for name in _arg_names(node)],
            kwonlyargs=[],
            kw_defaults=[],
            defaults=[],
        )
        line, col = node.pos[1], node.pos[2]
        return _function_stub(def_name(node) or "_", arguments, body, line, col)

    def _statements(self, stats: list[Any]) -> list[ast.stmt]:
        """The simple statements converted, and ``if`` chains kept with their branches
        (a helper returns a different exception on each: PyYAML's ``_parser_error``)."""
        body: list[ast.stmt] = []
        for stat in stats:
            kind = type(stat).__name__
            if kind in _SIMPLE:
                converted = parse_at(self._lines, *start_of(stat, self._lines))
                if converted is not None:
                    body.append(converted)
            elif kind == "IfStatNode":
                body.append(self._if_chain(stat))
        return body

    def _if_chain(self, node: Any) -> ast.If:
        """``if``/``elif``/``else`` as nested ``ast.If``; a test that is not Python reads
        as an unknown name."""
        orelse = self._statements(_stats_of(node.else_clause))
        for clause in reversed(node.if_clauses):
            line, col = clause.pos[1], clause.pos[2]
            test = parse_expr_at(self._lines, line, col, ":") or ast.Name("_", ast.Load())
            branch = ast.If(test, self._statements(_stats_of(clause.body)) or [ast.Pass()], orelse)
            ast.copy_location(branch, ast.Pass(lineno=line, col_offset=col))
            orelse = [branch]
        (chain,) = orelse
        assert isinstance(chain, ast.If)
        return chain


def _stats_of(body: Any) -> list[Any]:
    if body is None:
        return []
    return list(getattr(body, "stats", [body]))


def _function_stub(
    name: str, arguments: ast.arguments, body: list[ast.stmt], line: int = 0, col: int = 0
) -> Stub:
    return ast.FunctionDef(
        name=name,
        args=arguments,
        body=body or [ast.Pass()],
        decorator_list=[],
        lineno=line,
        col_offset=col,
    )


def _no_arguments() -> ast.arguments:
    return ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[])


_PLACEHOLDER: Any = _function_stub("_", _no_arguments(), [])


def _import_target(node: Any) -> tuple[str, str] | None:
    """``import a.b as c`` -> (c, a.b); ``import a.b`` -> (a, a)."""
    rhs: Any = getattr(node, "rhs", None)
    lhs: Any = getattr(node, "lhs", None)
    if type(rhs).__name__ != "ImportNode" or type(lhs).__name__ != "NameNode":
        return None
    module = cython_name(rhs.module_name)
    local = cython_name(lhs.name)
    return (local, module) if local != module.split(".")[0] else (local, local)


def _alias(node: Any, imports: dict[str, str]) -> tuple[str, str] | None:
    """``SerializerError = yaml.serializer.SerializerError`` after ``import yaml``: the
    name stands for the dotted name of the imported module (PyYAML's ``_yaml.pyx``)."""
    lhs: Any = getattr(node, "lhs", None)
    parts: list[str] = []
    rhs: Any = getattr(node, "rhs", None)
    while type(rhs).__name__ == "AttributeNode":
        parts.append(cython_name(rhs.attribute))
        rhs = rhs.obj
    if type(lhs).__name__ != "NameNode" or type(rhs).__name__ != "NameNode" or not parts:
        return None
    head = imports.get(cython_name(rhs.name))
    if head is None:
        return None
    return cython_name(lhs.name), ".".join([head, *reversed(parts)])


def _toplevel(node: Any) -> Iterator[Any]:
    """Module-level statements, looking inside lists, ``if`` and ``try`` (fallback imports)."""
    kind = type(node).__name__
    if kind == "StatListNode":
        for stat in node.stats:
            yield from _toplevel(stat)
    elif kind == "IfStatNode":
        for clause in node.if_clauses:
            yield from _toplevel(clause.body)
        if node.else_clause is not None:
            yield from _toplevel(node.else_clause)
    elif kind in ("TryExceptStatNode", "TryFinallyStatNode"):
        yield from _toplevel(node.body)
        for clause in getattr(node, "except_clauses", []):
            yield from _toplevel(clause.body)
    elif node is not None:
        yield node


def _class_members(body: Any) -> Iterator[Any]:
    for stat in _toplevel(body):
        if type(stat).__name__ in ("DefNode", "CFuncDefNode"):
            yield stat


def _base_names(node: Any) -> list[str | None]:
    """The names a class statement lists as its bases (None for a dotted or computed one,
    and one None for bases of a shape not read, ``class E(*bases)``)."""
    bases = getattr(node, "bases", None)
    if bases is None:
        return []
    args = getattr(bases, "args", None)
    if type(bases).__name__ != "TupleNode" or not isinstance(args, list):
        return [None]  # ``class E(*bases)``: bases the statement does not name
    return [cython_name(arg.name) if type(arg).__name__ == "NameNode" else None for arg in args]


def _cdef_bases(node: Any) -> list[ast.expr]:
    """A ``cdef class``'s bases named in the module, so ``self.helper()`` finds a method a
    base class defines (lxml's ``XPath(_XPathEvaluatorBase)`` raising
    ``self._build_parse_error()``). A Python class's bases are left to the Python rules."""
    if type(node).__name__ != "CClassDefNode":
        return []
    return [ast.Name(id=name, ctx=ast.Load()) for name in _base_names(node) if name]


def index_module(reader: Any, tree: Any, package: str) -> None:
    """Fill ``reader``'s imports, classes, functions and methods from Cython's tree."""
    functions = LazyDefs(reader.lines)
    methods = LazyDefs(reader.lines)
    for node in _toplevel(tree.body):
        kind = type(node).__name__
        target = _import_target(node) if kind == "SingleAssignmentNode" else None
        alias = _alias(node, reader.imports) if kind == "SingleAssignmentNode" else None
        if target is not None:
            reader.imports[target[0]] = target[1]
        elif alias is not None:
            reader.imports.setdefault(*alias)
        elif kind == "FromImportStatNode":
            base = cython_name(node.module.module_name)
            level = getattr(node.module, "level", 0) or 0
            if level > 0:
                anchor = package.split(".") if package else []
                anchor = anchor[: len(anchor) - (level - 1)] if level > 1 else anchor
                base = ".".join([*anchor, *([base] if base else [])])
            for name, target_node in node.items:
                local = cython_name(getattr(target_node, "name", name))
                reader.imports[local] = f"{base}.{cython_name(name)}".lstrip(".")
        elif kind in ("DefNode", "CFuncDefNode"):
            name = def_name(node)
            if name:
                functions.add(name, node)
        elif kind in ("CClassDefNode", "PyClassDefNode"):
            name = def_name(node)
            if not name:
                continue
            members: list[ast.stmt] = []
            for stat in _class_members(node.body):
                member = def_name(stat)
                if member:
                    methods.add((name, member), stat)
                    members.append(_function_stub(member, _no_arguments(), []))
            if kind == "PyClassDefNode":
                reader.python_bases.setdefault(name, _base_names(node))
            reader.classes.setdefault(
                name,
                ast.ClassDef(
                    name=name,
                    bases=_cdef_bases(node),
                    keywords=[],
                    body=members or [ast.Pass()],
                    decorator_list=[],
                ),
            )
    reader.functions = functions
    reader.methods = methods
