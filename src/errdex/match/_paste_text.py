"""Turn raw paste input into clean lines: decoded, colour codes gone, one kind of newline.

Everything later works on ``list[str]`` split on ``\\n`` only: ``str.splitlines`` would also
split on form feeds and Unicode separators that can legitimately sit inside a message.
"""

from __future__ import annotations

import re

# CSI sequences (colours, cursor moves, ``ESC[22;0t``), OSC titles ending in BEL or ST
# (kept to one line so an unterminated one cannot swallow the paste), and two-byte escapes.
_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b\n]*(?:\x07|\x1b\\)?|[@-Z\\-_])")
# Colour codes whose ESC byte was lost on the way (web text boxes, some notebook exports).
_ORPHAN_SGR = re.compile(r"\[(?:\d{1,3}(?:;\d{1,3}){0,15})?m")
_ORPHAN_HINTS = ("[0m", "[39m", "[0;3", "[1;3")
_ORPHAN_SAMPLE = 1 << 20  # colour codes show up early: look for them in the first MiB only


def decode(data: str | bytes | bytearray | memoryview) -> str:
    """Text from bytes: UTF-8, never failing (bad bytes become U+FFFD)."""
    if isinstance(data, str):
        return data
    return bytes(data).decode("utf-8", errors="replace")


def strip_ansi(text: str) -> str:
    """Remove terminal escape sequences, and ESC-less colour codes when they clearly abound."""
    if "\x1b" in text:
        return _ANSI.sub("", text)
    sample = text[:_ORPHAN_SAMPLE]
    if sum(sample.count(hint) for hint in _ORPHAN_HINTS) >= 3:
        return _ORPHAN_SGR.sub("", text)
    return text


def normalize(data: str | bytes | bytearray | memoryview) -> str:
    """The paste as text: decoded, BOM dropped, ANSI stripped, CRLF and CR made LF.

    Split the result on ``\\n`` only: ``str.splitlines`` would also split on form feeds and
    Unicode separators that can legitimately sit inside a message.
    """
    text = strip_ansi(decode(data).removeprefix("\ufeff"))
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text
