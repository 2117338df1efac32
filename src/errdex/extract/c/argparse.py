"""Messages of CPython's argument parsers, rendered where the call states their inputs.

Argument Clinic's generated code (``clinic/*.c.h``) and hand-written extensions call
``_PyArg_BadArgument``, ``_PyArg_CheckPositional``, ``PyArg_UnpackTuple`` and
``PyArg_ParseTuple``; the message each raises is written in CPython's
``Python/getargs.c`` (3.11), so the call's literal arguments fill it in exactly:
``_PyArg_CheckPositional("divmod", nargs, 2, 2)`` raises ``divmod expected 2
arguments, got 1``. ``PyArg_ParseTupleAndKeywords`` is read with its ``kwlist``
declaration and Clinic's ``_PyArg_UnpackKeywords`` with its ``_PyArg_Parser`` (``'x' is
an invalid keyword argument for f()``, ``f() missing required argument 'a' (pos 1)``);
a unit's conversion message (``f() argument 1 must be str, not int``) and a ``;text``
format's message come from :mod:`.arg_units`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tree_sitter import Node

from errdex.template import MessageTemplate

from .arg_units import custom_message, unit_messages
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
    shape = format_shape(fmt)
    lo = shape.units if shape.bar is None else shape.bar
    return lo, shape.units, shape.name, shape.custom


@dataclass(frozen=True)
class FormatShape:
    """A getargs format's units and markers: ``"O|i$p:f"`` is 3 units, ``|`` before
    unit 1, ``$`` before unit 2, named ``f``."""

    units: int
    bar: int | None
    dollar: int | None
    name: str | None
    custom: bool


def format_shape(fmt: str) -> FormatShape:
    units = depth = 0
    bar: int | None = None
    dollar: int | None = None
    i = 0
    while i < len(fmt):
        c = fmt[i]
        if c in ":;":
            return FormatShape(units, bar, dollar, fmt[i + 1 :] if c == ":" else None, c == ";")
        if c == "|" and depth == 0:
            bar = units if bar is None else bar
        elif c == "$" and depth == 0:
            dollar = units if dollar is None else dollar
        elif c == "(":
            units += depth == 0
            depth += 1
        elif c == ")":
            depth -= 1
        elif c in "#*!&" or c.isspace():
            pass
        else:
            if c == "e" and i + 1 < len(fmt) and fmt[i + 1] in "st":
                i += 1
            units += depth == 0
        i += 1
    return FormatShape(units, bar, dollar, None, False)


def _parse_tuple(args: list[Node], macros: Macros) -> Messages:
    # PyArg_ParseTuple(args, format, ...): "%.150s%s takes %s %d argument%s (%zd given)"
    if len(args) < 2:
        return []
    fmt = literal_text(args[1], macros)
    if fmt is None:
        return []
    lo, hi, name, custom = parse_tuple_counts(fmt)
    if custom:  # every failure raises the format's own text (``vgetargs1_impl``)
        text = custom_message(fmt)
        return [(fixed(text), "the arguments do not fit the format")] if text else []
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
    return found + unit_messages(fmt, name)


def _declared_name(node: Node | None) -> str | None:
    """``kwlist`` of ``*kwlist[]``, ``* const kwlist[]``, ``kwlist[3]``."""
    while node is not None and node.type in ("pointer_declarator", "array_declarator"):
        node = node.child_by_field_name("declarator")
    return node_text(node) if node is not None and node.type == "identifier" else None


def _strings(node: Node | None, macros: Macros) -> list[str] | None:
    """``{"a", "", "b", NULL}`` -> ``["a", "", "b"]``; None unless every entry is text."""
    if node is None or node.type != "initializer_list":
        return None
    found: list[str] = []
    for item in node.named_children:
        if item.type == "comment":
            continue
        if node_text(item) in ("NULL", "0", "nullptr"):
            return found
        text = literal_text(item, macros)
        if text is None:
            return None
        found.append(text)
    return found


def keyword_list(node: Node, macros: Macros) -> list[str] | None:
    """The names of a ``kwlist`` argument, read from its declaration in the enclosing
    blocks or the file (``static char *kwlist[] = {"a", "b", NULL};``)."""
    return _strings(_initializer(node), macros)


def _initializer(node: Node) -> Node | None:
    """The value a name (``kwlist``, ``&_parser``) is declared with in the enclosing blocks
    or the file: the last declaration before the use, as a region tree-sitter could not
    read holds several functions'."""
    while node.type in ("cast_expression", "parenthesized_expression", "pointer_expression"):
        inner = node.child_by_field_name("value") or node.child_by_field_name("argument")
        inner = inner or node.named_children[-1]
        if inner is None:
            return None
        node = inner
    if node.type != "identifier":
        return None
    name, at = node_text(node), node.start_byte
    scope = node.parent
    while scope is not None:
        if scope.type in ("compound_statement", "translation_unit", "ERROR"):
            found: Node | None = None
            for child in scope.named_children:
                if child.start_byte >= at:
                    break
                if child.type != "declaration":
                    continue
                for decl in child.children_by_field_name("declarator"):
                    if decl.type == "init_declarator" and (
                        _declared_name(decl.child_by_field_name("declarator")) == name
                    ):
                        found = decl
            if found is not None:
                return found.child_by_field_name("value")
        scope = scope.parent
    return None


