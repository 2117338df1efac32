"""Text-level helpers for message templates: what kind of expression a message is, and
the string operations (``repr``, ``%``/``format`` parsing of literals, dedent, strip)
applied to a template with its holes kept in place.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Callable

from errdex.template import Hole, Literal, MessageTemplate

from .filled import peel
from .scope import Scope

__all__ = [
    "apply_literals",
    "cleandoc",
    "group_message",
    "irreducible",
    "is_stringish",
    "quoted_repr",
    "style_of",
    "transform",
]

_STRING_BUILDERS = frozenset({"format", "join", "strip", "rstrip", "lstrip", "dedent", "cleandoc"})


def is_stringish(node: ast.expr | object, scope: Scope) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, (ast.JoinedStr, ast.Name)):
        return True
    if isinstance(node, ast.BinOp):
        return is_stringish(node.left, scope)
    if isinstance(node, ast.Call):
        func = node.func
        name = (
            func.attr
            if isinstance(func, ast.Attribute)
            else func.id
            if isinstance(func, ast.Name)
            else ""
        )
        return name in _STRING_BUILDERS
    return False


def style_of(node: ast.expr) -> str:
    if isinstance(node, ast.Constant):
        return "literal"
    if isinstance(node, ast.JoinedStr):
        return "fstring"
    if isinstance(node, ast.Name):
        return "variable"
    if isinstance(node, ast.BinOp):
        return "formatted" if isinstance(node.op, ast.Mod) else "concat"
    if isinstance(node, ast.Call):
        return "formatted"
    return "other_expr"


def quoted_repr(template: MessageTemplate) -> MessageTemplate:
    """``repr()`` of a string built from this template, as ``str(KeyError(s))`` prints it.

    Without holes the repr is known exactly. With holes, which quote ``repr`` picks
    depends on the values (``"`` when the text holds ``'``), so the quotes are holes
    of their own rather than a guess.
    """
    if not template.holes:
        return MessageTemplate.literal(repr(template.display))
    if template.is_opaque:
        return template  # one value: maybe not even a string, so its repr is all we know
    # one character, ``'`` or ``"``: a hole taking any text would absorb whatever the
    # message holds around the repr (``'a' in 'b.c'`` read as one quoted value)
    quote = MessageTemplate([Hole("'", "(quote)", kind="quote")])
    return quote + template + quote


def group_message(message: MessageTemplate, count: int | None, source: str) -> MessageTemplate:
    """``str(ExceptionGroup(message, excs))``: ``message (2 sub-exceptions)``. ``count`` is
    how many ``excs`` holds when the source shows it, else a number hole named ``source``
    (the plural's ``s`` then a hole of its own)."""
    if count is not None:
        plural = "" if count == 1 else "s"
        return message + MessageTemplate.literal(f" ({count} sub-exception{plural})")
    number = MessageTemplate([Hole("{count}", "(count)", kind="int", filled=f"len({source})")])
    plural_hole = MessageTemplate.hole("{s}", "(plural)")
    return (
        message
        + MessageTemplate.literal(" (")
        + number
        + MessageTemplate.literal(" sub-exception")
        + plural_hole
        + MessageTemplate.literal(")")
    )


#: Calls whose result is their argument's text, or as good as: ``str(e)``, ``repr(key)``.
_TEXT_OF = frozenset({"str", "repr", "format"})


def irreducible(template: MessageTemplate, notes: list[str]) -> str | None:
    """Why a message that is one value and nothing else cannot be known better, or None.

    ``raise KeyError(key)``, ``raise Error(str(e))``, ``raise ValueError(self.msg)`` with
    nothing known of the value: the runtime prints the value, and no reading of the code
    would add text. A value built by a call not followed (a class's own ``__init__``, a
    helper) is not irreducible: reading further could say what it prints."""
    if len(template.parts) != 1 or not isinstance(template.parts[0], Hole):
        return None
    if any(
        "not followed" in n or "not resolved" in n or n.startswith("irreducible") for n in notes
    ):
        return None  # not known to be one value, or already said why it is
    hole = template.parts[0]
    if hole.filled:
        # ``{resp}`` filled by ``self.getresp()``: a call whose text reading could tell
        # (``filled.read_at`` decides the ones that only pass on text read at run time)
        try:
            filled = ast.parse(hole.filled, mode="eval").body
        except SyntaxError:
            return None
        ways = filled.values if isinstance(filled, ast.BoolOp) else [filled]
        if not all(isinstance(peel(w), (ast.Name, ast.Attribute, ast.Subscript)) for w in ways):
            return None
        return (
            f"irreducible: the message is the value of `{hole.name}` (`{hole.filled}`) and"
            " nothing else, so a paste of it alone can only be told from other such sites"
            " by its frames"
        )
    source = hole.name
    starred = source.strip().startswith("*") and not source.strip().startswith("**")
    try:
        node = ast.parse(source.strip().removeprefix("*"), mode="eval").body
    except SyntaxError:
        return None
    if starred:
        # ``ConnectionResetError(*exc.args)``: another exception's arguments, passed on
        # (a bare ``*args`` is a parameter's: its callers may say what they pass)
        if not (isinstance(node, ast.Attribute) and node.attr == "args"):
            return None
        return (
            f"irreducible: the message is made from the values in `{source.strip()[1:]}` and"
            " nothing else, so a paste of it alone can only be told from other such sites"
            " by its frames"
        )
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in _TEXT_OF
        and len(node.args) == 1
        and not node.keywords
    ):
        node = node.args[0]
    node = peel(node)  # ``dat[-1].decode("utf-8")``: the text of the value, decoded
    if not isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)):
        return None
    return (
        f"irreducible: the message is the value of `{source}` and nothing else, "
        "so a paste of it alone can only be told from other such sites by its frames"
    )


def apply_literals(
    template: MessageTemplate, parse: Callable[[str], MessageTemplate]
) -> MessageTemplate:
    parts: list[Literal | Hole] = []
    for part in template.parts:
        if isinstance(part, Literal):
            parts.extend(parse(part.text).parts)
        else:
            parts.append(part)
    return MessageTemplate(parts)


_SENTINEL_BASE = 0xF0000  # a private-use plane: never in real messages


def transform(template: MessageTemplate, fn: Callable[[str], str]) -> MessageTemplate:
    """Apply a text function (dedent, strip) to a template, holes kept in place."""
    holes = template.holes
    text = "".join(
        p.text if isinstance(p, Literal) else chr(_SENTINEL_BASE + holes.index(p))
        for p in template.parts
    )
    result = fn(text)
    parts: list[Literal | Hole] = []
    buf: list[str] = []
    for ch in result:
        code = ord(ch)
        if _SENTINEL_BASE <= code < _SENTINEL_BASE + len(holes):
            parts.append(Literal("".join(buf)))
            buf = []
            parts.append(holes[code - _SENTINEL_BASE])
        else:
            buf.append(ch)
    parts.append(Literal("".join(buf)))
    return MessageTemplate(parts)


def cleandoc(text: str) -> str:
    return inspect.cleandoc(text)
