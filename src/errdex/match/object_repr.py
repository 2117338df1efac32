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
    closes = _first_close(message, start, quotes=True)
    if closes is None:
        # A quote that never closes was an apostrophe in plain text after all.
        closes = _first_close(message, start, quotes=False)
    return closes == len(message) - 1


def _first_close(message: str, start: int, *, quotes: bool) -> int | None:
    """Where the bracket at ``start`` closes (-1 when it never does), skipping quoted text
    when ``quotes``; None when a quote is still open at the end. A quote opens only where a
    repr's string would start, not after a letter (``<User: O'Brien>``, ``What's``), and a
    backslash inside one escapes the next character (``'a\\'"b'``)."""
    opening = message[start]
    closing = _CLOSE[opening]
    depth = 0
    quote = ""
    i = start
    while i < len(message):
        char = message[i]
        if quote:
            if char == "\\":
                i += 1
            elif char == quote:
                quote = ""
        elif quotes and char in "'\"" and not message[i - 1].isalnum():
            quote = char
        elif char == opening:
            depth += 1
        elif char == closing:
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return None if quote else -1


def bare_key(message: str) -> bool:
    """Whether a ``KeyError``'s message is one word, the repr of a key that is no string
    (``KeyError: nan``, ``KeyError: NaT``)."""
    return _BARE.fullmatch(message) is not None