def _positional(who: str, how: str, n: int) -> MessageTemplate:
    return fixed(
        f"{who} takes {how} {n} positional argument{_plural(n)} (", ("%zd", "nargs"), " given)"
    )


def _too_many(who: str, total: int) -> Messages:
    """The two "takes at most" messages both keyword parsers of ``getargs.c`` print."""
    given = ("%zd", "nargs + nkwargs")
    return [
        (
            fixed(
                f"{who} takes at most {total} {kind}argument{_plural(total)} (", given, " given)"
            ),
            when,
        )
        for kind, when in (
            ("", f"more than {total} arguments, some positional"),
            ("keyword ", f"more than {total} keyword arguments"),
        )
    ]


def _missing(who: str, names: list[str], indices: Iterable[int]) -> Messages:
    return [
        (
            fixed(f"{who} missing required argument '{names[i]}' (pos {i + 1})"),
            f"{names[i]} not given",
        )
        for i in indices
    ]


def _twice(who: str, names: list[str], indices: Iterable[int]) -> Messages:
    return [
        (
            fixed(f"argument for {who} given by name ('{names[i]}') and position ({i + 1})"),
            f"{names[i]} given by name and by position",
        )
        for i in indices
    ]


def _bad_keywords(who_kw: str, key: tuple[str, str]) -> Messages:
    """A keyword the function does not take (``key``: how the parser prints it), and a
    keyword that is not a str."""
    return [
        (
            fixed("'", key, f"' is an invalid keyword argument for {who_kw}"),
            "a keyword argument it does not take",
        ),
        (fixed("keywords must be strings"), "a keyword that is not a str"),
    ]


def _parse_tuple_and_keywords(args: list[Node], macros: Macros) -> Messages:
    """``PyArg_ParseTupleAndKeywords(args, kwargs, format, kwlist, …)``: the messages of
    ``vgetargskeywords`` in CPython's ``Python/getargs.c`` for this format and keyword list,
    its units' conversion messages among them (a ``;text`` format's text instead)."""
    if len(args) < 4:
        return []
    fmt = literal_text(args[2], macros)
    names = keyword_list(args[3], macros)
    if fmt is None or names is None:
        return []
    shape = format_shape(fmt)
    total = len(names)
    pos = next((i for i, n in enumerate(names) if n), total)  # leading "" are positional-only
    who = f"{shape.name}()" if shape.name else "function"
    who_kw = f"{shape.name}()" if shape.name else "this function"
    required = shape.bar if shape.bar is not None else total
    found = _too_many(who, total)
    if shape.dollar is not None and shape.dollar < total:
        most = shape.dollar
        if most == 0:
            found.append(
                (fixed(f"{who} takes no positional arguments"), "arguments given by position")
            )
        else:
            how = "at most" if shape.bar is not None and shape.bar <= most else "exactly"
            found.append((_positional(who, how, most), f"nargs > {most}"))
    if pos > 0 and required > 0:
        least = min(pos, required)
        end = shape.dollar if shape.dollar is not None and shape.dollar < total else total
        how = "at least" if least < end else "exactly"
        found.append((_positional(who, how, least), f"nargs < {least}"))
    found += _missing(who, names, range(pos, min(required, total)))
    last_positional = min(shape.dollar if shape.dollar is not None else total, total)
    found += _twice(who, names, range(pos, last_positional))
    found += _bad_keywords(who_kw, ("%U", "key"))
    found.append(
        (fixed(f"invalid keyword argument for {who_kw}"), "a keyword argument left unmatched")
    )
    custom = custom_message(fmt)
    if custom is None:
        found += unit_messages(fmt, shape.name)
    elif custom:  # a unit's failure raises the format's own text
        found.append((fixed(custom), "an argument of the wrong type"))
    unique: dict[str, tuple[MessageTemplate, str]] = {}
    for template, when in found:
        unique.setdefault(template.display, (template, when))
    return list(unique.values())


