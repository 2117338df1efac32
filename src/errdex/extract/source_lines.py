"""A source text's lines as Python numbers them (``ast`` ``lineno``, tracebacks).

``str.splitlines`` also ends a line at a form feed, a vertical tab, ``\\x1c``-``\\x1e``,
``\\x85``, ``\\u2028`` and ``\\u2029``, which Python reads as characters inside a line:
an old module's ``^L`` page break on a line of its own then counts twice, and every
record below it shows the wrong source window.
"""

from __future__ import annotations

__all__ = ["source_lines"]


def source_lines(text: str) -> list[str]:
    """``text``'s lines, ended only at LF, CRLF or a lone CR (what ``compile`` ends a
    line at), without their line breaks; a last line break starts no empty line (as
    ``str.splitlines``)."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines
