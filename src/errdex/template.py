"""Message templates: literal text and holes, rendered as display text, regex and anchors.

One type carries a message through extraction, storage and matching, so that the
display text (``errorMessage``), the regex (``messagePattern``) and the literal
anchors a matcher indexes can never disagree with each other.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from dataclasses import field as dataclass_field
from typing import Any

__all__ = [
    "HOLE_REGEX",
    "Hole",
    "Literal",
    "MessageTemplate",
    "escape_literal",
    "fold_optional",
]

#: A hole as a regex group: lazy, and able to span lines (hole values such as
#: array reprs often do). ``[\s\S]`` means the same in Python ``re``, RE2 and JavaScript.
HOLE_REGEX = r"([\s\S]*?)"
#: Holes whose conversion says what they print: one character (C's ``%c``), a decimal
#: integer (C's ``%d``, ``%zd``, ``%lu``…) or the quote ``repr`` puts around a string. Their groups are not :data:`HOLE_REGEX`, so the
#: matcher verifies such a template with RE2 instead of by its literal runs alone.
KIND_REGEX = {
    "char": r"([\s\S])",
    "int": r"(-?[0-9]+)",
    "quote": "(['\"])",
    "bytes_repr": r"(b['\"][\s\S]*?)",  # C's %R of bytes (extract/c/reprs.py)
    "str_repr": r"(['\"][\s\S]*?)",  # C's %R of a str
    #: a class as ``str``/``repr`` print it: ``<class 'int'>`` (an enum's ``<enum 'Color'>``)
    "class_repr": r"(<[a-z]+ '[\s\S]*?'>)",  # extract/class_holes.py
}

#: The characters escaped in a literal part, as in seed 000 (and nothing else, so the
#: pattern stays readable and means the same in every engine).
_SPECIAL = frozenset(".*+?^${}()|[]\\")
_ESCAPE_TABLE = {ord(c): "\\" + c for c in _SPECIAL}

#: Anchors shorter than this are too common to narrow a search.
MIN_ANCHOR_LENGTH = 3

# printf-style conversions as `str % args` understands them.
_PERCENT_RE = re.compile(
    r"%(?:\((?P<key>[^)]*)\))?(?P<flags>[-#0 +]*)(?P<width>\*|\d+)?"
    r"(?:\.(?P<precision>\*|\d+))?[hlL]?(?P<conv>[diouxXeEfFgGcrsa%])"
)


def _kind(kind: str) -> str:
    """A stored hole kind errdex knows, else none (the hole then matches any text)."""
    return kind if kind in KIND_REGEX else ""


def escape_literal(text: str) -> str:
    """Escape only the regex metacharacters, so ``a.b`` becomes ``a\\.b`` and nothing else changes."""
    return text.translate(_ESCAPE_TABLE)


@dataclass(frozen=True, slots=True)
class Literal:
    """Text that appears verbatim in the runtime message."""

    text: str
    #: Printed on some ways only (see :meth:`MessageTemplate.pattern`).
    optional: bool = False


@dataclass(frozen=True, slots=True)
class Hole:
    """A value filled in at run time.

    ``text`` is how the source writes it (``{aval}``, ``{out_spec=}``, ``%s``, ``{}``,
    ``{str(x)}``); ``name`` is the key under which a matcher reports its value.
    ``prefix`` is literal text the hole itself prints before the value: a debug field
    ``{out_spec=}`` prints ``out_spec=`` and then the value.
    """

    text: str
    name: str
    prefix: str = ""
    #: What the value can be (a key of :data:`KIND_REGEX`), when the conversion says so.
    kind: str = ""
    #: The source expression whose value fills the hole when the hole is shown by a name
    #: (``{resp}`` filled by ``self.getmultiline()``): evidence, never part of the text
    #: shown, and not compared (two ways to the same name are one hole).
    filled: str = dataclass_field(default="", compare=False)
    #: Printed on some ways only, with the literal text around it that is optional too.
    optional: bool = False

    @property
    def regex(self) -> str:
        return KIND_REGEX.get(self.kind, HOLE_REGEX)


Part = Literal | Hole


class MessageTemplate:
    """An immutable sequence of literal parts and holes, with adjacent literals merged."""

    __slots__ = ("_compiled_re", "_display", "_pattern", "parts")

    def __init__(self, parts: Iterable[Part] = ()) -> None:
        self._display: str | None = None
        self._pattern: str | None = None
        self._compiled_re: re.Pattern[str] | None = None
        merged: list[Part] = []
        for part in parts:
            if isinstance(part, Literal):
                if not part.text:
                    continue
                last = merged[-1] if merged else None
                if isinstance(last, Literal) and last.optional == part.optional:
                    merged[-1] = Literal(last.text + part.text, part.optional)
                    continue
            merged.append(part)
        self.parts: tuple[Part, ...] = tuple(merged)

    # -- construction -------------------------------------------------------------

    @classmethod
    def literal(cls, text: str) -> MessageTemplate:
        return cls([Literal(text)])

    @classmethod
    def hole(cls, text: str, name: str | None = None) -> MessageTemplate:
        return cls([Hole(text, name if name is not None else _hole_name(text))])

    @classmethod
    def expression(cls, source: str) -> MessageTemplate:
        """A value joined in by concatenation or passed as an argument: shown as ``{source}``."""
        return cls([Hole("{" + source + "}", source)])

    @classmethod
    def unknown_message(cls, exception: str) -> MessageTemplate:
        """The message of an exception built in a way not followed (``raise error[0]("…")``,
        a class whose ``__init__`` was not read): one hole, shown as ``{…}`` rather than as
        the code, which is kept as what fills it (``str(exception)``)."""
        return cls([Hole("{…}", "(message)", filled=f"str({exception})")])

    @classmethod
    def from_percent(cls, fmt: str) -> MessageTemplate:
        """Parse a printf-style format string (``"%s is %(name)r, 100%%"``)."""
        parts: list[Part] = []
        pos = 0
        index = 0
        for m in _PERCENT_RE.finditer(fmt):
            parts.append(Literal(fmt[pos : m.start()]))
            if m.group("conv") == "%":
                parts.append(Literal("%"))
            else:
                key = m.group("key")
                if key is None:
                    key = str(index)
                    index += 1
                parts.append(Hole(m.group(0), key, kind=_percent_kind(m)))
            pos = m.end()
        parts.append(Literal(fmt[pos:]))
        return cls(parts)

    @classmethod
    def from_format(cls, fmt: str) -> MessageTemplate:
        """Parse a ``str.format`` string (``"{} and {0!r} and {name:>10}"``); ``{{`` is a brace."""
        parts: list[Part] = []
        auto = 0
        try:
            parsed = list(string.Formatter().parse(fmt))
        except ValueError:
            return cls.literal(fmt)
        for literal_text, field, spec, conversion in parsed:
            parts.append(Literal(literal_text))
            if field is None:
                continue
            if field == "":
                name = str(auto)
                auto += 1
            else:
                name = field
            written = "{" + field
            if conversion:
                written += "!" + conversion
            if spec:
                written += ":" + spec
            # ``{:d}`` prints an int in decimal, as ``%d`` does
            kind = "int" if spec == "d" and not conversion else ""
            parts.append(Hole(written + "}", name, kind=kind))
        return cls(parts)

    def __add__(self, other: MessageTemplate) -> MessageTemplate:
        return MessageTemplate(self.parts + other.parts)

    @classmethod
    def join(cls, templates: Sequence[MessageTemplate], separator: str = "") -> MessageTemplate:
        parts: list[Part] = []
        for i, template in enumerate(templates):
            if i and separator:
                parts.append(Literal(separator))
            parts.extend(template.parts)
        return cls(parts)

    # -- views ----------------------------------------------------------------------

    @property
    def holes(self) -> tuple[Hole, ...]:
        return tuple(p for p in self.parts if isinstance(p, Hole))

    @property
    def literals(self) -> tuple[str, ...]:
        """The runs of literal text between hole values (debug-field prefixes included)."""
        runs: list[str] = []
        current = ""
        for p in self.required:
            if isinstance(p, Literal):
                current += p.text
            else:
                current += p.prefix
                if current:
                    runs.append(current)
                current = ""
        if current:
            runs.append(current)
        return tuple(runs)

    def runs(self) -> tuple[str, ...]:
        """The literal text between hole values, one more than there are holes (empty
        strings included): what :func:`errdex.match.literal_match.match_runs` takes. Of a
        template with optional parts, the runs of the text always printed: they anchor a
        search, and its pattern decides the match (:attr:`has_kinds`)."""
        runs: list[str] = []
        current = ""
        for p in self.required:
            if isinstance(p, Literal):
                current += p.text
            else:
                runs.append(current + p.prefix)
                current = ""
        runs.append(current)
        return tuple(runs)

    @property
    def required(self) -> tuple[Part, ...]:
        """The parts printed on every way (all of them, unless some are optional)."""
        return tuple(p for p in self.parts if not p.optional)

    @property
    def has_optional(self) -> bool:
        return any(p.optional for p in self.parts)

    @property
    def has_kinds(self) -> bool:
        """Whether a hole says what it prints (:data:`KIND_REGEX`), or a part is printed on
        some ways only: then its literal runs alone do not decide a match, the pattern does."""
        return any((isinstance(p, Hole) and p.kind) or p.optional for p in self.parts)

    @property
    def is_empty(self) -> bool:
        return not self.parts

    @property
    def is_opaque(self) -> bool:
        """True when no literal text is known to be printed: the message is (or, with its
        optional parts left out, may be) one unresolved value."""
        return not any(isinstance(p, Literal) and p.text.strip() for p in self.required)

    @property
    def display(self) -> str:
        """The template as the source writes it (``errorMessage``); a run of optional parts
        in square brackets, as usage lines mark what may be left out
        (``missing : at position %d[ (line %d, column %d)]``)."""
        if self._display is None:
            self._display = "".join(
                f"[{''.join(p.text for p in run)}]" if optional else "".join(p.text for p in run)
                for optional, run in self._segments()
            )
        return self._display

    def _segments(self) -> Iterator[tuple[bool, tuple[Part, ...]]]:
        """The parts in runs printed always, and runs printed on some ways only."""
        start = 0
        for i in range(1, len(self.parts) + 1):
            if i == len(self.parts) or self.parts[i].optional != self.parts[start].optional:
                yield self.parts[start].optional, self.parts[start:i]
                start = i

    @property
    def pattern(self) -> str:
        """The regex for the runtime message (``messagePattern``): unanchored, holes as lazy groups.

        An empty template (``raise ValueError()``) has an empty runtime message: ``^$``.
        A run of optional parts is an optional group ``(?:…)?``, which means the same in
        Python ``re``, RE2 and JavaScript; its holes are groups that may match nothing.
        """
        if self._pattern is None:
            self._pattern = (
                "".join(
                    f"(?:{_regex(run)})?" if optional else _regex(run)
                    for optional, run in self._segments()
                )
                if self.parts
                else "^$"
            )
        return self._pattern

    def anchors(self, min_length: int = MIN_ANCHOR_LENGTH) -> list[str]:
        """Literal runs a matcher can look for before it runs the regex, longest first.

        Runs of equal length keep their order in the message, so the answer never
        depends on the hash seed.
        """
        found = dict.fromkeys(text.strip() for text in self.literals)
        return sorted((a for a in found if len(a) >= min_length), key=len, reverse=True)

    def match(self, message: str) -> dict[str, str] | None:
        """Hole values when ``message`` is an instance of this template, else None."""
        if self._compiled_re is None:
            self._compiled_re = re.compile(self.pattern)
        m = self._compiled_re.fullmatch(message)
        if m is None:
            return None
        values: dict[str, str] = {}
        for hole, value in zip(self.holes, m.groups(), strict=True):
            if value is not None:  # None: an optional part not printed
                values.setdefault(hole.name, value)
        return values

    def render(self, values: Sequence[str], optional: bool = True) -> str:
        """Fill the holes in order: the inverse of :meth:`match`, used by tests and
        benchmarks; ``optional=False`` leaves the optional parts out (values are still
        given for every hole)."""
        it: Iterator[str] = iter(values)
        out = []
        for p in self.parts:
            shown = p.text if isinstance(p, Literal) else p.prefix + next(it)
            if optional or not p.optional:
                out.append(shown)
        return "".join(out)

    # -- serialisation ----------------------------------------------------------------

    def to_json(self) -> list[dict[str, str | bool]]:
        return [
            {
                **(
                    {"literal": p.text}
                    if isinstance(p, Literal)
                    else {
                        "hole": p.text,
                        "name": p.name,
                        **({"prefix": p.prefix} if p.prefix else {}),
                        **({"kind": p.kind} if p.kind else {}),
                        **({"filled": p.filled} if p.filled else {}),
                    }
                ),
                **({"optional": True} if p.optional else {}),
            }
            for p in self.parts
        ]

    @classmethod
    def from_json(cls, data: Iterable[Mapping[str, Any]]) -> MessageTemplate:
        return cls(
            Literal(d["literal"], bool(d.get("optional")))
            if "literal" in d
            else Hole(
                d["hole"],
                d["name"],
                d.get("prefix", ""),
                _kind(d.get("kind", "")),
                d.get("filled", ""),
                bool(d.get("optional")),
            )
            for d in data
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MessageTemplate) and self.parts == other.parts

    def __hash__(self) -> int:
        return hash(self.parts)

    def __repr__(self) -> str:
        return f"MessageTemplate({self.display!r})"


def _regex(parts: Iterable[Part]) -> str:
    return "".join(
        escape_literal(p.text) if isinstance(p, Literal) else escape_literal(p.prefix) + p.regex
        for p in parts
    )


def _percent_kind(m: re.Match[str]) -> str:
    """``int`` for ``%d``, ``%i``, ``%u`` (``%ld``, ``%05d``, ``%.3d``): CPython prints the
    value's digits, a minus sign the only other character. A width that pads with spaces,
    or a ``+``, space or ``-`` flag, prints more: those stay untyped."""
    if m.group("conv") not in "diu":
        return ""
    flags, width = m.group("flags"), m.group("width")
    if flags not in ("", "0") or width == "*" or (width is not None and flags != "0"):
        return ""
    return "int"


def _hole_name(text: str) -> str:
    """``{out_spec=}`` -> ``out_spec``; ``%(n)s`` -> ``n``; anything else names itself."""
    if text.startswith("{") and text.endswith("}"):
        return text[1:-1].strip().rstrip("=").strip() or text
    m = _PERCENT_RE.fullmatch(text)
    if m and m.group("key") is not None:
        return m.group("key")
    return text


def fold_optional(templates: Sequence[MessageTemplate]) -> list[MessageTemplate]:
    """Alternatives of one site where one is another with text inserted in one place, read
    as one template whose inserted text is optional: ``re.error`` prints ``missing : at
    position 4``, and ``… (line 2, column 4)`` after it when the pattern holds a newline;
    argparse's ``ArgumentError`` prints its message, after ``argument -x: `` when the
    action has a name. Both are what the site prints, and neither is the message alone.
    Templates whose literal text holds a square bracket are not folded: the display
    could not show which brackets mark the optional part.
    Templates already holding optional parts are kept as they are; order is kept, a fold
    standing where the first of its pair stood."""
    out: list[MessageTemplate] = []
    for template in templates:
        for i, kept in enumerate(out):
            folded = _fold_pair(kept, template)
            if folded is not None:
                out[i] = folded
                break
        else:
            if template not in out:
                out.append(template)
    return out


def _fold_pair(one: MessageTemplate, other: MessageTemplate) -> MessageTemplate | None:
    """``one`` and ``other`` as one template with an optional run, when the longer is the
    shorter with text inserted in one place; None otherwise."""
    if one.has_optional or other.has_optional or one == other:
        return None
    if _has_bracket(one) or _has_bracket(other):
        return None  # ``items[{i}][.{context}]``: which brackets mark the optional part?
    short, long = (one, other) if len(_tokens(one)) <= len(_tokens(other)) else (other, one)
    a, b = _tokens(short), _tokens(long)
    if not a or len(a) == len(b):
        return None
    head = 0
    while head < len(a) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < len(a) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    if head + tail != len(a):
        return None
    extra = range(head, len(b) - tail)
    parts = [replace(t, optional=True) if k in extra else t for k, t in enumerate(b)]
    return MessageTemplate(parts)


def _has_bracket(template: MessageTemplate) -> bool:
    """Whether literal text holds a square bracket, which the display of an optional
    part could not be told from."""
    return any(isinstance(p, Literal) and ("[" in p.text or "]" in p.text) for p in template.parts)


def _tokens(template: MessageTemplate) -> list[Part]:
    """The parts with each literal cut into characters, so an insertion inside a literal
    (``argument`` and ``arguments``) is found."""
    out: list[Part] = []
    for p in template.parts:
        out.extend(Literal(c) for c in p.text) if isinstance(p, Literal) else out.append(p)
    return out
