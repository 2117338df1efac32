"""A re-raise whose message holds the caught error's message: the wrapper is the site,
unless a site that wraps nothing fits the whole message as well (then the text cannot
tell them apart, and they share the answer)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from errdex.match import answers

from .conftest import build_package

ADDRESS = """\
class AddressError(ValueError):
    pass


def _octet(text):
    if not text.isdigit():
        raise ValueError("Only decimal digits permitted in %r" % text)
    return int(text)


def parse(address):
    try:
        return [_octet(part) for part in address.split(".")]
    except ValueError as exc:
        raise AddressError("%s in %r" % (exc, address)) from None
"""

PARSER = """\
class ParseError(Exception):
    pass


def fail(message, line):
    raise ParseError(f"{message} at line {line}")


def bad_key(key, line):
    raise ParseError(f'Invalid key "{key}" at line {line}')
"""

LOCK = """\
class LockError(Exception):
    pass


def get(value, expected, key):
    raise LockError(f"Unexpected type {type(value).__name__} (expected {expected}) in {key!r}")


def get_as(value, convert):
    try:
        return convert(value)
    except Exception as e:
        raise LockError(f"{e} in 'lock-version'") from e
"""


def _line(code: str, needle: str) -> int:
    return next(n for n, text in enumerate(code.splitlines(), 1) if needle in text)


def test_the_wrapper_of_another_message_is_the_site(tmp_path: Path) -> None:
    db = build_package(tmp_path, "addr", {"core.py": ADDRESS})
    paste = "addr.core.AddressError: Only decimal digits permitted in '04a' in '1.2.3.04a'"
    (answer,) = answers(paste, db=db, top=5)
    best = answer.candidates[0]
    assert best.lineNumber == _line(ADDRESS, "raise AddressError")
    assert any("wraps that error" in r for r in best.reasons)


def test_a_wrapper_fixing_no_more_than_the_direct_site_is_no_rival(tmp_path: Path) -> None:
    db = build_package(tmp_path, "toml", {"core.py": PARSER})
    (answer,) = answers('toml.core.ParseError: Invalid key "a b" at line 3', db=db, top=5)
    assert answer.candidates[0].lineNumber == _line(PARSER, "Invalid key")
    assert answer.candidates[0].group is None  # alone: the wrapper is a looser fit


def test_a_wrapper_and_a_direct_site_both_fitting_share_the_answer(tmp_path: Path) -> None:
    db = build_package(tmp_path, "lock", {"core.py": LOCK})
    paste = "lock.core.LockError: Unexpected type float (expected str) in 'lock-version'"
    (answer,) = answers(paste, db=db, top=5)
    lines = {c.lineNumber for c in answer.group}
    assert lines == {_line(LOCK, "Unexpected type"), _line(LOCK, "in 'lock-version'")}
    assert all(c.confidence < 0.9 for c in answer.candidates)


def test_an_inner_pattern_is_tried_only_where_it_could_fix_more() -> None:
    """A hole value's candidates verified by RE2 (typed holes) are bounded by the
    characters their pattern fixes (what verify counts), not by the value's length: one
    that cannot fix more than the best so far is not matched, and the answer stays."""
    from errdex.match.index import MatchIndex
    from errdex.match.rank_nested import _inner_fit
    from errdex.match.rank_verify import verify
    from errdex.template import Hole, Literal, MessageTemplate

    from .conftest import pattern_envelope

    def kinded(i: int, *parts: str) -> dict[str, Any]:
        template = MessageTemplate(
            [
                Hole("{n}", "n", kind="int")
                if p == "#"
                else Hole("{e}", "e")
                if p == "*"
                else Literal(p)
                for p in parts
            ]
        )
        envelope = pattern_envelope(i, template.pattern)
        envelope["evidence"]["site"]["template"] = template.to_json()
        return envelope

    index = MatchIndex.build(
        [
            kinded(0, "unknown escape ", "*", " at position ", "#"),  # 28 characters fixed
            kinded(1, "*", " escape ", "*", " at position ", "#"),  # 21: cannot beat it
            kinded(2, "*", " at position ", "#"),  # 13
        ]
    )
    tried: list[int] = []

    def counting(index: MatchIndex, entry: int, text: str) -> tuple[bool, list[str], int]:
        tried.append(entry)
        return verify(index, entry, text)

    assert _inner_fit(index, "unknown escape d at position 7", counting) == (28, 0)
    assert tried == [0]  # main tried all three, each bounded by the value's 30 characters
