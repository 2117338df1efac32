"""``sep.join(parts)`` of a local list made of literals and grown only by ``append``.

jinja2 builds messages so: ``TemplateSyntaxError.__str__`` joins ``[message, "  " +
location]`` and maybe the source line with newlines; ``Parser._fail_ut_eof`` joins
``["Encountered unknown tag 'x'."]`` (or ``["Unexpected end of template."]``) and up to
two more sentences with spaces, then passes that to ``self.fail``. What the list starts
as is known; whether each ``append`` ran is not.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from .frames import Function
from .subtree import walked

__all__ = ["Joined", "appended", "joined_name", "list_joined"]


@dataclass(frozen=True)
class Joined:
    separator: str
    #: The items of each list literal the name is assigned (one per assignment).
    starts: list[list[ast.expr]]
    #: The values appended to it, in the order written.
    appends: list[ast.expr]


def list_joined(value: ast.expr, fn: Function) -> Joined | None:
    """``"sep".join(name)`` in ``fn`` of a ``name`` that every assignment sets to a list
    literal (no ``*x``) and that nothing but ``name.append(x)`` uses; else None."""
    name = joined_name(value)
    if name is None:
        return None
    starts: list[list[ast.expr]] = []
    appends: list[ast.expr] = []
    for node in walked(fn):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and any(
            isinstance(t, ast.Name) and t.id == name
            for t in (node.targets if isinstance(node, ast.Assign) else [node.target])
        ):
            if isinstance(node, ast.Assign) and len(node.targets) != 1:
                return None
            listed = node.value
            if not isinstance(listed, ast.List) or any(
                isinstance(e, ast.Starred) for e in listed.elts
            ):
                return None
            starts.append(list(listed.elts))
        elif isinstance(node, ast.stmt):
            added = appended(node, name)
            if added is not None:
                appends.append(added)
    uses = sum(isinstance(n, ast.Name) and n.id == name for n in walked(fn))
    if not starts or uses != len(starts) + 1 + len(appends):
        return None  # bound or used some other way too (a loop, ``extend``, ``+=``)
    assert isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
    separator = value.func.value
    assert isinstance(separator, ast.Constant) and isinstance(separator.value, str)
    return Joined(separator.value, starts, appends)


def joined_name(value: ast.expr) -> str | None:
    """``lines`` of ``"sep".join(lines)``."""
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr == "join"
        and isinstance(value.func.value, ast.Constant)
        and isinstance(value.func.value.value, str)
        and len(value.args) == 1
        and not value.keywords
        and isinstance(value.args[0], ast.Name)
    ):
        return value.args[0].id
    return None


def appended(stmt: ast.stmt, name: str) -> ast.expr | None:
    """``x`` of ``name.append(x)``, else None."""
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    if (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "append"
        and isinstance(call.func.value, ast.Name)
        and call.func.value.id == name
        and len(call.args) == 1
        and not call.keywords
    ):
        return call.args[0]
    return None
