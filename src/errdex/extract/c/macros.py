"""Sites written in a macro's body: ``#define CHECK(x) if (!(x)) { PyErr_SetString(…); }``.

tree-sitter keeps a ``#define`` body as raw text (the preprocessor, not the grammar, reads
it), so the calls in it are invisible to the walk of the file. Each body that names a
site's keyword is parsed on its own, as the statements of a function named after the
macro, with its line breaks kept, so every site it holds lands on its line in the file.
A site whose message is one of the macro's parameters
(``#define FAIL(msg) PyErr_SetString(PyExc_ValueError, msg)``) makes each use of the
macro that passes text a site of its own, as a helper function does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from tree_sitter import Node, Tree

from errdex.extract.site import ErrorSite

from .grammar import Dialect, parser_for
from .helpers import Helper
from .messages import node_text

__all__ = ["MacroBody", "bodies", "helper_of_macro", "relocated"]

#: Words without which a body holds no site (what a C site's call is named).
_SITE_WORDS = ("PyErr_", "PyArg_", "throw", "pybind11_fail", "raise", "Error(")
_CONTINUATION = re.compile(r"\\[ \t]*\r?\n")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True, slots=True)
class MacroBody:
    """One ``#define`` body parsed as a function of its own."""

    name: str
    params: tuple[str, ...]
    #: 0-based row of the file where the body starts (the fragment's first row).
    row: int
    tree: Tree


def _params(node: Node) -> tuple[str, ...]:
    params = node.child_by_field_name("parameters")
    if params is None:
        return ()
    return tuple(node_text(p) for p in params.named_children if p.type == "identifier")


def bodies(nodes: list[Node], dialect: Dialect) -> list[MacroBody]:
    """The bodies of the ``#define``s among ``nodes`` that may hold a site."""
    found: list[MacroBody] = []
    for node in nodes:
        name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
        if name is None or value is None:
            continue
        text = node_text(value)
        if not any(word in text for word in _SITE_WORDS):
            continue
        # a continued line stays a line: the backslash goes, its line break stays
        body = _CONTINUATION.sub("\n", text)
        fragment = f"void {node_text(name)}(void) {{ {body}\n;}}\n"
        tree = parser_for(dialect).parse(fragment.encode("utf-8", "surrogatepass"))
        found.append(MacroBody(node_text(name), _params(node), value.start_point[0], tree))
    return found


def relocated(site: ErrorSite, body: MacroBody) -> ErrorSite:
    """A site of the fragment at its line in the file, named after the macro."""
    shift = body.row
    return replace(
        site,
        line=site.line + shift,
        end_line=site.end_line + shift,
        guards=tuple(replace(g, line=g.line + shift) for g in site.guards),
        function=None,
        qualname=body.name,
        notes=[
            *site.notes,
            f"written in the body of the macro {body.name}: raised where the macro is used",
        ],
    )


def helper_of_macro(site: ErrorSite, body: MacroBody) -> Helper | None:
    """The macro as a helper when the site's one hole is one of its parameters."""
    holes = site.template.holes
    if not body.params or len(holes) != 1 or not site.template.is_opaque:
        return None
    words = _WORD.findall(holes[0].name)
    chosen = [i for i, p in enumerate(body.params) if p in words]
    return Helper(body.name, chosen[0], site) if chosen else None
