"""The JavaScript and TypeScript extractor: throws, rejections, HTTP error responses and
``console.error``/``console.warn``, read with the tree-sitter grammars.

``grammar`` holds the parsers and finds the candidate nodes (their words found in the
text, so a file costs little more than its parse); ``sites`` decides what each candidate is, with
``errors`` (what an error expression constructs), ``messages`` (templates), ``scope``
(imports, classes, function names, variables) and ``guards`` (the conditions on the way).
Minified and bundled files are not sources: they are skipped with a reason.
"""

from __future__ import annotations

from errdex.extract.registry import ExtractError
from errdex.extract.site import ErrorSite

from .grammar import candidates, dialect_of, parser, word_starts
from .scope import module_facts
from .sites import FileSites

__all__ = ["MINIFIED_BYTES", "extract", "minified_reason"]

#: A file this large with so few lines, or such long ones, is minified or bundled.
MINIFIED_BYTES = 4096
_LONG_LINE = 1000
_MINIFIED_NAMES = (".min.js", ".min.mjs", ".min.cjs", "-min.js", ".bundle.js")


def minified_reason(text: str, file_path: str, lines: list[str]) -> str | None:
    """Why a file is minified or bundled output rather than a source, or None."""
    name = file_path.rsplit("/", 1)[-1]
    if name.endswith(_MINIFIED_NAMES):
        return f"minified or bundled file ({name}), not a source"
    if len(text) <= MINIFIED_BYTES:
        return None
    longest = max(map(len, lines), default=0)
    if len(lines) <= 3 or longest > 20 * _LONG_LINE or len(text) / max(1, len(lines)) > _LONG_LINE:
        return f"minified or bundled file ({len(lines)} line(s), longest {longest} characters)"
    return None


def _encode(text: str) -> bytes:
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace")


def extract(text: str, file_path: str, lines: list[str]) -> list[ErrorSite]:
    """The registry's entry point (see :mod:`errdex.extract.registry`)."""
    reason = minified_reason(text, file_path, lines)
    if reason is not None:
        raise ExtractError(reason)
    dialect = dialect_of(file_path)
    data = _encode(text)
    starts = word_starts(data)
    if not starts:
        return []  # no word of any idiom: nothing the tree could show
    tree = parser(dialect).parse(data)
    root = tree.root_node
    language = "javascript" if dialect == "javascript" else "typescript"
    found = FileSites(root, data, file_path, language, lambda: module_facts(root, file_path, data))
    nodes = candidates(root, data, starts)
    for node in nodes["throw"]:
        found.throw(node)
    for node in nodes["call"]:
        found.call(node)
    for node in nodes["console"]:
        found.console(node)
    if root.has_error:
        for site in found.sites:
            site.notes.append("the file does not parse cleanly; the parser recovered around errors")
    found.sites.sort(key=lambda s: (s.line, s.end_line))
    return found.sites
