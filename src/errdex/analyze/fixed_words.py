"""A message's fixed words to quote in a situation, never its raw holes.

"breaks what its message requires: 'DocTestFinder.find: name must be given when
obj.__name__ doesn't exist: %r'" quoted the template's ``%r`` as if a reader's message
held it (paired blind review, stop 38: misleading; stop 36: ``{key!r}``, ``%r``,
``{func!r}`` four times more). The words before the first hole are quoted, with " …" for the rest; a clause
the hole completes ("…, found: %r") is cut at its comma, colon or semicolon; a message
whose text before the hole says too little is not quoted (None).
"""

from __future__ import annotations

import re

from errdex.template import Hole, MessageTemplate

__all__ = ["fixed_words"]

#: Fewest characters, and a space, the words kept must have to say something.
_FEWEST = 12
#: A clause the hole completes: at most this many words after the last separator.
_STUB_WORDS = 2
_SEPARATOR = re.compile(r"[,:;]\s")


def fixed_words(template: MessageTemplate, said: str) -> str | None:
    """``said`` (the message as the source writes it) where it has no hole; else the
    fixed words before its first hole, cut as above; None where they say too little."""
    if not template.holes:
        return said
    head: list[str] = []
    for part in template.parts:
        if isinstance(part, Hole):
            break
        if getattr(part, "optional", False):
            break
        head.append(part.text)
    text = " ".join("".join(head).split()).rstrip(" :;,=-('\"[")
    stub = list(_SEPARATOR.finditer(text + " "))
    if stub:
        last = stub[-1]
        if len(text[last.end() :].split()) <= _STUB_WORDS:
            text = text[: last.start()].rstrip()
    if len(text) < _FEWEST or " " not in text:
        return None
    return text + " …"  # the message goes on
