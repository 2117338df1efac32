"""An independent count of the raise/throw/panic sites of each language, for recall.

Written apart from errdex's extractors and sharing no code with them: one tree-sitter
query per language (an ``ast`` walk for Python, Cython's own parser for ``.pyx``), each
counting what issue 11 names as a site. A site is its (line) in the file: the first
line of the statement, call or attribute that raises.

=============  ===============================================================================
language       sites
=============  ===============================================================================
python         ``raise X`` (not a bare ``raise``), ``warnings.warn(…)``, ``assert c, msg``
cython         the same, read by Cython's parser (``.pyx``/``.pxd``/``.pxi``)
c, cpp         calls of ``PyErr_SetString|PyErr_Format(V)|PyErr_SetObject|PyErr_SetNone|
               PyErr_Warn*``, ``pybind11_fail``, ``nb::raise*``, ``absl::*Error``; ``throw x``
javascript,    ``throw …``, ``console.error|warn(…)``, ``res.status(<number>)``
typescript
go             ``errors.New``, ``fmt.Errorf``, ``panic(…)``, ``http.Error``, ``log.Fatal*``,
               ``log.Panic*``
rust           ``panic!``, ``unreachable!``, ``todo!``, ``unimplemented!``, ``assert*!`` (with
               or without a message: ``assertion failed: x > 0`` is printed at its line too),
               ``.expect(…)``, ``bail!``, ``anyhow!``, ``ensure!``, ``#[error(…)]``;
               not in test code (below)
java           ``throw …``, calls named ``requireNonNull``, ``checkArgument``, ``checkState``,
               ``checkNotNull`` of ``Objects``/``Preconditions`` or without a receiver
               (a static import), unless the file declares a method of that name: a
               library's own ``requireNonNull`` throws where its ``throw`` is written
=============  ===============================================================================

One rule for every language: throwing again the exception a handler caught
(``raise e`` in ``except … as e``, ``throw e`` in ``catch (… e)``, C++'s ``throw;``)
is not a new site.

Where a site's line is not its first line: Rust's ``.expect(…)`` is at the line of the
method's name. A panic prints ``Location::caller()``, which for a method call is the span
of the method name and its arguments, not of the receiver chain before the dot
(rust-lang/rust#73182, Rust 1.47), so ``x\n    .parse()\n    .expect("…")`` panics at
the ``.expect`` line.

Test code is not counted, as ``errdex scan`` does not catalogue it: test files and
folders are left out by the benchmark's file walk for both sides; inside a Rust file,
items under ``#[test]``, ``#[bench]``, ``#[<crate>::test]`` or a ``#[cfg(…)]`` that cannot
hold without ``test`` (an ``#![cfg(test)]`` file or module too) are test code: such an
item is compiled by ``cargo test`` only, so no user of the crate reaches its panics.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

import tree_sitter

__all__ = ["LANGUAGES", "Reference", "grammar", "parse_only", "reference_lines"]

#: Files each language's reference reads when errdex registers no extractor for it.
LANGUAGES: dict[str, tuple[str, ...]] = {
    "python": (".py",),
    "cython": (".pyx", ".pxd", ".pxi"),
    "c": (".c", ".h"),
    "cpp": (".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx"),
    "javascript": (".js", ".mjs", ".cjs", ".jsx"),
    "typescript": (".ts", ".tsx", ".mts", ".cts"),
    "go": (".go",),
    "rust": (".rs",),
    "java": (".java",),
}

_QUERIES: dict[str, str] = {
    "c": "(call_expression function: (identifier) @fn) @site",
    "cpp": """
        (call_expression function: (identifier) @fn) @site
        (call_expression function: (qualified_identifier) @fn) @site
        (throw_statement) @throw
    """,
    "javascript": """
        (throw_statement) @throw
        (call_expression function: (member_expression) @fn) @site
    """,
    "go": """
        (call_expression function: (selector_expression) @fn) @site
        (call_expression function: (identifier) @fn) @site
    """,
    "rust": """
        (macro_invocation macro: (_) @fn) @site
        (call_expression function: (field_expression field: (field_identifier) @fn)) @site
        (attribute_item (attribute (identifier) @fn)) @site
    """,
    "java": """
        (throw_statement) @throw
        (method_invocation name: (identifier) @fn) @site
        (method_declaration name: (identifier) @declared)
    """,
}
_QUERIES["typescript"] = _QUERIES["javascript"]

_C_CALL = re.compile(
    r"(PyErr_SetString|PyErr_Format|PyErr_FormatV|PyErr_SetObject|PyErr_SetNone|PyErr_Warn\w*"
    r"|(?:\w+::)*pybind11_fail|(?:nb|nanobind)::raise\w*|absl::\w+Error)"
)
_JS_CALL = re.compile(r"console\.(?:error|warn)|res\.status")
_GO_CALL = re.compile(r"errors\.New|fmt\.Errorf|panic|http\.Error|log\.(?:Fatal|Panic)\w*")
_RUST_MACROS = frozenset(
    ["panic", "unreachable", "todo", "unimplemented", "bail", "anyhow", "ensure"]
)
_RUST_ASSERTS = frozenset(
    ["assert", "debug_assert", "assert_eq", "assert_ne", "debug_assert_eq", "debug_assert_ne"]
)
_JAVA_CALLS = frozenset({"requireNonNull", "checkArgument", "checkState", "checkNotNull"})
#: catch clauses by grammar: (clause node type, how to find the caught name)
_CATCH = {"javascript", "typescript", "java", "cpp"}


@cache
def grammar(language: str) -> tree_sitter.Language:
    """The tree-sitter grammar of a language (TypeScript's ``.tsx`` dialect is chosen per file)."""
    if language == "c":
        import tree_sitter_c as mod
    elif language == "cpp":
        import tree_sitter_cpp as mod
    elif language == "javascript":
        import tree_sitter_javascript as mod
    elif language == "go":
        import tree_sitter_go as mod
    elif language == "rust":
        import tree_sitter_rust as mod
    elif language == "java":
        import tree_sitter_java as mod
    elif language in ("typescript", "tsx"):
        import tree_sitter_typescript as ts_mod

        return tree_sitter.Language(
            ts_mod.language_tsx() if language == "tsx" else ts_mod.language_typescript()
        )
    else:
        raise ValueError(f"no grammar for {language}")
    return tree_sitter.Language(mod.language())


def _grammar_for(language: str, path: str) -> tree_sitter.Language:
    if language == "typescript" and path.endswith(".tsx"):
        return grammar("tsx")
    return grammar(language)


@cache
def _query(language: str) -> tree_sitter.Query:
    base = "typescript" if language == "tsx" else language
    return tree_sitter.Query(grammar(language), _QUERIES[base])


@dataclass
class Reference:
    """One file's reference sites (1-based lines) and whether it parsed cleanly."""

    lines: list[int]
    clean: bool


def parse_only(language: str, path: str, text: str) -> object:
    """The bare parse the language's reference reads with (the speed baseline)."""
    if language == "python":
        return ast.parse(text)
    if language == "cython":
        return _cython_tree(text, path)
    return tree_sitter.Parser(_grammar_for(language, path)).parse(text.encode("utf-8"))


def reference_lines(language: str, path: str, text: str) -> Reference:
    """The reference sites of one file."""
    if language == "python":
        return _python(text)
    if language == "cython":
        return _cython(text, path)
    lang_key = "tsx" if language == "typescript" and path.endswith(".tsx") else language
    tree = tree_sitter.Parser(_grammar_for(language, path)).parse(text.encode("utf-8"))
    captures = tree_sitter.QueryCursor(_query(lang_key)).captures(tree.root_node)
    found: set[int] = set()
    for node in captures.get("throw", ()):
        if _is_site_throw(language, node):
            found.add(node.start_point[0] + 1)
    sites = captures.get("site", ())
    names = {n.parent.id if n.parent else -1: n for n in captures.get("fn", ())}
    declared = {_text(n) for n in captures.get("declared", ())}
    for site in sites:
        fn = _callee(site, names)
        if fn is None or not _is_site_call(language, site, fn):
            continue
        if language == "java" and not _java_checked_api(site, _text(fn), declared):
            continue
        if language == "rust":
            if _rust_test_only(site):
                continue
            if site.type == "call_expression":  # ``.expect``: the method name's line
                found.add(fn.start_point[0] + 1)
                continue
        found.add(site.start_point[0] + 1)
    return Reference(sorted(found), not tree.root_node.has_error)


def _callee(site: tree_sitter.Node, names: dict[int, tree_sitter.Node]) -> tree_sitter.Node | None:
    for key in (site.id, *(c.id for c in site.named_children)):
        if key in names:
            return names[key]
    return None


def _text(node: tree_sitter.Node | None) -> str:
    if node is None or node.text is None:
        return ""
    return node.text.decode("utf-8", errors="replace")


def _is_site_call(language: str, site: tree_sitter.Node, fn: tree_sitter.Node) -> bool:
    name = "".join(_text(fn).split())
    if language in ("c", "cpp"):
        return _C_CALL.fullmatch(name) is not None
    if language in ("javascript", "typescript"):
        if _JS_CALL.fullmatch(name) is None:
            return False
        if name == "res.status":
            args = site.child_by_field_name("arguments")
            first = args.named_children[0] if args is not None and args.named_children else None
            return first is not None and first.type == "number"
        return True
    if language == "go":
        return _GO_CALL.fullmatch(name) is not None
    if language == "rust":
        return _rust_site(site, name)
    if language == "java":
        return name in _JAVA_CALLS
    return False


def _rust_site(site: tree_sitter.Node, name: str) -> bool:
    if site.type == "attribute_item":
        attribute = site.named_children[0] if site.named_children else None
        return (
            name == "error"
            and attribute is not None
            and (attribute.child_by_field_name("arguments") is not None)
        )
    if site.type == "call_expression":
        return name == "expect"
    short = name.rpartition("::")[2]
    return short in _RUST_MACROS or short in _RUST_ASSERTS


_JAVA_OWNERS = frozenset({"Objects", "Preconditions"})


def _java_checked_api(call: tree_sitter.Node, name: str, declared: set[str]) -> bool:
    """Whether a call named like a JDK/Guava check is one: ``Objects.``/``Preconditions.``
    (any package), or a bare call the file does not declare a method for."""
    receiver = call.child_by_field_name("object")
    if receiver is None:
        return name not in declared
    return "".join(_text(receiver).split()).rpartition(".")[2] in _JAVA_OWNERS


_CFG_WORD = re.compile(r'"(?:[^"\\]|\\.)*"|[A-Za-z_][A-Za-z0-9_]*|[(),=]')


def _rust_test_only(node: tree_sitter.Node) -> bool:
    """Whether an item around ``node`` is compiled by ``cargo test`` alone: an outer
    attribute before the item, or an inner ``#![…]`` at the head of its body or file."""
    current: tree_sitter.Node | None = node
    while current is not None:
        sibling = current.prev_named_sibling
        while sibling is not None and sibling.type in (
            "attribute_item",
            "inner_attribute_item",
            "line_comment",
            "block_comment",
        ):
            if sibling.type == "attribute_item" and _test_attribute(sibling):
                return True
            sibling = sibling.prev_named_sibling
        for child in current.named_children:  # a file's or a body's leading ``#![…]``
            if child.type == "inner_attribute_item" and _test_attribute(child):
                return True
            if child.type not in ("inner_attribute_item", "line_comment", "block_comment"):
                break
        current = current.parent
    return False


def _test_attribute(item: tree_sitter.Node) -> bool:
    text = "".join(_text(item).split())
    body = text[text.index("[") + 1 : -1] if "[" in text else ""
    if body in ("test", "bench") or (body.endswith("::test") and "(" not in body):
        return True
    if not body.startswith("cfg("):
        return False
    words = _CFG_WORD.findall(body[3:])
    value, _ = _cfg_value(words, 0)
    return value is False


def _cfg_value(words: list[str], at: int) -> tuple[bool | None, int]:
    """A cfg predicate in three-valued logic with ``test`` false and every other option
    unknown (None): False means the item exists only when testing. Returns the value and
    the index past the predicate; ``words[at]`` is the predicate's first word or ``(``."""
    if words[at : at + 1] == ["("]:
        value, at = _cfg_value(words, at + 1)
        return value, at + 1  # past ")"
    word = words[at] if at < len(words) else ""
    if word in ("all", "any", "not") and words[at + 1 : at + 2] == ["("]:
        values: list[bool | None] = []
        at += 2
        while at < len(words) and words[at] != ")":
            if words[at] == ",":
                at += 1
                continue
            value, at = _cfg_value(words, at)
            values.append(value)
        at += 1
        if word == "not":
            inner = values[0] if values else None
            return (None if inner is None else not inner), at
        if word == "all":
            if False in values:
                return False, at
            return (True if all(v is True for v in values) else None), at
        if True in values:
            return True, at
        return (False if all(v is False for v in values) else None), at
    if words[at + 1 : at + 2] == ["="]:  # feature = "x": unknown
        return None, at + 3
    return (False if word == "test" else None), at + 1


def _is_site_throw(language: str, node: tree_sitter.Node) -> bool:
    operands = [c for c in node.named_children if c.type not in ("comment", "line_comment")]
    if not operands:
        return False  # C++ ``throw;``
    thrown = operands[0]
    while thrown.type == "parenthesized_expression" and thrown.named_children:
        thrown = thrown.named_children[0]
    if thrown.type != "identifier" or language not in _CATCH:
        return True
    return _text(thrown) not in _caught_names(node)


def _caught_names(node: tree_sitter.Node) -> set[str]:
    names: set[str] = set()
    parent = node.parent
    while parent is not None:
        if parent.type == "catch_clause":
            for child in _walk(parent):
                if (
                    child.type == "identifier"
                    and child.parent is not None
                    and (
                        child.parent.type
                        in (
                            "catch_formal_parameter",  # Java
                            "catch_clause",  # JavaScript/TypeScript: catch (e)
                            "parameter_declaration",  # C++
                            "reference_declarator",
                            "pointer_declarator",
                        )
                    )
                ):
                    names.add(_text(child))
                if child.type in ("block", "statement_block", "compound_statement"):
                    break
        parent = parent.parent
    return names


def _walk(node: tree_sitter.Node) -> Iterator[tree_sitter.Node]:
    """The clause's own children and their descendants, before its body."""
    for child in node.named_children:
        yield child
        if child.type in ("block", "statement_block", "compound_statement"):
            return
        yield from _walk(child)


# -- Python -------------------------------------------------------------------------------


class _PythonSites(ast.NodeVisitor):
    def __init__(self) -> None:
        self.lines: set[int] = set()
        self.caught: list[set[str]] = []
        self.warn_names: set[str] = set()
        self.warnings_modules: set[str] = set()

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.name == "warnings":
                self.warnings_modules.add(alias.asname or "warnings")

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if node.module == "warnings":
            for alias in node.names:
                if alias.name == "warn":
                    self.warn_names.add(alias.asname or "warn")

    def visit_Try(self, node: ast.Try | ast.TryStar) -> None:
        for stmt in (*node.body, *node.orelse, *node.finalbody):
            self.visit(stmt)
        for handler in node.handlers:
            self.caught.append({handler.name} if handler.name else set())
            if handler.type is not None:
                self.visit(handler.type)
            for stmt in handler.body:
                self.visit(stmt)
            self.caught.pop()

    visit_TryStar = visit_Try

    def visit_Raise(self, node: ast.Raise) -> None:
        exc = node.exc
        if exc is None:
            return
        if isinstance(exc, ast.Name) and any(exc.id in names for names in self.caught):
            return
        self.lines.add(node.lineno)
        self.generic_visit(node)

    def visit_Assert(self, node: ast.Assert) -> None:
        if node.msg is not None:
            self.lines.add(node.lineno)
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr == "warn"
            and isinstance(func.value, ast.Name)
            and func.value.id in (self.warnings_modules or {"warnings"})
        ) or (isinstance(func, ast.Name) and func.id in self.warn_names):
            self.lines.add(node.lineno)
        self.generic_visit(node)


