"""Evidence text quoted in prose: on one line, cut to a length, its backticks kept paired."""

from __future__ import annotations

__all__ = ["QUOTE_LIMIT", "quote"]

#: Quoted text is cut at this many characters (with an ellipsis).
QUOTE_LIMIT = 300


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
