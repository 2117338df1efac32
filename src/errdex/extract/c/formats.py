"""C string literals and printf formats, read as the runtime renders them.

Two dialects: CPython's ``PyUnicode_FromFormat`` (behind ``PyErr_Format`` and
``PyErr_WarnFormat``), whose conversions include ``%R`` (repr), ``%S`` (str), ``%U``,
``%A``, ``%V``, ``%T`` and ``%N``; and C's own ``printf`` (``nb::raise``, absl's
``StrFormat``, XLA's ``InvalidArgument``), which adds the floating conversions and
absl's ``%v``. A conversion becomes a hole written as the source writes it
(``%.200s``); ``%%`` is a literal ``%``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from errdex.template import Hole, Literal, MessageTemplate, Part

__all__ = ["CAPI", "PRINTF", "decode_escapes", "format_template"]

#: PyUnicode_FromFormat (CPython 3.11-3.13 documentation): flags ``-`` ``0`` ``#``
#: (3.12), width and precision (digits or ``*``), length ``l`` ``ll`` ``z`` ``t`` ``j``.
CAPI = re.compile(
    r"%(?P<flags>[-0#]*)(?P<width>\*|\d+)?(?:\.(?P<precision>\*|\d+))?"
    r"(?P<length>ll|l|z|t|j)?(?P<conv>[%cdiuxXpsUVSRATN])"
)
#: C printf, with absl's ``%v``.
PRINTF = re.compile(
    r"%(?P<flags>[-+ #0']*)(?P<width>\*|\d+)?(?:\.(?P<precision>\*|\d+))?"
    r"(?P<length>hh|h|ll|l|L|q|j|z|t)?(?P<conv>[%diouxXeEfFgGaAcspv])"
)

#: Conversions that print one character or a decimal integer (with no width, these print
#: nothing else: a width pads with spaces, which the hole's pattern would not admit).
_KINDS = {"c": "char", "d": "int", "i": "int", "u": "int"}

_SIMPLE_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "0": "\0",
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    "\\": "\\",
    "'": "'",
    '"': '"',
    "?": "?",
}
_ESCAPE = re.compile(
    r"\\(?:(?P<oct>[0-7]{1,3})|x(?P<hex>[0-9a-fA-F]+)|u(?P<u4>[0-9a-fA-F]{4})"
    r"|U(?P<u8>[0-9a-fA-F]{8})|(?P<simple>.))",
    re.S,
)


def decode_escapes(text: str) -> str:
    """A C string literal's content with its escapes read (``\\n``, ``\\x41``, ``\\101``)."""

    def one(m: re.Match[str]) -> str:
        for group, base in (("oct", 8), ("hex", 16), ("u4", 16), ("u8", 16)):
            if m.group(group) is not None:
                try:
                    return chr(int(m.group(group), base))
                except (ValueError, OverflowError):
                    return m.group(0)
        simple = m.group("simple")
        return _SIMPLE_ESCAPES.get(simple, simple)

    return _ESCAPE.sub(one, text) if "\\" in text else text


def format_template(
    fmt: str, args: Sequence[str] = (), dialect: re.Pattern[str] = CAPI
) -> MessageTemplate:
    """A format string as a template: each conversion a hole named by its argument's
    source (``Py_TYPE(obj)->tp_name``) when the call shows it, else by its place.

    A ``*`` width or precision takes an argument of its own, as printf does.
    """
    parts: list[Part] = []
    pos = 0
    arg = 0
    for m in dialect.finditer(fmt):
        parts.append(Literal(fmt[pos : m.start()]))
        pos = m.end()
        if m.group("conv") == "%":
            parts.append(Literal("%"))
            continue
        arg += (m.group("width") == "*") + (m.group("precision") == "*")
        name = args[arg] if arg < len(args) else str(arg)
        arg += 1
        plain = not (m.group("flags") or m.group("width") or m.group("precision"))
        kind = _KINDS.get(m.group("conv"), "") if plain else ""
        parts.append(Hole(m.group(0), name, kind=kind))
    parts.append(Literal(fmt[pos:]))
    return MessageTemplate(parts)
