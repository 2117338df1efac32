"""Warnings a test records by hand: ``with warnings.catch_warnings(record=True) as w``
followed by a check of a recorded warning's category (``issubclass(w[-1].category, C)``,
``w[0].category is C``, ``self.assertIs(w[-1].category, C)``) and, where given, of its
text (``str(w[-1].message) == "..."``). Without a category stated the block expects no
warning in particular and is not read (:mod:`.expects` adds what this finds)."""

from __future__ import annotations

import ast

from .expects_checks import Check
from .facts import CallRef, dotted

__all__ = ["CATCH_WARNINGS", "made_errors", "recorded", "records_warnings"]

#: The kind of such an expectation (:data:`errdex.evidence.TestKind`).
CATCH_WARNINGS = "catch_warnings"
#: unittest's checks of two values the category is compared with.
_SAME = frozenset({"assertIs", "assertEqual", "assertEquals", "assertIsSubclass"})
#: ... and of a text in (or equal to) the message.
_TEXT = {"assertEqual": True, "assertEquals": True, "assertIn": False}


def records_warnings(call: ast.Call, imports: dict[str, str]) -> bool:
    """Whether ``call`` is ``warnings.catch_warnings(record=True)`` (or the name
    imported from ``warnings``)."""
    ref = dotted(call.func)
    if ref is None or ref[-1] != "catch_warnings":
        return False
    full = ".".join((imports.get(ref[0], ref[0]), *ref[1:]))
    if full != "warnings.catch_warnings":
        return False
    return any(
        k.arg == "record" and isinstance(k.value, ast.Constant) and k.value.value is True
        for k in call.keywords
    )


def made_errors(call: ast.Call, imports: dict[str, str]) -> list[CallRef]:
    """The category ``warnings.simplefilter("error", C)`` (``category=C``) or
    ``filterwarnings("error", category=C)`` without a message makes an exception
    (``Warning`` without one): ``assertRaises(C)`` after it sees the warning raised."""
    ref = dotted(call.func)
    if ref is None or ref[-1] not in ("simplefilter", "filterwarnings"):
        return []
    if ".".join((imports.get(ref[0], ref[0]), *ref[1:])) != "warnings." + ref[-1]:
        return []
    action = call.args[0] if call.args else None
    if not (isinstance(action, ast.Constant) and action.value == "error"):
        return []
    at = 1 if ref[-1] == "simplefilter" else 2
    if at == 2 and (len(call.args) > 1 or any(k.arg == "message" for k in call.keywords)):
        return []  # only the warnings whose text it matches
    node = next((k.value for k in call.keywords if k.arg == "category"), None)
    node = node or (call.args[at] if len(call.args) > at else None)
    found = dotted(node) if node is not None else ("Warning",)
    return [found] if found is not None else []


def recorded(
    name: str, body: list[ast.stmt], rest: list[ast.stmt]
) -> tuple[list[CallRef], Check | None] | None:
    """The categories (and the text check) the block's ``body`` and the statements after
    it (up to one that binds ``name`` again) make of the warnings recorded in ``name``;
    None when they check no category. A check under ``not`` or ``assertFalse`` is none."""
    statements = [*body, *_until_bound(rest, name)]
    negated = {
        id(n)
        for s in statements
        for top in ast.walk(s)
        if (isinstance(top, ast.UnaryOp) and isinstance(top.op, ast.Not))
        or _named(top, "assertFalse")
        for n in ast.walk(top)
    }
    classes: list[CallRef] = []
    text: str | None = None
    whole = False
    for node in (n for s in statements for n in ast.walk(s) if id(n) not in negated):
        pairs: list[tuple[ast.expr, ast.expr, bool]] = []  # (a, b, whole)
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            op = node.ops[0]
            if isinstance(op, (ast.Is, ast.Eq)):
                pairs.append((node.left, node.comparators[0], True))
            elif isinstance(op, ast.In):
                pairs.append((node.left, node.comparators[0], False))
        elif isinstance(node, ast.Call) and len(node.args) >= 2:
            ref = dotted(node.func)
            last = ref[-1] if ref else ""
            if last == "issubclass" or last in _SAME:
                pairs.append((node.args[0], node.args[1], True))
            if last in _TEXT:
                pairs.append((node.args[0], node.args[1], _TEXT[last]))
        for a, b, is_whole in pairs:
            for left, right in ((a, b), (b, a)) if is_whole else ((a, b),):
                if _of_record(left, name, "category") and (ref := dotted(right)) is not None:
                    if ref not in classes:
                        classes.append(ref)
                elif (
                    text is None
                    and _of_message(right, name)
                    and isinstance(left, ast.Constant)
                    and isinstance(left.value, str)
                ):
                    text, whole = left.value, is_whole
    if not classes:
        return None
    return classes, (Check(text, whole) if text is not None else None)


def _of_record(node: ast.expr, name: str, attr: str) -> bool:
    """``w[-1].category`` (``attr``) of the record list ``name``."""
    return (
        isinstance(node, ast.Attribute)
        and node.attr == attr
        and isinstance(node.value, ast.Subscript)
        and isinstance(node.value.value, ast.Name)
        and node.value.value.id == name
    )


def _of_message(node: ast.expr, name: str) -> bool:
    """``str(w[-1].message)``."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "str"
        and len(node.args) == 1
        and _of_record(node.args[0], name, "message")
    )


def _named(node: ast.AST, method: str) -> bool:
    return isinstance(node, ast.Call) and (dotted(node.func) or ("",))[-1] == method


def _until_bound(statements: list[ast.stmt], name: str) -> list[ast.stmt]:
    """``statements`` up to the first that binds ``name`` again (a second ``with
    catch_warnings(record=True) as w`` of the same test)."""
    for i, stmt in enumerate(statements):
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store):
                return statements[:i]
    return statements
