"""A record whose handlingStrategy is "validation" because the raise tests the caller's
argument or the object's state, with no validationCode: its provenance says why no code
is given, and where the message states what must hold, a tip says it (issue 10: such
records showed a strategy with nothing behind it)."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import one_file_items

SOCKETS = """\
_STREAM = 1  # private: a caller cannot name it (a public one is the module's constant)


def pair(kind):
    if kind != _STREAM:
        raise ValueError("Only STREAM socket type is supported")
    return kind


class Tasks:
    def __init__(self):
        self._left = 0

    def done(self):
        if self._left <= 0:
            raise ValueError("done() called too many times")
        self._left -= 1
"""


def test_a_wrong_call_without_code_says_why_and_what_to_check(tmp_path: Path) -> None:
    found = {r["lineNumber"]: (r, e) for r, e in one_file_items(tmp_path, "sockets.py", SOCKETS)}
    record, evidence = found[6]
    assert record["handlingStrategy"] == "validation"
    assert record["validationCode"] is None
    assert record["preventionTips"] == [
        "Check what the message requires before calling `pair()`:"
        " “Only STREAM socket type is supported”."
    ]
    basis = evidence["provenance"]["handlingStrategy"]["basis"]
    assert (
        "no validationCode: the condition reads `_STREAM`, not a parameter the caller passes"
        in basis
    )
    assert "what to check: preventionTips" in basis

    record, evidence = found[16]
    assert record["handlingStrategy"] == "validation"
    assert record["preventionTips"] == []  # the message says what went wrong, not what to do
    basis = evidence["provenance"]["handlingStrategy"]["basis"]
    assert any(
        b.startswith("no validationCode: the condition tests the object's state") for b in basis
    )


ARCHIVE = """\
class Archive:
    def __init__(self):
        self._writing = False

    def read(self, name):
        if self._writing:
            raise ValueError("Close the writing handle before trying to read")
        return name


def limit(n):
    if n > TOP:
        raise ValueError("n must be at most %d" % TOP)
    return n


TOP = 9
"""


def test_a_method_is_named_with_its_class_and_a_partial_requirement_is_no_tip(
    tmp_path: Path,
) -> None:
    items = one_file_items(tmp_path, "archive.py", ARCHIVE)
    found = {r["lineNumber"]: r for r, _ in items}
    assert found[7]["preventionTips"] == [
        "Before calling `Archive.read()`, do what the message says:"
        " “Close the writing handle before trying to read”."
    ]
    # "n must be at most {…}": the bound is the value the message prints, not said here
    assert found[13]["handlingStrategy"] == "validation"
    assert not any("message requires" in t for t in found[13]["preventionTips"])
