"""What a message's template cannot say by itself, said in ``evidence.site.notes``.

Two shapes read falsely as the record's own claim (blind review of stop 35). A raise
with no message (``raise TypeError``) prints the class alone and ``str(e) == ''``, while
schema 2 needs a non-empty ``errorMessage``; and a message that is one value errdex did
not resolve has ``messagePattern`` ``([\\s\\S]*?)``, which matches any text and so
identifies nothing. The notes say which it is, for the API's evidence and the page alike.
"""

from __future__ import annotations

from errdex.template import HOLE_REGEX, MessageTemplate

__all__ = ["NO_MESSAGE", "UNRESOLVED", "template_notes"]

#: The note of a raise with no message.
NO_MESSAGE = (
    "no message: `str(e)` is empty and a traceback's last line is the class name alone;"
    " errorMessage is the class marked `(no message)` because a record needs a text,"
    " and messagePattern `^$` matches the empty message"
)
#: The start of the note of a message that is one unresolved value.
UNRESOLVED = "unresolved: the message is one value errdex did not resolve"


def template_notes(template: MessageTemplate, notes: list[str]) -> list[str]:
    """The notes to add to ``notes`` for this template (none when they already say it)."""
    if template.is_empty:
        return [NO_MESSAGE]
    if template.pattern != HOLE_REGEX or any(n.startswith("irreducible") for n in notes):
        return []  # text of its own, or already said to be one value and nothing else
    (hole,) = template.holes
    filled = f", filled by `{hole.filled}`" if hole.filled else ""
    return [
        f"{UNRESOLVED} (`{hole.text}`{filled}): messagePattern matches any text, so the"
        " message alone identifies nothing and only the class and the frames tell this site"
    ]
