"""The source window as HTML: Pygments colours, line numbers, the raise line marked.

Pygments escapes every character of the code, and nothing else from the record
reaches this HTML unescaped, so a window holding ``<script>`` or ``{{ }}`` shows as
text. The result depends only on its arguments and is memoised: popular pages do not
re-lex the same forty lines on every view.
"""

from __future__ import annotations

from functools import lru_cache

from markupsafe import Markup
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexer import Lexer
from pygments.lexers import TextLexer, get_lexer_for_filename
from pygments.util import ClassNotFound

__all__ = ["highlight_window"]

_FORMATTER = HtmlFormatter(nowrap=True)


@lru_cache(maxsize=64)
def _lexer(suffix: str) -> Lexer:
    """One lexer per file suffix; lexers hold no state between calls."""
    try:
        lexer: Lexer = get_lexer_for_filename(f"x{suffix}", stripnl=False, ensurenl=True)
    except ClassNotFound:
        lexer = TextLexer(stripnl=False, ensurenl=True)
    return lexer


def _suffix(file_path: str) -> str:
    name = file_path.rsplit("/", 1)[-1]
    return name[name.rfind(".") :] if "." in name else ""


@lru_cache(maxsize=2048)
def highlight_window(
    code: str, file_path: str, start: int, raise_lines: range, condition_lines: frozenset[int]
) -> Markup:
    """``<pre>`` of the window starting at line ``start``; ``raise_lines`` marked, each
    line ``id="L<n>"`` so the page (and the Condition section) can link to it."""
    count = code.count("\n") + 1
    # One newline more than the window has, so a blank last line survives the lexer.
    lines = highlight(code + "\n", _lexer(_suffix(file_path)), _FORMATTER).split("\n")[:count]
    lines += [""] * (count - len(lines))
    out = ['<pre class="code"><code>']
    for offset, html in enumerate(lines):
        number = start + offset
        classes = "line"
        if number in raise_lines:
            classes += " hit"
        elif number in condition_lines:
            classes += " cond"
        out.append(
            f'<span class="{classes}" id="L{number}"><span class="ln">{number}</span>'
            f"{html}</span>\n"
        )
    out.append("</code></pre>")
    return Markup("".join(out))
