"""Jinja2, set up once: templates compiled on first use and kept, every value escaped.

Pages carry no scripts, so every HTML response forbids them outright
(``script-src 'none'``): an escaping mistake would still not run anything.
"""

from __future__ import annotations

import re
from typing import Any

from jinja2 import Environment, PackageLoader
from markupsafe import Markup, escape
from starlette.responses import HTMLResponse

__all__ = ["HTML_HEADERS", "Templates"]

HTML_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'none'; style-src 'self'; img-src 'self' data:; "
        "form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}

_BACKTICKS = re.compile(r"`([^`\n]+)`")


def inline_code(text: str) -> Markup:
    """Escape prose, then show its `backticked` names as code (the analysts write them so)."""
    return Markup(_BACKTICKS.sub(r"<code>\1</code>", str(escape(text))))


class Templates:
    """The site's templates; ``auto_reload`` off, so a template is compiled once."""

    def __init__(self) -> None:
        self.env = Environment(
            loader=PackageLoader("errdex.web", "templates"),
            autoescape=True,
            auto_reload=False,
            trim_blocks=True,
            lstrip_blocks=True,
            cache_size=-1,
        )
        self.env.filters["inline_code"] = inline_code

    def render(self, name: str, context: dict[str, Any], status_code: int = 200) -> HTMLResponse:
        html = self.env.get_template(name).render(context)
        return HTMLResponse(html, status_code=status_code, headers=HTML_HEADERS)
