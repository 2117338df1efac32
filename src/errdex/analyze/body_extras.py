"""Facts of a function body that only the entry-point walk reads, gathered in one call
so that :mod:`.walk` names them once (:mod:`.filled_locals`, :mod:`.param_changes`,
:mod:`.closures`, :mod:`.kwargs_escape`)."""

from __future__ import annotations

import ast
from typing import TypedDict

from .closures import handed_out
from .filled_locals import filled_spans
from .kwargs_escape import escaped_kwargs
from .param_changes import param_changes

__all__ = ["BodyExtras", "body_extras"]


class BodyExtras(TypedDict):
    filled_lists: dict[str, tuple[int, int]]
    param_changes: dict[str, tuple[int, bool]]
    handed_out: tuple[str, ...]
    escaped: frozenset[str]


def body_extras(node: ast.FunctionDef | ast.AsyncFunctionDef, is_test: bool) -> BodyExtras:
    """The :class:`FuncFacts` fields these hold (none read in a test module)."""
    if is_test:
        return BodyExtras(filled_lists={}, param_changes={}, handed_out=(), escaped=frozenset())
    return BodyExtras(
        filled_lists=filled_spans(node),
        param_changes=param_changes(node),
        handed_out=handed_out(node),
        escaped=escaped_kwargs(node),
    )
