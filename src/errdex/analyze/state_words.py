"""What the object a method runs on (or an argument checked against it) was like, where
the raising method's own lines say it exactly: the words that follow "It comes from a
call of `Mailbox.popitem()`", which alone restated the entry point (paired blind review,
stop 38: misleading 9 times in that family).

* ``for key in self.iterkeys(): return … else: raise``: the loop returns on its first
  round, so the raise runs only when there is none: "on an empty `Mailbox`";
* ``if self._listener is None: raise``, where a public method of the class (``close``)
  stores ``None`` there on every way through it: "after `close()` was called on the same object";
* ``try: i = self.childNodes.index(oldChild) except ValueError: raise``: "that passes an
  `oldChild` that is not in its `childNodes`".

Only where that is the one condition on the way (inside ``try``/``with`` bodies at
most), no earlier ``raise`` or ``return`` on the way may fire first (:mod:`.ways_out`),
and every entry point named is the raising method itself (depth 0): a method reached
through another call may run on an object its caller never held.
"""

from __future__ import annotations

import ast

from .dominating import holds, way_tests
from .file_trees import function_node, module_tree
from .gathered import Gathered, short_name
from .guards import code, has_private
from .set_by import set_by
from .special_words import article
from .ways_out import exit_tests

__all__ = ["state_clause"]

_Function = (ast.FunctionDef, ast.AsyncFunctionDef)
#: ``self.<name>()`` calls that iterate over what the object holds.
_CONTENTS = frozenset(
    {"keys", "iterkeys", "values", "itervalues", "items", "iteritems", "__iter__"}
)
#: ``self.<attr>.<method>(arg)`` calls that raise ``ValueError`` when ``arg`` is not in it.
_FINDS = frozenset({"index", "remove"})


def state_clause(g: Gathered) -> str | None:
    """ "on an empty `Mailbox`", "after `close()` was called on the same object", "that passes an
    `oldChild` that is not in its `childNodes`"; None where the code says none exactly or
    an entry point may run the method on another object."""
    func = g.func
    if func is None or func.cls is None or not g.source_file or not g.entry_points:
        return None
    if not all(_on_own_object(g, e) for e in g.entry_points):
        return None
    node = function_node(g.source_file, func.line, func.name)
    if node is None or not node.args.args or node.args.args[0].arg != "self":
        return None
    if exit_tests(node, g.site.line) != []:
        return None  # an earlier way out may fire first (``if self._closed: raise``)
    cls = short_name(func.cls)
    holder = _holder(node.body, g.site.line)
    if isinstance(holder, (ast.For, ast.AsyncFor)):
        return _empty(holder, cls, g.site.line)
    if isinstance(holder, ast.Try):
        return _not_found(holder, g.site.line, _untouched(node, holder))
    tests = way_tests(node, g.site.line)
    tree = module_tree(g.source_file)
    if tests is None or len(tests) != 1 or tree is None:
        return None
    return set_by(tree, cls, tests[0])


def _on_own_object(g: Gathered, entry: dict[str, object] | object) -> bool:
    """Whether ``entry`` is the raising method itself (an entry point's ``passes`` maps
    its parameters, never ``self``: no deeper entry is known to pass its own object)."""
    return isinstance(entry, dict) and entry.get("depth") == 0


def _untouched(node: ast.FunctionDef | ast.AsyncFunctionDef, before: ast.stmt) -> set[str]:
    """The parameters after ``self`` that no line before ``before`` stores again
    (``oldChild = getattr(oldChild, "target", oldChild)`` is no longer the caller's)."""
    stored = {
        n.id
        for n in ast.walk(node)
        if isinstance(n, ast.Name)
        and isinstance(n.ctx, (ast.Store, ast.Del))
        and n.lineno < before.lineno
    }
    return {a.arg for a in node.args.args[1:]} - stored


def _holder(body: list[ast.stmt], line: int) -> ast.stmt | None:
    """The top statement (through ``with`` and ``try`` bodies) whose part holds the raise
    at ``line``: the ``for`` whose ``else`` does, the ``try`` whose handler does, or the
    raise's own statement."""
    while True:
        found = next((s for s in body if s.lineno <= line <= (s.end_lineno or s.lineno)), None)
        inside = isinstance(found, ast.Try) and holds(found.body, line)
        if isinstance(found, (ast.With, ast.AsyncWith)) or inside:
            body = found.body  # type: ignore[union-attr]
        else:
            return found


def _empty(loop: ast.For | ast.AsyncFor, cls: str, line: int) -> str | None:
    """A ``for`` whose body returns on its first round, raising in its ``else``."""
    if not loop.orelse or not isinstance(loop.orelse[0], ast.Raise):
        return None
    if loop.orelse[0].lineno != line:
        return None
    if not any(isinstance(s, ast.Return) for s in loop.body):
        return None
    if any(isinstance(n, (ast.Break, ast.Continue)) for s in loop.body for n in _own_walk(s)):
        return None
    over = loop.iter
    if isinstance(over, ast.Call) and not over.args and not over.keywords:
        func = over.func
        if isinstance(func, ast.Attribute) and _is_self(func.value) and func.attr in _CONTENTS:
            return f"on an empty {code(cls)} (one that holds no items)"
        if isinstance(over.func, ast.Name) and over.func.id == "iter":
            return None
    if _is_self(over):
        return f"on an empty {code(cls)} (one that holds no items)"
    if isinstance(over, ast.Attribute) and _is_self(over.value) and not has_private(over.attr):
        return f"on {article(cls)} {code(cls)} whose {code(over.attr)} is empty"
    return None


def _own_walk(node: ast.AST) -> list[ast.AST]:
    """``node``'s nodes, not those of loops or functions nested in it (their ``break``
    and ``continue`` are theirs)."""
    out: list[ast.AST] = []
    todo = [node]
    while todo:
        current = todo.pop()
        out.append(current)
        for child in ast.iter_child_nodes(current):
            if not isinstance(child, (ast.For, ast.AsyncFor, ast.While, *_Function, ast.Lambda)):
                todo.append(child)
    return out


def _not_found(try_node: ast.Try, line: int, params: set[str]) -> str | None:
    """``try: x = self.<attr>.index(param)`` with ``except ValueError: raise …``."""
    handler = next((h for h in try_node.handlers if holds(h.body, line)), None)
    if handler is None or len(try_node.body) != 1 or handler.body[0].lineno != line:
        return None
    if not (isinstance(handler.type, ast.Name) and handler.type.id == "ValueError"):
        return None
    stmt = try_node.body[0]
    value = stmt.value if isinstance(stmt, (ast.Assign, ast.Expr)) else None
    if not (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr in _FINDS
        and len(value.args) == 1
        and not value.keywords
        and isinstance(value.args[0], ast.Name)
        and value.args[0].id in params
    ):
        return None
    holder = value.func.value
    if not (isinstance(holder, ast.Attribute) and _is_self(holder.value)):
        return None
    if has_private(holder.attr):
        return None
    arg = value.args[0].id
    return f"that passes {article(arg)} {code(arg)} that is not in its {code(holder.attr)}"


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"
