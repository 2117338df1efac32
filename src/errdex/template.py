"""Message templates: literal text and holes, rendered as display text, regex and anchors.

One type carries a message through extraction, storage and matching, so that the
display text (``errorMessage``), the regex (``messagePattern``) and the literal
anchors a matcher indexes can never disagree with each other.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field

__all__ = [
    "HOLE_REGEX",
    "Hole",
    "Literal",
    "MessageTemplate",
    "escape_literal",
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
                if merged and isinstance(merged[-1], Literal):
                    merged[-1] = Literal(merged[-1].text + part.text)
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
                parts.append(Hole(m.group(0), key))
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
            parts.append(Hole(written + "}", name))
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
        for p in self.parts:
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
        strings included): what :func:`errdex.match.literal_match.match_runs` takes."""
        runs: list[str] = []
        current = ""
        for p in self.parts:
            if isinstance(p, Literal):
                current += p.text
            else:
                runs.append(current + p.prefix)
                current = ""
        runs.append(current)
        return tuple(runs)

    @property
    def has_kinds(self) -> bool:
        """Whether a hole says what it prints (:data:`KIND_REGEX`): then its literal runs
        alone do not decide a match, the pattern does."""
        return any(isinstance(p, Hole) and p.kind for p in self.parts)

    @property
    def is_empty(self) -> bool:
        return not self.parts

    @property
    def is_opaque(self) -> bool:
        """True when no literal text is known: the message is one unresolved value."""
        return not any(isinstance(p, Literal) and p.text.strip() for p in self.parts)

    @property
    def display(self) -> str:
        """The template as the source writes it (``errorMessage``)."""
        if self._display is None:
            self._display = "".join(p.text for p in self.parts)
        return self._display

    @property
    def pattern(self) -> str:
        """The regex for the runtime message (``messagePattern``): unanchored, holes as lazy groups.

        An empty template (``raise ValueError()``) has an empty runtime message: ``^$``.
        """
        if self._pattern is None:
            self._pattern = (
                "".join(
                    escape_literal(p.text)
                    if isinstance(p, Literal)
                    else escape_literal(p.prefix) + p.regex
                    for p in self.parts
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
            values.setdefault(hole.name, value)
        return values

    def render(self, values: Sequence[str]) -> str:
        """Fill the holes in order: the inverse of :meth:`match`, used by tests and benchmarks."""
        it: Iterator[str] = iter(values)
        return "".join(
            p.text if isinstance(p, Literal) else p.prefix + next(it) for p in self.parts
        )

    # -- serialisation ----------------------------------------------------------------

    def to_json(self) -> list[dict[str, str]]:
        return [
            {"literal": p.text}
            if isinstance(p, Literal)
            else {
                "hole": p.text,
                "name": p.name,
                **({"prefix": p.prefix} if p.prefix else {}),
                **({"kind": p.kind} if p.kind else {}),
                **({"filled": p.filled} if p.filled else {}),
            }
            for p in self.parts
        ]

    @classmethod
    def from_json(cls, data: Iterable[dict[str, str]]) -> MessageTemplate:
        return cls(
            Literal(d["literal"])
            if "literal" in d
            else Hole(
                d["hole"],
                d["name"],
                d.get("prefix", ""),
                _kind(d.get("kind", "")),
                d.get("filled", ""),
            )
            for d in data
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MessageTemplate) and self.parts == other.parts

    def __hash__(self) -> int:
        return hash(self.parts)

    def __repr__(self) -> str:
        return f"MessageTemplate({self.display!r})"


def _hole_name(text: str) -> str:
    """``{out_spec=}`` -> ``out_spec``; ``%(n)s`` -> ``n``; anything else names itself."""
    if text.startswith("{") and text.endswith("}"):
        return text[1:-1].strip().rstrip("=").strip() or text
    m = _PERCENT_RE.fullmatch(text)
    if m and m.group("key") is not None:
        return m.group("key")
    return text
