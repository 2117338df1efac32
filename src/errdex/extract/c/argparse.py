"""Messages of CPython's argument parsers, rendered where the call states their inputs.

Argument Clinic's generated code (``clinic/*.c.h``) and hand-written extensions call
``_PyArg_BadArgument``, ``_PyArg_CheckPositional``, ``PyArg_UnpackTuple`` and
``PyArg_ParseTuple``; the message each raises is written in CPython's
``Python/getargs.c`` (3.11), so the call's literal arguments fill it in exactly:
``_PyArg_CheckPositional("divmod", nargs, 2, 2)`` raises ``divmod expected 2
arguments, got 1``. Left out: ``PyArg_ParseTupleAndKeywords`` and
``_PyArg_UnpackKeywords`` (their messages depend on the keyword list and the parser
struct), and per-unit conversion messages (``must be str, not int``) of
``PyArg_ParseTuple``.
"""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node

from errdex.template import MessageTemplate

from .capi import fixed
from .messages import Macros, literal_text, node_text

__all__ = ["ARG_PARSERS", "parse_tuple_counts"]

#: (message, which check fires) pairs one call can raise.
Messages = list[tuple[MessageTemplate, str]]
Parser = Callable[[list[Node], Macros], Messages]


def _int(node: Node | None) -> int | None:
    if node is None or node.type != "number_literal":
        return None
    try:
        return int(node_text(node).rstrip("uUlL"), 0)
    except ValueError:
        return None


def _text_or_hole(node: Node | None, macros: Macros, written: str) -> str | tuple[str, str]:
    if node is None:
        return (written, written)
    text = literal_text(node, macros)
    return text if text is not None else (written, node_text(node))


def _plural(n: int) -> str:
    return "" if n == 1 else "s"


def _expected(name: str | tuple[str, str], lo: int, hi: int) -> Messages:
    """``%.200s expected %s%zd argument%s, got %zd`` for too few, then too many."""
    got = ("%zd", "nargs")
    return [
        (
            fixed(
                name,
                f" expected {'' if lo == hi else 'at least '}{lo} argument{_plural(lo)}, got ",
                got,
            ),
            f"nargs < {lo}",
        ),
        (
            fixed(
                name,
                f" expected {'' if lo == hi else 'at most '}{hi} argument{_plural(hi)}, got ",
                got,
            ),
            f"nargs > {hi}",
        ),
    ]


def _counted(name_at: int) -> Parser:
    """``_PyArg_CheckPositional(name, nargs, min, max)`` (``name_at`` 0) and
    ``PyArg_UnpackTuple(args, name, min, max, …)`` (1): too few, then too many."""

    def check(args: list[Node], macros: Macros) -> Messages:
        if len(args) < 4:
            return []
        lo, hi = _int(args[2]), _int(args[3])
        if lo is None or hi is None:
            return []
        name = _text_or_hole(args[name_at], macros, "%.200s")
        return [m for m in _expected(name, lo, hi) if m[1] != "nargs < 0"]

    return check


def _bad_argument(args: list[Node], macros: Macros) -> Messages:
    # _PyArg_BadArgument(fname, displayname, expected, arg):
    # "%.200s() %.200s must be %.50s, not %.50s"
    if len(args) < 4:
        return []
    return [
        (
            fixed(
                _text_or_hole(args[0], macros, "%.200s"),
                "() ",
                _text_or_hole(args[1], macros, "%.200s"),
                " must be ",
                _text_or_hole(args[2], macros, "%.50s"),
                ", not ",
                ("%.50s", "Py_TYPE(arg)->tp_name"),
            ),
            "the argument's type is not the one expected",
        )
    ]


def _takes_no(what: str) -> Parser:
    """``_PyArg_NoKeywords(name, kwargs)``: ``%.200s takes no keyword arguments``."""

    def check(args: list[Node], macros: Macros) -> Messages:
        if not args:
            return []
        name = _text_or_hole(args[0], macros, "%.200s")
        return [(fixed(name, f" takes no {what} arguments"), f"{what} arguments given")]

    return check


def parse_tuple_counts(fmt: str) -> tuple[int, int, str | None, bool]:
    """(min, max, function name, custom message) of a ``PyArg_ParseTuple`` format:
    ``"O|i:name"`` takes 1 to 2 arguments; a unit's ``#``, ``*``, ``!``, ``&`` and
    ``es``/``et`` modifiers and a ``(…)`` group count with their unit."""
    lo = hi = depth = 0
    optional = False
    i = 0
    while i < len(fmt):
        c = fmt[i]
        if c in ":;":
            name = fmt[i + 1 :] if c == ":" else None
            return lo, hi, name, c == ";"
        if c == "|" and depth == 0:
            optional = True
        elif c == "(":
            if depth == 0:
                hi += 1
                lo += not optional
            depth += 1
        elif c == ")":
            depth -= 1
        elif c in "#*!&$" or c.isspace():
            pass
        elif c == "e" and i + 1 < len(fmt) and fmt[i + 1] in "st":
            i += 1
            if depth == 0:
                hi += 1
                lo += not optional
        elif depth == 0:
            hi += 1
            lo += not optional
        i += 1
    return lo, hi, None, False


def _parse_tuple(args: list[Node], macros: Macros) -> Messages:
    # PyArg_ParseTuple(args, format, ...): "%.150s%s takes %s %d argument%s (%zd given)"
    if len(args) < 2:
        return []
    fmt = literal_text(args[1], macros)
    if fmt is None:
        return []
    lo, hi, name, custom = parse_tuple_counts(fmt)
    if custom:
        return []
    who = f"{name}()" if name else "function"
    given = ("%zd", "nargs")
    if hi == 0:
        return [(fixed(who, " takes no arguments"), "arguments given")]
    found: Messages = []
    if lo > 0:
        how = "exactly" if lo == hi else "at least"
        found.append(
            (
                fixed(f"{who} takes {how} {lo} argument{_plural(lo)} (", given, " given)"),
                f"nargs < {lo}",
            )
        )
    if lo != hi:
        found.append(
            (
                fixed(f"{who} takes at most {hi} argument{_plural(hi)} (", given, " given)"),
                f"nargs > {hi}",
            )
        )
    else:
        found = [
            (
                fixed(f"{who} takes exactly {lo} argument{_plural(lo)} (", given, " given)"),
                f"nargs != {lo}",
            )
        ]
    return found


ARG_PARSERS: dict[str, Parser] = {
    "_PyArg_CheckPositional": _counted(0),
    "PyArg_UnpackTuple": _counted(1),
    "_PyArg_BadArgument": _bad_argument,
    "_PyArg_NoKeywords": _takes_no("keyword"),
    "_PyArg_NoKwnames": _takes_no("keyword"),
    "_PyArg_NoPositional": _takes_no("positional"),
    "PyArg_ParseTuple": _parse_tuple,
}
