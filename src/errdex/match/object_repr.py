"""Whether a message is one object's repr and nothing after it.

``<Node object at 0x7f3a>``, ``<NA>`` (pandas' missing value) and ``Node(1, 'a')`` are one
value, as a one-value site (``raise TypeError(obj)``) prints it; ``<enum 'More'> cannot
extend <enum 'Less'>`` starts and ends like one but is two reprs with text between: the
bracket opened first closes before the end. Quoted text inside (``<enum 'a>b'>``) does
not count as brackets. A ``KeyError`` prints its key's repr, so a bare word there
(``nan``, ``NaT``, ``-inf``) is a value too: a string key would print quoted.
"""

from __future__ import annotations

import re

__all__ = ["bare_key", "one_repr"]

#: ``<Node object at 0x7f…>`` and ``Node(1, 'a')``: an object's repr, on one line.
_SHAPE = re.compile(r"<[A-Za-z_][\w.]*(?:[ :].*)?>|[A-Za-z_][\w.]*\(.*\)")
#: A non-str key's repr that is one word: ``nan``, ``inf``, ``-inf``, ``NaT``.
_BARE = re.compile(r"-?[^\W\d]\w{0,99}")
_CLOSE = {"<": ">", "(": ")"}


def one_repr(message: str) -> bool:
    """Whether ``message`` reads as one ``<…>`` or ``Name(…)`` repr whose first bracket
    closes at its last character."""
    if _SHAPE.fullmatch(message) is None:
        return False
    start = 0 if message[0] == "<" else message.index("(")
    opening = message[start]
    closing = _CLOSE[opening]
    depth = 0
    quote = ""
    for i in range(start, len(message)):
        char = message[i]
        if quote:
            if char == "\\":
                continue
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif char == opening:
            depth += 1
        elif char == closing:
            depth -= 1
            if depth == 0:
                return i == len(message) - 1
    return False


def bare_key(message: str) -> bool:
    """Whether a ``KeyError``'s message is one word, the repr of a key that is no string
    (``KeyError: nan``, ``KeyError: NaT``)."""
    return _BARE.fullmatch(message) is not None
