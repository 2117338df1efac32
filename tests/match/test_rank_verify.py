"""RE2 verification (:mod:`errdex.match.rank_verify`): a non-match told on the message's
bytes encoded once gives what the wrapper's ``fullmatch`` gives, text groups included."""

from __future__ import annotations

import re2

from errdex.match import rank_verify

PATTERNS = [r"bad escape (.*?) at position (\d+)", r"é(.+)ü", r"(?s)(.*)\n(.*)", r"[^a]+"]
MESSAGES = [
    "bad escape \\q at position 3",
    "bad escape \\q at position x",
    "é日本ü",
    "éü",
    "line\nnext",
    "bbb",
    "abba",
    "",
]


def test_fullmatch_is_the_wrappers_on_matches_and_non_matches() -> None:
    assert rank_verify._BOTH is not None  # the fast path is taken with this pyre2
    for pattern in PATTERNS:
        compiled = re2.compile(pattern)
        for message in MESSAGES * 2:  # the second time from the bytes kept
            got, want = rank_verify._fullmatch(compiled, message), compiled.fullmatch(message)
            assert (got is None) == (want is None), (pattern, message)
            if want is not None:
                assert got.groups() == want.groups() and got.span() == want.span()
    assert rank_verify._last[0] == MESSAGES[-1]