def _parser_struct(node: Node, macros: Macros) -> tuple[str | None, list[str]] | None:
    """(fname, keywords) of an ``_PyArg_Parser``: Argument Clinic writes ``{NULL, _keywords,
    "f", 0}`` (3.11) or ``{.keywords = _keywords, .fname = "f", …}``; a ``"O|O:f"`` format
    names the function instead of ``fname``."""
    value = _initializer(node)
    if value is None or value.type != "initializer_list":
        return None
    fields: dict[str, Node] = {}
    order = ("format", "keywords", "fname")
    for position, item in enumerate(c for c in value.named_children if c.type != "comment"):
        if item.type == "initializer_pair":
            designator = item.child_by_field_name("designator")
            name = node_text(designator).lstrip(".") if designator is not None else ""
            target = item.child_by_field_name("value")
            if target is not None:
                fields[name] = target
        elif position < len(order):
            fields[order[position]] = item
    keywords = fields.get("keywords")
    names = keyword_list(keywords, macros) if keywords is not None else None
    if names is None:
        return None
    fname = literal_text(fields["fname"], macros) if "fname" in fields else None
    fmt = literal_text(fields["format"], macros) if "format" in fields else None
    return fname or (format_shape(fmt).name if fmt else None), names


def _unpack_keywords(args: list[Node], macros: Macros) -> Messages:
    """``_PyArg_UnpackKeywords(args, nargs, kwargs, kwnames, &_parser, minpos, maxpos,
    minkw, buf)``, as Argument Clinic calls it: the messages ``Python/getargs.c`` prints
    for the parser's keywords and the call's bounds."""
    if len(args) < 8:
        return []
    bounds = [_int(args[i]) for i in (5, 6, 7)]
    parser = _parser_struct(args[4], macros)
    if parser is None or None in bounds:
        return []
    minpos, maxpos, minkw = (b or 0 for b in bounds)
    fname, names = parser
    who = f"{fname}()" if fname else "function"
    maxargs = len(names)
    posonly = next((i for i, n in enumerate(names) if n), maxargs)
    found = _too_many(who, maxargs)
    if maxpos == 0:
        found.append((fixed(f"{who} takes no positional arguments"), "arguments given by position"))
    elif maxpos < maxargs:  # else too many by position is too many in all, said above
        how = "at most" if minpos < maxpos else "exactly"
        found.append((_positional(who, how, maxpos), f"nargs > {maxpos}"))
    least = min(posonly, minpos)
    if least > 0:
        how = "at least" if least < maxpos else "exactly"
        found.append((_positional(who, how, least), f"nargs < {least}"))
    reqlimit = maxpos + minkw if minkw else minpos
    required = (i for i in range(posonly, maxargs) if i < minpos or maxpos <= i < reqlimit)
    found += _missing(who, names, required)
    found += _twice(who, names, range(posonly, min(maxpos, maxargs)))
    found += _bad_keywords(f"{fname}()" if fname else "this function", ("%S", "keyword"))
    return found


ARG_PARSERS: dict[str, Parser] = {
    "_PyArg_UnpackKeywords": _unpack_keywords,
    "_PyArg_CheckPositional": _counted(0),
    "PyArg_UnpackTuple": _counted(1),
    "_PyArg_BadArgument": _bad_argument,
    "_PyArg_NoKeywords": _takes_no("keyword"),
    "_PyArg_NoKwnames": _takes_no("keyword"),
    "_PyArg_NoPositional": _takes_no("positional"),
    "PyArg_ParseTuple": _parse_tuple,
    "PyArg_ParseTupleAndKeywords": _parse_tuple_and_keywords,
    "_PyArg_ParseTupleAndKeywords_SizeT": _parse_tuple_and_keywords,
}
