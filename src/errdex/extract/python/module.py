"""What a module defines and imports, and its source text: what every later step reads.

The names a module binds at its top level (imports, functions, classes and their
methods) decide what a raised name means; the text decides how a site is shown.
"""

from __future__ import annotations

import ast
import builtins
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from itertools import accumulate, repeat
from operator import add
from typing import TYPE_CHECKING

from errdex.extract.source_lines import source_lines

from .scope import Env, Scope
from .subtree import name_ids

if TYPE_CHECKING:
    from .name_views import NameWatch

__all__ = [
    "BUILTIN_EXCEPTIONS",
    "ModuleReader",
    "binding_lines",
    "dotted_name",
    "jython_only",
    "module_name_for",
]

BUILTIN_EXCEPTIONS: frozenset[str] = frozenset(
    name
    for name, obj in vars(builtins).items()
    if isinstance(obj, type) and issubclass(obj, BaseException)
)
_EXCEPTION_SUFFIXES = ("Error", "Exception", "Warning", "Exit", "Interrupt", "Failure", "Fault")


def module_name_for(path: str) -> str:
    """``networkx/classes/graph.py`` -> ``networkx.classes.graph``; ``src/`` and ``Lib/`` dropped."""
    parts = path.removesuffix(".py").removesuffix(".pyi").split("/")
    if parts and parts[0] in ("src", "Lib", "lib") and len(parts) > 1:
        parts = parts[1:]
    if parts and parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return ".".join(parts)


