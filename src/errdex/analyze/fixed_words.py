"""A message's fixed words to quote in a situation, never its raw holes.

"breaks what its message requires: 'DocTestFinder.find: name must be given when
obj.__name__ doesn't exist: %r'" quoted the template's ``%r`` as if a reader's message
held it (paired blind review, stop 38: misleading; stop 36: ``{key!r}``, ``%r``,
``{func!r}`` four times more). Each hole is shown as "…" (what a reader's message has
there is a value), a part printed on some ways only is left out, and a message whose
fixed words say too little is not quoted (None). Cutting at the first hole instead lost
the words after it ("in 'ext_modules' option (extension '%s'), 'sources' must be
present …").
"""

from __future__ import annotations

from errdex.template import Hole, MessageTemplate

__all__ = ["fixed_words"]

#: Fewest characters of fixed words, with a space among them, to say something.
_FEWEST = 12


def fixed_words(template: MessageTemplate, said: str) -> str | None:
    """``said`` (the message as the source writes it) where it has no hole; else its
    fixed words with "…" for each hole; None where they say too little."""
    if not template.holes:
        return said
    shown: list[str] = []
    fixed: list[str] = []
    for part in template.parts:
        if part.optional:
            continue
        if isinstance(part, Hole):
            shown.append(part.prefix + "…")
            continue
        shown.append(part.text)
        fixed.append(part.text)
    words = " ".join("".join(fixed).split())
    if len(words) < _FEWEST or " " not in words:
        return None
    return " ".join("".join(shown).split())
