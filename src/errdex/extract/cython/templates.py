"""Tempita templates (``.pyx.in``, ``.pxi.in``, ``.pxd.in``) rendered as builds render them.

numpy, pandas and scipy generate Cython files with ``Cython.Tempita.sub(text)``: the
template's own ``{{py: …}}`` blocks and ``{{default …}}`` lines give every name. A
Cython traceback then prints the rendered file's line, so sites are read from the
rendered text, and each carries a note naming the template line it came from (found
by matching the rendered line against the template's lines, with each ``{{…}}`` a
wildcard). A template that needs a name only the build passes in is refused, saying
which name.

The template's Python runs with a short list of builtins (no ``open``, no
``__import__``): enough for the loops and tables builds write, not a way to reach the
file system or the network. It is not a sandbox against a hostile template.
"""

from __future__ import annotations

import builtins
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

from errdex.extract.registry import ExtractError
from errdex.extract.source_lines import source_lines

__all__ = ["TEMPLATE_SUFFIX", "Rendered", "render_template"]

TEMPLATE_SUFFIX = ".in"
#: What a template's Python may use: enough for the loops and tables builds write.
_SAFE_NAMES = """
abs all any bool chr dict divmod enumerate filter float format frozenset getattr hasattr hex
int isinstance iter len list map max min next oct ord pow range repr reversed round set slice
sorted str sum tuple zip ValueError TypeError KeyError Exception NameError True False None
"""
_SAFE_BUILTINS = {name: getattr(builtins, name) for name in _SAFE_NAMES.split()}
_DIRECTIVE = re.compile(
    r"\s*\{\{\s*(?:for|endfor|if|elif|else|endif|py:|default|#|break|continue|inherit|def|enddef)\b.*"
)


@dataclass(frozen=True)
class Rendered:
    text: str
    #: For a site on a rendered line: the notes saying which template line wrote it, and
    #: that line (None when no template line renders to it).
    notes: Callable[[int], tuple[list[str], int | None]]
    #: A fresh ``notes`` for a second pass over the rendered lines (``notes`` prefers the
    #: template line after the one it last chose, so each pass asks in line order).
    renotes: Callable[[], Callable[[int], tuple[list[str], int | None]]]


def render_template(text: str, file_path: str) -> Rendered:
    """Render ``text`` with Tempita and its own defaults; ExtractError when it cannot be."""
    from Cython import Tempita

    make: Any = Tempita.Template  # Cython ships no type hints
    template = make(text, name=file_path)
    template.default_namespace = {**template.default_namespace, "__builtins__": _SAFE_BUILTINS}
    try:
        rendered = template.substitute()
    except NameError as exc:
        name = getattr(exc, "name", None) or "a name"
        raise ExtractError(
            f"the template needs {name!s}, a name the build passes in or a builtin errdex "
            f"does not give templates ({exc}); scan the rendered file from a build instead"
        ) from None
    except ImportError as exc:
        raise ExtractError(
            f"the template imports a module ({exc}); errdex does not run imports from "
            "a scanned tree: scan the rendered file from a build instead"
        ) from None
    except (Tempita.TemplateError, SyntaxError) as exc:
        raise ExtractError(f"Tempita cannot read the template: {exc}") from None
    except Exception as exc:  # the template's own Python failed
        raise ExtractError(
            f"the template's code failed when rendered ({type(exc).__name__}: {exc})"
        ) from None
    template_lines, rendered_lines = source_lines(text), source_lines(rendered)
    return Rendered(
        rendered,
        _line_notes(template_lines, rendered_lines, file_path),
        lambda: _line_notes(template_lines, rendered_lines, file_path),
    )


def _line_notes(
    template_lines: list[str], rendered_lines: list[str], file_path: str
) -> Callable[[int], tuple[list[str], int | None]]:
    name = file_path.rsplit("/", 1)[-1]
    in_python = _python_block_lines(template_lines)
    last = [0]

    @cache
    def pattern(k: int) -> re.Pattern[str] | None:
        line = template_lines[k]
        if k in in_python or _DIRECTIVE.fullmatch(line):
            return None
        pieces = re.split(r"\{\{.*?\}\}", line)
        return re.compile(".*?".join(re.escape(p) for p in pieces))

    def notes(rendered_line: int) -> tuple[list[str], int | None]:
        if not 0 < rendered_line <= len(rendered_lines):
            return [], None
        target = rendered_lines[rendered_line - 1]
        found = [
            k + 1
            for k in range(len(template_lines))
            if (p := pattern(k)) is not None and p.fullmatch(target)
        ]
        if not found:
            return [f"rendered from {name}; the template line was not found"], None
        after = [k for k in found if k >= last[0]]
        chosen = after[0] if after else found[0]
        last[0] = chosen
        text = f"rendered from {name} line {chosen} (line {rendered_line} of the rendered file)"
        if len(found) > 1:
            text += f"; template lines {', '.join(map(str, found))} render the same text"
        return [text], chosen

    return notes


def _python_block_lines(lines: list[str]) -> set[int]:
    """Indices of template lines inside ``{{py: … }}`` blocks (they render nothing)."""
    inside: set[int] = set()
    open_at: int | None = None
    for k, line in enumerate(lines):
        if open_at is None and "{{py:" in line and "}}" not in line.split("{{py:", 1)[1]:
            open_at = k
        elif open_at is not None:
            inside.add(k)
            if "}}" in line:
                open_at = None
    return inside