class ModuleReader:
    """A module's top-level names and its source text (the base of the extractor)."""

    #: What dependents looked up in this reader, when it is a kept reader of another
    #: module read by name (:mod:`.name_views`): its text read at all is a whole read.
    _watch: NameWatch | None = None

    def __init__(self, source: str, file_path: str, module: str, fields: dict[str, str]) -> None:
        self._source = source
        self.file_path = file_path
        self.module = module
        self.placeholder_fields = fields
        self._lines: list[str] | None = None
        self._joined: str | None = None  # the lines joined by "\n" (:meth:`lines_with`)
        self._starts: list[int] = []  # where each of them starts in that text
        self.imports: dict[str, str] = {}
        self.module_env: Env = {}
        self.functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        self.methods: dict[tuple[str, str], ast.FunctionDef | ast.AsyncFunctionDef] = {}
        self.classes: dict[str, ast.ClassDef] = {}
        #: Modules this one star-imports (``from .errors import *``), resolved by the
        #: hierarchy reader, which can read them.
        self.star_imports: list[str] = []
        #: ``__all__`` when the module spells it as a literal list or tuple.
        self.exported: list[str] | None = None
        #: The lines where top-level statements bind each name (``module_globals``).
        self.binding_lines: dict[str, list[int]] = {}
        #: ``__name__ = 'decimal'`` at the top level (``_pydecimal``): the name a class
        #: defined after it carries in ``__module__``, what tracebacks print; and its line.
        self.runtime_name: tuple[str, int] | None = None

    # -- module facts -----------------------------------------------------------------

    def _index_module(self, tree: ast.Module) -> None:
        package = (
            self.module
            if self.file_path.endswith("__init__.py")
            else self.module.rpartition(".")[0]
        )
        toplevel = list(self._toplevel_and_guarded(tree.body))  # read twice below
        self.binding_lines = binding_lines(toplevel)
        for node in toplevel:
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.imports[alias.asname] = alias.name
                    else:
                        top = alias.name.split(".")[0]
                        self.imports[top] = top
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".") if package else []
                    if node.level > 1:
                        anchor = anchor[: len(anchor) - (node.level - 1)]
                    base = ".".join([*anchor, *([base] if base else [])])
                if any(alias.name == "*" for alias in node.names):
                    self.star_imports.append(base.lstrip("."))
                for alias in node.names:
                    if alias.name != "*":
                        self.imports[alias.asname or alias.name] = f"{base}.{alias.name}".lstrip(
                            "."
                        )
            elif (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == "__all__"
                and isinstance(node.value, (ast.List, ast.Tuple))
            ):
                self.exported = [
                    e.value
                    for e in node.value.elts
                    if isinstance(e, ast.Constant) and isinstance(e.value, str)
                ]
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.functions.setdefault(node.name, node)
            elif (name := _assigned_name(node)) is not None and node in tree.body:
                self.runtime_name = (name, node.lineno)
            elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Name):
                self._alias(node)  # ``UnpackValueError = ValueError``: a class by another name
            elif isinstance(node, ast.ClassDef):
                self.classes.setdefault(node.name, node)
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        self.methods.setdefault((node.name, item.name), item)

    def printed_class(self, qualified: str | None) -> str | None:
        """The class as a traceback prints it where that is not ``qualified``: a class of
        this module defined after a top-level ``__name__ = '…'`` carries that name
        (``decimal.InvalidOperation`` raised in ``_pydecimal``); None otherwise."""
        if self.runtime_name is None or qualified is None:
            return None
        name, line = self.runtime_name
        head, _, short = qualified.rpartition(".")
        node = self.classes.get(short)
        if head != self.module or node is None or node.lineno < line or name == head:
            return None
        return f"{name}.{short}"

    def _alias(self, node: ast.Assign) -> None:
        """A module-level name bound to a class known here, read as an import of it."""
        value = node.value.id if isinstance(node.value, ast.Name) else ""
        if value in self.classes:
            qualified = f"{self.module}.{value}"
        elif value in self.imports:
            qualified = self.imports[value]
        elif isinstance(getattr(builtins, value, None), type):
            qualified = f"builtins.{value}"
        else:
            return
        for target in node.targets:
            if isinstance(target, ast.Name) and target.id not in self.classes:
                self.imports.setdefault(target.id, qualified)

    def _toplevel_and_guarded(self, body: Sequence[ast.stmt]) -> Iterator[ast.stmt]:
        """Module-level statements, looking inside ``if``/``try`` (``TYPE_CHECKING``, fallbacks)."""
        for stmt in body:
            yield stmt
            if isinstance(stmt, ast.If):
                if not jython_only(stmt.test):
                    yield from self._toplevel_and_guarded(stmt.body)
                yield from self._toplevel_and_guarded(stmt.orelse)
            elif isinstance(stmt, (ast.Try, ast.TryStar)):
                yield from self._toplevel_and_guarded(stmt.body)
                for handler in stmt.handlers:
                    yield from self._toplevel_and_guarded(handler.body)
                yield from self._toplevel_and_guarded(stmt.orelse)

    # -- source text ------------------------------------------------------------------

    @property
    def source(self) -> str:
        if self._watch is not None:
            self._watch.whole = True
        return self._source

    @source.setter
    def source(self, value: str) -> None:
        self._source = value
        self._lines = self._joined = None

    @property
    def lines(self) -> list[str]:
        if self._watch is not None:
            self._watch.whole = True
        return self._all_lines()

    def _all_lines(self) -> list[str]:
        """:attr:`lines`, for a read of a node's own lines (:meth:`segment`): what a
        name's view holds, not the whole text."""
        if self._lines is None:
            self._lines = source_lines(self._source)
        return self._lines

    def lines_with(self, needle: str) -> list[int]:
        """The numbers of the :attr:`lines` holding ``needle`` (one without a line break),
        found with ``str.find`` over the lines joined once, not by testing every line."""
        if self._joined is None:
            self._joined = "\n".join(self.lines)
            # each line's length and its "\n", added up without a Python loop
            lengths = map(add, map(len, self.lines[:-1]), repeat(1))
            self._starts = list(accumulate(lengths, initial=0))
        text, starts = self._joined, self._starts
        found: list[int] = []
        at = text.find(needle)
        while at >= 0:
            line = bisect_right(starts, at)
            found.append(line)
            at = text.find(needle, starts[line] if line < len(starts) else len(text))
        return found

    def segment(self, node: ast.AST) -> str:
        """The node's source text (``ast`` columns are UTF-8 byte offsets)."""
        lineno = getattr(node, "lineno", None)
        end_lineno = getattr(node, "end_lineno", None)
        col = getattr(node, "col_offset", None)
        end_col = getattr(node, "end_col_offset", None)
        if lineno is None or end_lineno is None or col is None or end_col is None:
            return ast.unparse(node)
        lines = self._all_lines()[lineno - 1 : end_lineno]
        if not lines:
            return ast.unparse(node)
        # an ASCII line's byte offsets are its character offsets: sliced as it is
        if len(lines) == 1:
            line = lines[0]
            if line.isascii():
                return line[col:end_col]
            return line.encode()[col:end_col].decode(errors="replace")
        first, last = lines[0], lines[-1]
        first = first[col:] if first.isascii() else first.encode()[col:].decode(errors="replace")
        last = (
            last[:end_col] if last.isascii() else last.encode()[:end_col].decode(errors="replace")
        )
        return "\n".join([first, *lines[1:-1], last])

    def expr_text(self, node: ast.AST) -> str:
        """An expression as written, on one line: one written over several lines is
        unparsed, since joining its lines would keep comments and bracket spacing."""
        text = self.segment(node)
        if "\n" in text:
            return ast.unparse(node)
        return text

    # -- what a name means ---------------------------------------------------------------

    def _is_class_expr(self, node: ast.expr, scope: Scope) -> bool:
        if isinstance(node, ast.Name):
            name = node.id
            if name in BUILTIN_EXCEPTIONS or name in self.classes:
                return True
            if name in self.functions:
                return False
            looks_like_class = name[:1].isupper() and not name.isupper()
            if name in self.imports:
                return looks_like_class
            if looks_like_class and scope.function and name in scope.env:
                return False  # a local variable holding an instance
            return looks_like_class
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                return node.attr[:1].isupper()
            return (node.attr[:1].isupper() and not node.attr.isupper()) or node.attr.endswith(
                _EXCEPTION_SUFFIXES
            )
        return False

    def qualify(self, node: ast.expr) -> str:
        """Resolve a class expression through the module's imports and definitions."""
        dotted = dotted_name(node)
        if dotted is None:
            return self.expr_text(node)
        head, _, rest = dotted.partition(".")
        if head in self.imports:
            base = self.imports[head]
            return f"{base}.{rest}" if rest else base
        if not rest and head in self.classes:
            return f"{self.module}.{head}"
        if not rest and head in BUILTIN_EXCEPTIONS:
            return f"builtins.{head}"
        return dotted