def _python(text: str) -> Reference:
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return Reference([], False)
    visitor = _PythonSites()
    visitor.visit(tree)
    return Reference(sorted(visitor.lines), True)


# -- Cython -------------------------------------------------------------------------------


def _cython_tree(text: str, path: str) -> Any:
    """Cython's parse of a file. Its parser opens ``include "x.pxi"`` files, which a
    string source cannot, so each include statement is read as ``pass`` (the included
    file is counted on its own; the line numbers stay)."""
    from Cython.Compiler.TreeFragment import parse_from_strings

    lines = text.split("\n")
    for i, line in enumerate(lines):
        stripped = line.lstrip()
        if stripped.startswith("include ") and stripped[8:].lstrip()[:1] in ("'", '"'):
            lines[i] = line[: len(line) - len(stripped)] + "pass"
    return parse_from_strings(path.replace("/", "_").replace(".", "_"), "\n".join(lines))


def _cython(text: str, path: str) -> Reference:
    from Cython.Compiler import ExprNodes, Nodes
    from Cython.Compiler.Errors import init_thread

    init_thread()
    try:
        tree = _cython_tree(text, path)
    except Exception:  # Cython's parser reports errors as several exception types
        return Reference([], False)
    lines: set[int] = set()

    def visit(node: Any, caught: frozenset[str]) -> None:
        if isinstance(node, Nodes.RaiseStatNode):
            exc = node.exc_type
            rethrow = isinstance(exc, ExprNodes.NameNode) and exc.name in caught
            if exc is not None and not rethrow:
                lines.add(node.pos[1])
        elif isinstance(node, Nodes.AssertStatNode) and node.value is not None:
            lines.add(node.pos[1])
        elif isinstance(node, ExprNodes.SimpleCallNode):
            func = node.function
            if (
                isinstance(func, ExprNodes.AttributeNode)
                and func.attribute == "warn"
                and isinstance(func.obj, ExprNodes.NameNode)
                and func.obj.name == "warnings"
            ):
                lines.add(node.pos[1])
        inner = caught
        if isinstance(node, Nodes.ExceptClauseNode) and isinstance(node.target, ExprNodes.NameNode):
            inner = caught | {node.target.name}
        for attr in getattr(node, "child_attrs", ()) or ():
            _each(getattr(node, attr, None), lambda n: visit(n, inner))

    visit(tree, frozenset())
    return Reference(sorted(lines), True)


def _each(value: Any, fn: Callable[[Any], None]) -> None:
    if value is None:
        return
    if isinstance(value, list):
        for item in value:
            _each(item, fn)
        return
    if hasattr(value, "child_attrs"):
        fn(value)
