"""Holes whose value a guard on the way narrows to one character.

jinja2's lexer raises ``f"unexpected '{data}'"`` under ``elif data in ("}", ")", "]"):``:
``{data}`` is one character, so the record's pattern says so (``char``), and the message
``unexpected 'end of print statement'`` (the parser's ``f"unexpected
{describe_token(token)!r}"``) is not taken for it. Only an ``if`` test ``name in (…)`` of
one-character strings, or ``name == "x"``, with ``name`` shown as is (no conversion), and
not bound again in the guarded body before the site, narrows the hole ``{name}``.
"""

from __future__ import annotations

import ast
from dataclasses import replace

from errdex.template import Hole, MessageTemplate

from .guards import Guards
from .subtree import walked

__all__ = ["narrowed"]


def narrowed(template: MessageTemplate, guards: Guards, line: int) -> MessageTemplate:
    """``template`` with each hole the guards hold to one character marked ``char``."""
    names = {n for kind, node, _ in guards if kind == "if" for n in _one_char_names(node, line)}
    if not names or not any(isinstance(p, Hole) and p.text[1:-1] in names for p in template.parts):
        return template
    return MessageTemplate(
        replace(p, kind="char") if isinstance(p, Hole) and p.text[1:-1] in names else p
        for p in template.parts
    )


def _one_char_names(node: ast.If, line: int) -> list[str]:
    """The names ``node``'s test holds to one-character strings, when its body does not
    bind them again before ``line``."""
    test = node.test
    if not (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.left, ast.Name)
        and isinstance(test.ops[0], (ast.In, ast.Eq))
    ):
        return []
    right = test.comparators[0]
    values = right.elts if isinstance(right, (ast.Tuple, ast.List, ast.Set)) else [right]
    if isinstance(test.ops[0], ast.Eq) and not isinstance(right, ast.Constant):
        return []
    if not values or not all(
        isinstance(v, ast.Constant) and isinstance(v.value, str) and len(v.value) == 1
        for v in values
    ):
        return []
    name = test.left.id
    for stmt in node.body:
        for inner in walked(stmt):  # listed once: each site under the guard asks
            if (
                isinstance(inner, ast.Name)
                and inner.id == name
                and isinstance(inner.ctx, ast.Store)
                and inner.lineno < line
            ):
                return []
    return [name]