def _assigned_name(node: ast.stmt) -> str | None:
    """The string of ``__name__ = '…'``, else None."""
    if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
        return None
    target, value = node.targets[0], node.value
    if not (isinstance(target, ast.Name) and target.id == "__name__"):
        return None
    if isinstance(value, ast.Constant) and isinstance(value.value, str) and value.value:
        return value.value
    return None


def jython_only(test: ast.expr) -> bool:
    """``sys.platform[:4] == "java"``, ``sys.platform.startswith("java")`` or
    ``os.name == "java"``: true only on Jython, which runs no Python 3, so what the branch
    binds (``from java.lang import Exception``) never binds anything where this code runs."""
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute):
        if test.func.attr != "startswith" or dotted_name(test.func.value) != "sys.platform":
            return False
        arg = test.args[0] if len(test.args) == 1 and not test.keywords else None
        return isinstance(arg, ast.Constant) and arg.value == "java"
    if not (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.Eq)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value == "java"
    ):
        return False
    left = test.left
    if isinstance(left, ast.Subscript) and isinstance(left.slice, ast.Slice):
        cut = left.slice
        four = isinstance(cut.upper, ast.Constant) and cut.upper.value == 4
        if cut.lower is None and cut.step is None and four:
            left = left.value
    return dotted_name(left) in ("sys.platform", "os.name")


def dotted_name(node: ast.expr) -> str | None:
    """``a.b.c`` as written, or None when the expression is not a dotted name."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def binding_lines(stmts: Iterable[ast.stmt]) -> dict[str, list[int]]:
    """The lines where top-level statements bind each name."""
    out: dict[str, list[int]] = {}
    for stmt in stmts:
        names: list[str] = []
        if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            names = [name for t in targets for name in name_ids(t)]
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            names = [
                name
                for item in stmt.items
                if item.optional_vars is not None
                for name in name_ids(item.optional_vars)
            ]
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names = [stmt.name]
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            names = [(a.asname or a.name).split(".")[0] for a in stmt.names]
        for name in names:
            out.setdefault(name, []).append(stmt.lineno)
    return out
