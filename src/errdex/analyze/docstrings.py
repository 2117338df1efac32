"""``Raises`` entries of a docstring in the Google, NumPy and Sphinx styles, with their lines,
and what a docstring says of one parameter.

A docstring that says which exceptions a function raises, and when, is the author's
own account of an error; it is quoted, never paraphrased. ``Warns`` sections are read
the same way, for warnings. A parameter's description (``rows : int`` / ``rows (int):``
/ ``:param rows:``) is the author's requirement on what a caller passes.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass
from typing import Literal

from .linear import LinearRegex

__all__ = [
    "DOCSTRING_LIMIT",
    "DocEntry",
    "cleaned",
    "names_class",
    "param_doc",
    "parse_raises",
    "says_only_the_name",
    "summary",
    "words",
]

#: Docstrings are kept up to this many characters in the evidence (Raises entries are
#: read from the whole docstring and kept on their own).
DOCSTRING_LIMIT = 4000

Style = Literal["google", "numpy", "sphinx"]

_GOOGLE_HEADER = re.compile(r"^(Raises|Raise|Warns|Warnings)\s*:\s*$")
_NUMPY_HEADER = re.compile(r"^(Raises|Warns)\s*$")
_UNDERLINE = re.compile(r"^(-{3,}|={3,})\s*$")
#: Read on docstring lines of any length: RE2, linear time.
_SPHINX_FIELD = LinearRegex(r"^:(raises?|exception|except|warns?)(?:\s+([^:]+?))?\s*:\s*(.*)$")
_ANY_FIELD = LinearRegex(r"^:[A-Za-z_]+(?:\s+[^:]*)?:")
_ROLE = re.compile(r":(?:py:)?(?:exc|class|obj|meth|func|data|attr):")
_CLASS_WORD = re.compile(r"^[A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*$")
_SPLIT_CLASSES = LinearRegex(r"\s*(?:,|\bor\b|\band\b|\|)\s*")


@dataclass(frozen=True, slots=True)
class DocEntry:
    """One entry: the classes it names, its text, and the line it starts on."""

    style: Style
    classes: tuple[str, ...]
    text: str
    line: int


def cleaned(docstring: str | None) -> str | None:
    """The docstring as ``inspect.cleandoc`` shows it, cut at :data:`DOCSTRING_LIMIT`."""
    if not docstring:
        return None
    doc = inspect.cleandoc(docstring)
    return doc if len(doc) <= DOCSTRING_LIMIT else doc[: DOCSTRING_LIMIT - 1] + "…"


#: Words a docstring's summary may hold and still say nothing beyond the function's name.
_EMPTY_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "this",
        "that",
        "its",
        "it",
        "of",
        "for",
        "to",
        "and",
        "or",
        "in",
        "on",
        "with",
        "by",
        "from",
        "is",
        "are",
        "be",
        "construct",
        "constructs",
        "constructor",
        "create",
        "creates",
        "initialize",
        "initializes",
        "initialise",
        "init",
        "instance",
        "object",
        "new",
        "return",
        "returns",
        "get",
        "gets",
        "set",
        "sets",
        "helper",
        "function",
        "method",
        "class",
        "handle",
        "handles",
        "do",
        "does",
        "internal",
        "private",
    ]
)
_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def words(text: str) -> set[str]:
    """Lower-case words, ``_CANCELLED`` and ``getName`` split as a reader reads them."""
    return {w.lower() for w in _WORD.findall(text)}


def says_only_the_name(about: str, *names: str) -> bool:
    """Whether a summary says nothing its function's and class's names do not: "Construct
    a _Stream object" for ``_Stream.__init__``, "Handles an error" for
    ``Context._raise_error``."""
    named = set().union(*(words(n) for n in names)) if names else set()
    return not (words(about) - named - _EMPTY_WORDS)


def summary(docstring: str | None) -> str | None:
    """The first paragraph of a docstring, on one line (reST directives such as
    ``.. deprecated:: 3.5`` skipped)."""
    if not docstring:
        return None
    para: list[str] = []
    for line in inspect.cleandoc(docstring).splitlines():
        text = line.strip()
        if not text or (text.startswith(".. ") and not para):
            if para:
                break
            continue
        para.append(text)
    return " ".join(para) or None


def _class_names(text: str) -> tuple[str, ...] | None:
    """``:exc:`~pkg.FooError` or ValueError`` -> ("pkg.FooError", "ValueError"); None if not classes."""
    cleaned = _ROLE.sub("", text).replace("`", "").replace("~", "").replace("!", "").strip()
    cleaned = cleaned.strip("*").strip()
    if not cleaned:
        return None
    names = [n.strip().rstrip(".") for n in _SPLIT_CLASSES.split(cleaned) if n.strip()]
    if not names or not all(_CLASS_WORD.match(n) for n in names):
        return None
    if not all(n.split(".")[-1][:1].isupper() for n in names):
        return None
    return tuple(names)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _join(lines: list[str]) -> str:
    return " ".join(x.strip() for x in lines if x.strip())


def parse_raises(docstring: str | None, first_line: int) -> list[DocEntry]:
    """Every Raises/Warns entry; ``first_line`` is the line the string literal starts on."""
    if not docstring:
        return []
    lines = docstring.split("\n")
    entries: list[DocEntry] = []
    i = 0
    while i < len(lines):
        stripped = lines[i].strip()
        if _GOOGLE_HEADER.match(stripped):
            i = _google(lines, i, first_line, entries)
            continue
        if (
            _NUMPY_HEADER.match(stripped)
            and i + 1 < len(lines)
            and _UNDERLINE.match(lines[i + 1].strip())
        ):
            i = _numpy(lines, i, first_line, entries)
            continue
        if stripped.startswith(":"):
            i = _sphinx(lines, i, first_line, entries)
            continue
        i += 1
    return entries


def _google(lines: list[str], start: int, first_line: int, out: list[DocEntry]) -> int:
    base = _indent(lines[start])
    i = start + 1
    body: list[int] = []
    while i < len(lines):
        line = lines[i]
        if line.strip() and _indent(line) <= base:
            break
        body.append(i)
        i += 1
    content = [k for k in body if lines[k].strip()]
    if not content:
        return i
    entry_indent = min(_indent(lines[k]) for k in content)
    current: tuple[tuple[str, ...], int, list[str]] | None = None
    for k in content:
        line = lines[k]
        if _indent(line) == entry_indent:
            if current is not None:
                out.append(DocEntry("google", current[0], _join(current[2]), current[1]))
                current = None
            head, sep, rest = line.strip().partition(":")
            names = _class_names(head) if sep else _class_names(line.strip())
            if names is not None:
                current = (names, first_line + k, [rest] if sep else [])
        elif current is not None:
            current[2].append(line)
    if current is not None:
        out.append(DocEntry("google", current[0], _join(current[2]), current[1]))
    return i


def _numpy(lines: list[str], start: int, first_line: int, out: list[DocEntry]) -> int:
    base = _indent(lines[start])
    i = start + 2
    current: tuple[tuple[str, ...], int, list[str]] | None = None

    def flush() -> None:
        nonlocal current
        if current is not None:
            out.append(DocEntry("numpy", current[0], _join(current[2]), current[1]))
            current = None

    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if not stripped:
            i += 1
            continue
        indent = _indent(line)
        if indent < base:
            break
        next_line = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if indent == base and _UNDERLINE.match(next_line):
            break  # the next section
        if indent == base:
            flush()
            head, sep, rest = stripped.partition(" : ")
            names = _class_names(head if sep else stripped)
            if names is not None:
                current = (names, first_line + i, [rest] if sep else [])
        elif current is not None:
            current[2].append(line)
        i += 1
    flush()
    return i


def _sphinx(lines: list[str], start: int, first_line: int, out: list[DocEntry]) -> int:
    stripped = lines[start].strip()
    m = _SPHINX_FIELD.match(stripped)
    if m is None:
        return start + 1
    target, text = m.group(2), m.group(3)
    if target:
        names, parts = _class_names(target), [text]
    else:  # ``:raises: ValueError if ...``
        head = text.split(maxsplit=1)
        names = _class_names(head[0].rstrip(",:")) if head else None
        parts = head[1:]
    base = _indent(lines[start])
    i = start + 1
    while i < len(lines):
        line = lines[i]
        if not line.strip() or _indent(line) <= base or _ANY_FIELD.match(line.strip()):
            break
        parts.append(line)
        i += 1
    if names is not None:
        out.append(DocEntry("sphinx", names, _join(parts), first_line + start))
    return i


def names_class(entry: DocEntry, error_class: str) -> bool:
    """Whether the entry names ``error_class`` (compared by its last dotted part)."""
    return any(name.split(".")[-1] == error_class for name in entry.classes)


_GOOGLE_PARAMS = re.compile(
    r"^(Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments)\s*:\s*$"
)
_NUMPY_PARAMS = re.compile(r"^(Parameters|Other Parameters|Keyword Arguments)\s*$")


def param_doc(docstring: str | None, name: str) -> str | None:
    """What the docstring says of parameter ``name``, on one line; None if it says nothing."""
    if not docstring or not name:
        return None
    lines = inspect.cleandoc(docstring).split("\n")
    for i, line in enumerate(lines):
        stripped = line.strip()
        if _GOOGLE_PARAMS.match(stripped):
            found = _param_entry(lines, i + 1, _indent(line), name, google=True)
        elif (
            _NUMPY_PARAMS.match(stripped)
            and i + 1 < len(lines)
            and _UNDERLINE.match(lines[i + 1].strip())
        ):
            found = _param_entry(lines, i + 2, _indent(line), name, google=False)
        elif stripped.startswith(":param"):
            head, sep, rest = stripped[1:].partition(":")
            words = head.split()
            found = None
            if sep and len(words) >= 2 and words[-1] == name:
                parts = [rest]
                for more in lines[i + 1 :]:
                    if not more.strip() or more.strip().startswith(":"):
                        break
                    parts.append(more)
                found = _join(parts)
        else:
            continue
        if found:
            return found
    return None


def _param_entry(lines: list[str], start: int, base: int, name: str, *, google: bool) -> str | None:
    """The description under ``name`` in a Parameters/Args section starting at ``start``."""
    entry_indent: int | None = None
    current: list[str] | None = None
    for line in lines[start:]:
        stripped = line.strip()
        if not stripped:
            continue
        indent = _indent(line)
        if indent < base or (google and indent <= base):
            break
        if entry_indent is None:
            entry_indent = indent
        if indent == entry_indent:
            if current is not None:
                break
            if not google and indent == base and ":" not in stripped and stripped != name:
                break  # the next NumPy section's title
            head, _, rest = stripped.partition(":")
            head = head.split("(")[0].strip()
            if head.lstrip("*") == name:
                current = [rest] if google else []
        elif current is not None:
            current.append(line)
    return _join(current) if current else None
