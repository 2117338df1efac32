"""Evidence text quoted in prose: on one line, cut to a length, its backticks kept paired."""

from __future__ import annotations

from errdex.template import MessageTemplate

__all__ = ["NO_FIX", "QUOTE_LIMIT", "quote", "stated_cause"]

#: Quoted text is cut at this many characters (with an ellipsis).
QUOTE_LIMIT = 300
#: A longer message is quoted by the documentation already, not restated as the cause.
CAUSE_CHARS = 200
#: The fixed text a cause needs: some words, not a key.
CAUSE_MIN = 8
#: The one solution of a mistake in the calling code when no fix is known in the caller's
#: terms: a record needs one, and "catch it where the program must go on" would hide the
#: mistake (the documentation and triggerScenarios already say when it is raised).
NO_FIX = "errdex found no fix it can state in the caller's terms."


def quote(text: str) -> str:
    """Quoted evidence text on one line; a final full stop is left to the sentence around it.

    reST's ````G```` becomes ```G```; unpaired backticks become quotes, so that the
    backticks of the surrounding prose still pair up.
    """
    text = " ".join(text.split()).rstrip(".").replace("``", "`")
    if len(text) > QUOTE_LIMIT:
        text = text[: QUOTE_LIMIT - 1].rstrip() + "…"
    if text.count("`") % 2:
        text = text.replace("`", "'")
    return "“" + text.replace("“", '"').replace("”", '"') + "”"


def stated_cause(template: MessageTemplate) -> str | None:
    """The message as the source writes it, when its fixed text says something: what a
    solution names as the cause when the guard cannot be said in the caller's terms."""
    if template.is_opaque or template.is_empty:
        return None
    if not any(len(t.strip()) >= CAUSE_MIN and " " in t.strip() for t in template.literals):
        return None  # a key or a word ("'x'", "negative") says no cause
    text = " ".join(template.display.split())
    if text.startswith("(") and text.endswith(")"):
        return None  # a multi-argument exception's tuple of arguments, not a sentence
    return text if len(text) <= CAUSE_CHARS else None
