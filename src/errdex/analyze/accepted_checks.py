"""What :mod:`.accepted_types` must know before it names the types a parameter may
have: that each ``isinstance`` argument is a class, and that the call it names hands
the value on with nothing of its own in between.

Review rr1 of b48's rule: ``isinstance(other, cls)``, ``isinstance(item, self.klass)``,
``isinstance(x, kind)`` and ``isinstance(x, STR_TYPES)`` were said as types to pass
("as one of: `cls`"); and an outer call was named that returns early for a ``dict``
before it passes the value on, so the list omitted ``dict`` (httpx's ``Response``
hands ``content`` to ``encode_response``, which tests ``content is not None`` first).
"""

from __future__ import annotations

import ast
import builtins

from errdex.evidence import EntryPoint

from .file_trees import function_node, module_tree
from .gathered import Gathered

__all__ = ["class_names", "forwards_unchanged", "is_docstring"]


def class_names(g: Gathered, names: list[str], params: tuple[str, ...]) -> bool:
    """Every name is a class a caller can make: a builtin class, or a name (dotted: its
    head) the module imports or defines as a class, and no parameter of the function.
    A module-level constant (``STR_TYPES``) or an attribute of ``self`` is not."""
    tree = module_tree(g.source_file) if g.source_file else None
    if tree is None:
        return False
    classes, imported = _module_names(tree)
    for name in names:
        head, _, rest = name.partition(".")
        if head in params or head in ("self", "cls"):
            return False
        last = name.rpartition(".")[2]
        if last.isupper() or last.lower().endswith("types"):
            return False  # the convention for a constant, a tuple of classes
        if not rest and isinstance(getattr(builtins, head, None), type):
            continue
        if not rest and head in classes:
            continue
        if head not in imported:
            return False
    return True


def _module_names(tree: ast.Module) -> tuple[set[str], set[str]]:
    """The module's top-level class names and the names its imports bind (anywhere
    outside a function: ``try``/``if`` blocks at top level count)."""
    classes = {s.name for s in tree.body if isinstance(s, ast.ClassDef)}
    imported: set[str] = set()
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if isinstance(child, ast.Import):
                imported.update((a.asname or a.name.partition(".")[0]) for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                imported.update((a.asname or a.name) for a in child.names if a.name != "*")
            else:
                stack.append(child)
    return classes, imported


def forwards_unchanged(g: Gathered, entry: EntryPoint, passed: str) -> bool:
    """``entry`` (one hop above the raising function) passes ``passed`` straight on: its
    body, the docstring aside, is the one statement that calls the raising function
    (``return encode(content)``), so nothing of its own tests the value or returns
    first. Deeper chains are not read: nothing is said of them."""
    via = entry.get("via") or []
    func = g.entry_funcs.get(entry["qualname"])
    if entry.get("depth", 0) != 1 or len(via) != 2 or func is None or g.func is None:
        return False
    path = _file_of(g, func.path)
    node = function_node(path, func.line, func.name) if path else None
    if node is None:
        return False
    body = node.body[1:] if node.body and is_docstring(node.body[0]) else node.body
    if len(body) != 1 or not isinstance(body[0], (ast.Return, ast.Expr, ast.Assign)):
        return False
    call = body[0].value
    if not isinstance(call, ast.Call) or _called(call) != via[1].rpartition(".")[2]:
        return False
    values = [*call.args, *(k.value for k in call.keywords)]
    return any(isinstance(v, ast.Name) and v.id == passed for v in values)


def _file_of(g: Gathered, rel: str) -> str | None:
    """The absolute path of ``rel``, from the raising function's file and its path."""
    own = g.func.path if g.func is not None else ""
    source = g.source_file or ""
    if not own or not source.endswith(own):
        return None
    return source[: len(source) - len(own)] + rel


def _called(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else None


def is_docstring(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )
