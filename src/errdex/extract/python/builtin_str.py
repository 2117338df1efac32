"""How the builtin exception classes print their arguments, as ``str()`` does.

A class that inherits its ``__str__`` from a builtin prints one argument as itself (a
``KeyError`` as its repr), several as the tuple's repr, an OSError's errno, strerror and
filename as ``[Errno 2] strerror: 'filename'``; UnicodeError and kin print in their own
way, which is not followed.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from errdex.template import MessageTemplate

from .frames import NONE, Args, Fail, Text, Value
from .hierarchy import Node
from .literals import quoted_repr
from .subtree import walk, walked

__all__ = ["args_message", "assigned_args", "builtin_class", "builtin_message", "builtin_repr"]


def builtin_class(qualified: str) -> type | None:
    import builtins

    found = getattr(builtins, qualified.removeprefix("builtins."), None)
    return found if isinstance(found, type) and issubclass(found, BaseException) else None


def builtin_message(mro: Sequence[Node], args: Args) -> MessageTemplate:
    """``str()`` of an exception whose message the builtin ``__init__``/``__str__`` make."""
    printer = next((n for n in mro if isinstance(n, type) and "__str__" in vars(n)), None)
    items = args.positional
    if not items:
        return MessageTemplate()
    if len(items) == 1:
        value = items[0]
        if value is NONE:
            return MessageTemplate.literal("None")
        if not isinstance(value, Text):
            raise Fail
        if printer is KeyError:
            return quoted_repr(value.template)
        return value.template
    if printer is OSError and len(items) in (2, 3):
        return _oserror(items)
    if printer is not BaseException:
        raise Fail  # UnicodeError and kin print several arguments their own way
    pieces: list[MessageTemplate] = []
    for value in items:
        if not isinstance(value, Text):
            raise Fail
        pieces.append(value.template if value.template.is_opaque else quoted_repr(value.template))
    return (
        MessageTemplate.literal("(")
        + MessageTemplate.join(pieces, ", ")
        + MessageTemplate.literal(")")
    )


def assigned_args(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.expr] | None:
    """The elements of ``self.args = (a, b)`` (or ``self.args = a,``) when an ``__init__``
    assigns ``self.args`` once, in its own body (not under an ``if`` or a loop), after
    every base ``__init__`` call it makes; None otherwise."""
    stores = [
        n
        for n in walked(fn)
        if isinstance(n, ast.Attribute)
        and n.attr == "args"
        and isinstance(n.ctx, ast.Store)
        and isinstance(n.value, ast.Name)
        and n.value.id == "self"
    ]
    if len(stores) != 1:
        return None
    at: int | None = None
    for i, stmt in enumerate(fn.body):
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and stmt.targets[0] is stores[0]
            and isinstance(stmt.value, ast.Tuple)
            and not any(isinstance(e, ast.Starred) for e in stmt.value.elts)
        ):
            at = i
    if at is None:
        return None
    for stmt in fn.body[at + 1 :]:
        for node in walk(stmt):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "__init__"
            ):
                return None  # a base ``__init__`` sets ``args`` again
    stmt = fn.body[at]
    assert isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Tuple)
    return list(stmt.value.elts)


def args_message(mro: Sequence[Node], values: list[Value], sources: list[str]) -> MessageTemplate:
    """``str()`` of an exception whose ``__init__`` set ``self.args`` to these values and
    called no base ``__init__``: ``BaseException.__str__`` of them (an OSError's own
    printing needs ``errno``, which ``OSError.__new__`` leaves unset when a subclass
    overrides ``__init__``), a KeyError's repr of one. A value shown as a bare number may
    have been an int or a string: its place is a hole named by its source."""
    printer = next((n for n in mro if isinstance(n, type) and "__str__" in vars(n)), None)
    if isinstance(printer, type) and issubclass(printer, OSError):
        printer = BaseException
    if printer not in (BaseException, KeyError):
        raise Fail
    if len(values) == 1:
        return builtin_message([printer], Args(list(values)))
    pieces = _reprs(values, sources)
    trailing = "," if len(pieces) == 1 else ""
    return (
        MessageTemplate.literal("(")
        + MessageTemplate.join(pieces, ", ")
        + MessageTemplate.literal(trailing + ")")
    )


def builtin_repr(name: str, args: Args) -> MessageTemplate:
    """``BaseException.__repr__``: ``Name()``, ``Name('one')``, ``Name('a', 1)``."""
    if args.keywords:
        raise Fail
    values = list(args.positional)
    pieces = _reprs(values, [f"args[{i}]" for i in range(len(values))])
    return (
        MessageTemplate.literal(f"{name}(")
        + MessageTemplate.join(pieces, ", ")
        + MessageTemplate.literal(")")
    )


def _reprs(values: list[Value], sources: list[str]) -> list[MessageTemplate]:
    """The ``repr()`` of each value: text quoted, a bare value as it is, and a value shown
    as a number (an int, or a string of digits: not known which) a hole named ``source``."""
    pieces: list[MessageTemplate] = []
    for value, source in zip(values, sources, strict=True):
        if value is NONE:
            pieces.append(MessageTemplate.literal("None"))
            continue
        if not isinstance(value, Text):
            raise Fail
        template = value.template
        if template.is_opaque:
            pieces.append(template)
        elif not template.holes and _numeric(template.display):
            pieces.append(MessageTemplate.hole("{" + source + "}", source))
        else:
            pieces.append(quoted_repr(template))
    return pieces


def _numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _oserror(items: list[Value]) -> MessageTemplate:
    """``OSError(errno, strerror[, filename])``, its ``__init__`` not overridden:
    ``[Errno 2] strerror`` and ``: 'filename'``."""
    texts: list[MessageTemplate] = []
    for value in items:
        if not isinstance(value, Text):
            raise Fail
        texts.append(value.template)
    message = (
        MessageTemplate.literal("[Errno ") + texts[0] + MessageTemplate.literal("] ") + texts[1]
    )
    if len(texts) == 3:
        filename = texts[2]
        message += MessageTemplate.literal(": ") + (
            filename if filename.is_opaque else quoted_repr(filename)
        )
    return message
