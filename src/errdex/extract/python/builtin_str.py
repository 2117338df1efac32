"""How the builtin exception classes print their arguments, as ``str()`` does.

A class that inherits its ``__str__`` from a builtin prints one argument as itself (a
``KeyError`` as its repr), several as the tuple's repr, and OSError and its kin in their
own way, which is not followed.
"""

from __future__ import annotations

from collections.abc import Sequence

from errdex.template import MessageTemplate

from .frames import NONE, Args, Fail, Text
from .hierarchy import Node
from .literals import quoted_repr

__all__ = ["builtin_class", "builtin_message"]


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
    if printer is not BaseException:
        raise Fail  # OSError, UnicodeError and kin print several arguments their own way
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
