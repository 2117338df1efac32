"""The web front: server-rendered pages and a JSON API over one errdex SQLite file.

``create_app(db)`` builds the FastAPI app; ``errdex serve`` (``commands.serve``) runs it.
The app is imported on first use, so loading the ``serve`` command stays cheap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from errdex.web.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from errdex.web.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
