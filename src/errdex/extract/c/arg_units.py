"""The conversion messages of a ``PyArg_ParseTuple*`` format's units.

A unit CPython's ``convertsimple`` (``Python/getargs.c``, 3.11) cannot convert makes
``must be <expected>, not <type name>``, which ``seterror`` prints after ``<fname>()
argument <i>`` (``argument <i>`` without a name) as a ``TypeError``:
``PyArg_ParseTuple(args, "sS:g", …)`` raises ``g() argument 2 must be bytes, not int``.
A format ending in ``;text`` raises ``text`` instead. Only units whose expected text is
fixed are read; each was checked against this Python's own parser through
``_testcapi``. Left out: numeric units (their messages come from the int and float
protocols), buffer units (``s#``, ``y*``: the buffer protocol's message), ``O!`` (the
type object's name) and units inside ``(…)``.
"""

from __future__ import annotations

from errdex.template import MessageTemplate

from .capi import fixed

__all__ = ["custom_message", "unit_messages"]

#: A unit (with the modifier that changes its message) -> what ``converterr`` expects.
_EXPECTED = {
    "s": "str",
    "z": "str or None",
    "U": "str",
    "u": "str",
    "u#": "str",
    "Z": "str or None",
    "Z#": "str or None",
    "S": "bytes",
    "Y": "bytearray",
    "c": "a byte string of length 1",
    "C": "a unicode character",
    "k": "int",
    "K": "int",
    "es": "str",
    "es#": "str",
    "et": "str, bytes or bytearray",
    "et#": "str, bytes or bytearray",
    "w*": "read-write bytes-like object",
}


def custom_message(fmt: str) -> str | None:
    """The text after ``;`` (the message every failure raises), or None."""
    for i, c in enumerate(fmt):
        if c in ":;":
            return fmt[i + 1 :] if c == ";" else None
    return None


def _units(fmt: str) -> list[tuple[int, str]]:
    """(1-based position, unit with its modifier) of each top-level unit before ``:``/``;``."""
    found: list[tuple[int, str]] = []
    position = depth = 0
    i = 0
    while i < len(fmt) and fmt[i] not in ":;":
        c = fmt[i]
        i += 1
        if c in "|$" or c.isspace():
            continue
        if c in "()":
            position += c == "(" and depth == 0
            depth += 1 if c == "(" else -1
            continue
        unit = c
        if c == "e" and i < len(fmt) and fmt[i] in "st":
            unit += fmt[i]
            i += 1
        while i < len(fmt) and fmt[i] in "#*!&":
            unit += fmt[i]
            i += 1
        if depth == 0:
            position += 1
            found.append((position, unit))
    return found


def unit_messages(fmt: str, name: str | None) -> list[tuple[MessageTemplate, str]]:
    """(message, when) of each unit whose conversion message is fixed, in format order."""
    who = f"{name}() argument" if name else "argument"
    found: list[tuple[MessageTemplate, str]] = []
    for position, unit in _units(fmt):
        expected = _EXPECTED.get(unit)
        if expected is not None:
            found.append(
                (
                    fixed(
                        f"{who} {position} must be {expected}, not ",
                        ("%.50s", "Py_TYPE(arg)->tp_name"),
                    ),
                    f"argument {position} is not {expected}",
                )
            )
    return found
