"""The sentence that says a site's error is turned into another before a caller sees it.

Written only from ``evidence.conversion`` (:mod:`.conversions`), which is there only
where the conversion is certain: "`urlencode` catches it at line 968 and raises
`TypeError('not a valid non-string sequence or mapping object')` from it instead (line
969): a traceback shows this one only as the cause of that one, which is what the
caller gets and catches."
"""

from __future__ import annotations

from typing import Any

from .guards import code

__all__ = ["conversion_sentence"]


def _short(qualname: str, module: str) -> str:
    return qualname[len(module) + 1 :] if qualname.startswith(module + ".") else qualname


def _raised(conversion: dict[str, Any]) -> str:
    cls = str(conversion.get("class") or "")
    message = conversion.get("message")
    return code(f"{cls}({message!r})" if message else f"{cls}()")


def conversion_sentence(conversion: dict[str, Any] | None, module: str) -> str | None:
    """The conversion in words; None when there is none (or it names no class)."""
    if not conversion or not conversion.get("class"):
        return None
    who = code(_short(str(conversion.get("function") or ""), module))
    at = conversion.get("handlerLine") or conversion["line"]
    cause = conversion.get("link") == "cause"
    how = "from it instead" if cause else "instead while handling it"
    link = (
        "only as the cause of that one (“The above exception was the direct cause of the"
        " following exception”)"
        if cause
        else "only as the context of that one (“During handling of the above exception,"
        " another exception occurred”)"
    )
    via = [code(_short(str(v), module)) for v in conversion.get("via") or ()]
    if conversion.get("where") == "caller" and via:
        who = (
            f"It is private, and every call of it errdex resolved goes through "
            f"{', '.join(via)} up to {who}, which"
        )
    elif conversion.get("where") == "caller":
        who = f"Its only caller errdex resolved (it is private), {who},"
    cls = code(str(conversion["class"]))
    return (
        f"{who} catches it at line {at} and raises {_raised(conversion)} {how} (line "
        f"{conversion['line']}): a traceback shows this one {link}, and the caller gets "
        f"that {cls}, so that is the class to catch."
    )
