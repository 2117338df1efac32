"""The conversion sentence says what the evidence holds and nothing without it."""

from __future__ import annotations

from errdex.analyze.conversion_prose import conversion_sentence


def test_context_and_cause_are_told_apart() -> None:
    context = {
        "line": 490,
        "handlerLine": 488,
        "class": "InvalidFileException",
        "message": "Invalid file",
        "link": "context",
        "function": "plistlib._BinaryPlistParser.parse",
        "where": "caller",
    }
    text = conversion_sentence(context, "plistlib")
    assert text is not None
    assert text.startswith(
        "Its only caller errdex resolved (it is private), `_BinaryPlistParser.parse`, catches"
        " it at line 488 and raises `InvalidFileException('Invalid file')` instead while"
        " handling it (line 490): a traceback shows this one only as the context of that one"
    )
    cause = {**context, "link": "cause", "message": None, "where": "here"}
    text = conversion_sentence(cause, "plistlib")
    assert text is not None
    assert text.startswith(
        "`_BinaryPlistParser.parse` catches it at line 488 and raises"
        " `InvalidFileException()` from it instead (line 490)"
    )
    assert "only as the cause of that one" in text


def test_nothing_is_said_without_evidence() -> None:
    assert conversion_sentence(None, "m") is None
    assert conversion_sentence({"line": 3, "class": None, "link": "cause"}, "m") is None
