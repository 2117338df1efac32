"""Which statement of a ``try`` raised what its handler caught, when only one can have.

"Triggered after `OSError` was caught" leaves the reader to find the ``try``. When the
``try`` body holds one statement that can raise at all, that statement raised it, however
deep the raise went: "after `fdst.write(buf)` raised `OSError`". A body of several
statements that can raise says nothing more than the handler does, and is not guessed at
(``compiler = get_default_compiler(plat)`` before ``compiler_class[compiler]`` may raise
``KeyError`` as well).
"""

from __future__ import annotations

import ast
import builtins
import textwrap
from collections.abc import Collection

from .private_terms import private_only_as_attributes

__all__ = ["SHOWN_LENGTH", "raising_statement", "suppresses_context"]

#: A statement longer than this (or over several lines) is not quoted.
SHOWN_LENGTH = 70


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _code_line(line: str) -> bool:
    text = line.strip()
    return bool(text) and not text.startswith("#")


def _try_body(lines: list[str], at: int) -> list[str] | None:
    """The lines of the ``try`` body whose handler starts at ``lines[at]``."""
    if not 0 <= at < len(lines) or not lines[at].lstrip().startswith("except"):
        return None
    indent = _indent(lines[at])
    start = None
    for j in range(at - 1, -1, -1):
        line = lines[j]
        if not _code_line(line) or _indent(line) > indent:
            continue
        if _indent(line) < indent:
            return None
        head = line.strip()
        if head.startswith("except"):
            continue  # an earlier handler of the same try
        if head.replace(" ", "") == "try:":
            start = j
        break
    if start is None:
        return None
    body: list[str] = []
    for line in lines[start + 1 : at]:
        if _code_line(line) and _indent(line) <= indent:
            break  # the first handler
        body.append(line)
    return body


def _can_raise(stmt: ast.stmt) -> bool:
    """Whether a statement can raise at all: ``pass`` and a name or constant bound to a
    plain name cannot."""
    if isinstance(stmt, ast.Pass):
        return False
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
        return False
    if isinstance(stmt, ast.Assign) and isinstance(stmt.value, (ast.Constant, ast.Name)):
        return not all(isinstance(t, ast.Name) for t in stmt.targets)
    return True


def raising_statement(
    lines: list[str], start: int, except_line: int, modules: Collection[str] = ()
) -> str | None:
    """The one statement of the ``try`` whose handler is at ``except_line`` that can
    raise, as written on one line (``return`` dropped; a call too long for one line by
    what it calls, ``f(...)``); None when there are more, it is
    a block or a ``raise``, it calls a private function or reads a private name other than
    an attribute of a public name or of one of the imported ``modules``, or the ``try`` is
    not in ``lines`` (a source window starting at line
    ``start``)."""
    body = _try_body(lines, except_line - start)
    if not body:
        return None
    text = textwrap.dedent("\n".join(body))
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None
    raising = [s for s in tree.body if _can_raise(s)]
    # a block (``if``, ``with``, ``for``...: each has a body, ``match`` its cases) or a
    # ``raise`` is no statement to name
    if (
        len(raising) != 1
        or hasattr(raising[0], "body")
        or isinstance(raising[0], (ast.Match, ast.Raise))
    ):
        return None
    stmt = raising[0]
    if isinstance(stmt, ast.Return) and stmt.value is not None:
        node: ast.AST = stmt.value
    elif isinstance(stmt, ast.Expr):
        node = stmt.value
    else:
        node = stmt
    if isinstance(node, ast.Await):
        node = node.value
    if not private_only_as_attributes(node, modules):
        return None  # ``self._fill()``: nothing a caller can find
    segment = ast.get_source_segment(text, node)
    if segment is None:
        return None
    if "\n" in segment or len(segment) > SHOWN_LENGTH:
        return _called(text, node, _caught(lines[except_line - start]))
    return segment


