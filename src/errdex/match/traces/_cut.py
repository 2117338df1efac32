"""Cutting a frame's path to the repository's own: the first of a runtime's layouts that
matches gives the rest of the path (its ``rest`` group)."""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["cut"]


def cut(path: str, layouts: Iterable[re.Pattern[str]]) -> str | None:
    """The path past the first layout of ``layouts`` found in it, or None."""
    for layout in layouts:
        m = layout.search(path)
        if m is not None:
            return m.group("rest")
    return None
