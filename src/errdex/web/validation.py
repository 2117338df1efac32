"""What a 422 says: which field and why, never the whole input sent back.

FastAPI's default answer echoes each failing ``input`` in full (a 64 KiB paste comes
back whole) and cannot encode some of them at all: a lone surrogate (``"\\ud800"``)
is not UTF-8 and ``1e400`` is not finite JSON, so those requests were answered 500.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["MAX_SHOWN", "clean_text", "validation_detail", "validation_text"]

#: Longest piece of a request a 422 repeats (a field name, a short value).
MAX_SHOWN = 80


def clean_text(text: str, limit: int = MAX_SHOWN) -> str:
    """``text`` cut to ``limit`` characters (marked), lone surrogates as ``\\udXXX`` escapes."""
    shown = text if len(text) <= limit else text[:limit] + "…"
    return shown.encode("utf-8", "backslashreplace").decode("utf-8")


def _shown(value: Any) -> Any:
    """A short scalar as given, else None: numbers that JSON can hold, text cut short."""
    if isinstance(value, bool) or value is None or isinstance(value, int):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, str):
        return clean_text(value)
    return None


def validation_detail(errors: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The errors as JSON-safe ``{"type", "loc", "msg"}`` (and a short ``input``)."""
    detail = []
    for error in errors:
        item: dict[str, Any] = {
            "type": str(error.get("type", "")),
            "loc": [p if isinstance(p, int) else clean_text(str(p)) for p in error.get("loc", ())],
            "msg": clean_text(str(error.get("msg", "")), 500),
        }
        shown = _shown(error.get("input"))
        if shown is not None:
            item["input"] = shown
        detail.append(item)
    return detail


def validation_text(errors: Iterable[Mapping[str, Any]]) -> str:
    """The same for a page: ``body.top: Input should be ...; ...``."""
    return "; ".join(
        f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in validation_detail(errors)
    )
