"""Go string literals and ``fmt`` verbs, read exactly as the compiler and ``fmt`` read them.

A message is kept as Go prints it: escapes decoded (``\\n``, ``\\x41``, ``\\u00e9``,
octal ``\\101``), raw strings verbatim (less carriage returns, which the compiler drops),
``%%`` printed as ``%`` and every other verb (``%v``, ``%+v``, ``%5.2f``, ``%[2]d``,
``%w``) a hole, written as the source writes it and named by the argument it prints.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from errdex.template import Hole, Literal, MessageTemplate, Part

__all__ = ["Verb", "decode_interpreted", "decode_raw", "format_template", "verbs"]

_SIMPLE_ESCAPES = {
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "n": "\n",
    "r": "\r",
    "t": "\t",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
}
_ESCAPE = re.compile(
    r"\\(?:(?P<simple>[abfnrtv\\'\"])|x(?P<x>[0-9a-fA-F]{2})|u(?P<u>[0-9a-fA-F]{4})"
    r"|U(?P<U>[0-9a-fA-F]{8})|(?P<oct>[0-7]{3}))"
)

#: One ``fmt`` verb: ``%``, flags, an optional argument index, width, precision, the verb.
_VERB = re.compile(
    r"%(?P<flags>[-+# 0]*)(?:\[(?P<i1>\d+)\])?(?P<width>\*|\d+)?"
    r"(?:\.(?:\[(?P<i2>\d+)\])?(?P<prec>\*|\d+)?)?(?:\[(?P<i3>\d+)\])?(?P<verb>[a-zA-Z%])?"
)


def _unescape(m: re.Match[str]) -> str:
    if m.group("simple"):
        return _SIMPLE_ESCAPES[m.group("simple")]
    if m.group("x"):
        return chr(int(m.group("x"), 16))  # a byte; messages are text, Latin-1 is its reading
    if m.group("oct"):
        return chr(int(m.group("oct"), 8))
    code = int(m.group("u") or m.group("U"), 16)
    return chr(code) if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else "\ufffd"


def decode_interpreted(body: str) -> str:
    """The value of a ``"…"`` literal from the text between its quotes."""
    return _ESCAPE.sub(_unescape, body) if "\\" in body else body


def decode_raw(body: str) -> str:
    """The value of a backquoted literal: verbatim, carriage returns dropped (the spec)."""
    return body.replace("\r", "")


@dataclass(frozen=True, slots=True)
class Verb:
    """One verb of a format string: where it stands, as written, and which argument it prints."""

    start: int
    end: int
    text: str
    verb: str  # the letter; ``%`` for ``%%``
    argument: int | None  # 0-based index among the arguments after the format


def verbs(fmt: str) -> list[Verb]:
    """The verbs of ``fmt`` in order, each with the argument ``fmt`` gives it (``*`` widths
    and precisions take arguments too, and ``[n]`` indexes reset the count, as ``fmt`` does)."""
    found: list[Verb] = []
    arg = 0
    for m in _VERB.finditer(fmt):
        verb = m.group("verb")
        if verb is None:  # a lone ``%`` at the end: fmt prints ``%!(NOVERB)``
            found.append(Verb(m.start(), m.end(), m.group(0), "", None))
            continue
        if verb == "%":
            found.append(Verb(m.start(), m.end(), m.group(0), "%", None))
            continue
        for index, star in (("i1", "width"), ("i2", "prec")):
            if m.group(index):
                arg = int(m.group(index)) - 1
            if m.group(star) == "*":
                arg += 1
        if m.group("i3"):
            arg = int(m.group("i3")) - 1
        found.append(Verb(m.start(), m.end(), m.group(0), verb, arg))
        arg += 1
    return found


def format_template(fmt: str, arguments: Sequence[str]) -> MessageTemplate:
    """A ``fmt.Sprintf``-style format as a template: ``%%`` is ``%``, each verb a hole named
    by the source of the argument it prints (its position when the call has none)."""
    parts: list[Part] = []
    pos = 0
    for verb in verbs(fmt):
        parts.append(Literal(fmt[pos : verb.start]))
        pos = verb.end
        if verb.verb == "%":
            parts.append(Literal("%"))
            continue
        index = verb.argument
        if index is not None and index < len(arguments):
            name = arguments[index]
        else:
            name = str(index if index is not None else len(parts))
        parts.append(Hole(verb.text, name))
    parts.append(Literal(fmt[pos:]))
    return MessageTemplate(parts)