def _called(text: str, node: ast.AST, caught: frozenset[str] | None) -> str | None:
    """A call too long to quote, by what it calls: ``self.spawn(...)`` for the two lines
    of ``self.spawn(compiler_so + cc_args + [src, '-o', obj] + extra_postargs)`` ("after
    `DistutilsExecError` was caught" did not say what raised it: paired blind review, stop
    35); the call of an assignment whose targets are plain names. Only where working out
    its arguments cannot raise a class the handler catches (``caught``; None: any), so
    that the call is what raised it (:func:`_plain`). None for anything else."""
    if isinstance(node, ast.Assign) and all(isinstance(t, ast.Name) for t in node.targets):
        node = node.value
    if isinstance(node, ast.Await):
        node = node.value
    if not isinstance(node, ast.Call):
        return None
    parts = [*node.args, *(k.value for k in node.keywords)]
    if not all(_plain(part, caught) for part in parts):
        return None
    func = ast.get_source_segment(text, node.func)
    if func is None or "\n" in func or len(func) > SHOWN_LENGTH - 5:
        return None
    return f"{func}(...)"


#: The builtin exception classes: what Python's own operators and reads raise.
_BUILTIN = frozenset(
    name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
)
#: Caught, these take what reading a name raises (``NameError``) or an attribute
#: (``AttributeError``, or anything a property raises).
_NAME_ERRORS = frozenset({"NameError", "UnboundLocalError", "Exception", "BaseException"})
_ATTRIBUTE_ERRORS = frozenset({"AttributeError", "Exception", "BaseException"})
#: Operators and displays: they raise builtin classes (``a / b``: ``ZeroDivisionError``,
#: ``a + b``: ``TypeError``), so they are plain only where no builtin class is caught.
_OPERATORS = (ast.BinOp, ast.UnaryOp, ast.List, ast.Tuple, ast.Starred)
_NEUTRAL = (ast.Load, ast.operator, ast.unaryop)


def _caught(line: str) -> frozenset[str] | None:
    """The classes an ``except`` line names, by their last dotted part; None for a bare
    ``except:`` or one that cannot be read."""
    head = line.strip()
    try:
        tree = ast.parse(f"try:\n    pass\n{head}\n    pass")
    except SyntaxError:
        return None
    handler = tree.body[0].handlers[0] if isinstance(tree.body[0], ast.Try) else None
    if handler is None or handler.type is None:
        return None
    kinds = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    names = [ast.unparse(kind).rpartition(".")[2] for kind in kinds]
    return frozenset(names)


def _plain(node: ast.AST, caught: frozenset[str] | None) -> bool:
    """Whether working out ``node`` cannot raise what the handler catches: constants; a
    name unless ``NameError`` (or wider) is caught; an attribute of ``self`` or ``cls``
    unless ``AttributeError`` (or wider: a property may raise anything) is; operators
    and displays only where no builtin class is caught (in ``convert(a / b, …)`` under
    ``except ZeroDivisionError`` the division raised, and ``convert`` never ran)."""
    if caught is None:
        return all(isinstance(part, (ast.Constant, *_NEUTRAL)) for part in ast.walk(node))
    for part in ast.walk(node):
        if isinstance(part, ast.Attribute):
            root = part.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if not (isinstance(root, ast.Name) and root.id in ("self", "cls")):
                return False
            if caught & _ATTRIBUTE_ERRORS:
                return False
        elif isinstance(part, ast.Name):
            if caught & _NAME_ERRORS:
                return False
        elif isinstance(part, _OPERATORS):
            if caught & _BUILTIN:
                return False
        elif not isinstance(part, (ast.Constant, *_NEUTRAL)):
            return False
    return True


def suppresses_context(lines: list[str], at: int) -> bool:
    """Whether the statement at ``lines[at]`` is ``raise … from None``: the exception its
    handler caught is hidden from the traceback, so it is no cause to tell the reader
    (blind review 2026-12-06: "after `IPv4Address(...)` raised `AddressValueError`")."""
    if not 0 <= at < len(lines) or not lines[at].lstrip().startswith("raise"):
        return False
    for end in range(at + 1, min(len(lines), at + 12) + 1):
        try:
            tree = ast.parse(textwrap.dedent("\n".join(lines[at:end])))
        except (SyntaxError, ValueError, RecursionError):
            continue
        stmt = tree.body[0] if tree.body else None
        return (
            isinstance(stmt, ast.Raise)
            and isinstance(stmt.cause, ast.Constant)
            and stmt.cause.value is None
        )
    return False
