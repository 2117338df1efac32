"""Linear-time regexes for the analyst: RE2, safe on any text a literal can hold.

The analyst searches message literals and docstrings, whose size the repository
chooses: a backtracking pattern such as ``\\bshapes?\\b.*\\bmatch`` costs quadratic time
on a 100 kB literal of repeated words. RE2 runs in time linear in the text, whatever
the pattern. It reads UTF-8, so lone surrogates (a literal may hold ``"\\ud800"``) are
replaced by U+FFFD first: one code point for one, so positions stay those of the text.
"""

from __future__ import annotations

import re

import re2

__all__ = ["LinearRegex", "without_surrogates"]

_SURROGATE = re.compile("[\ud800-\udfff]")


def without_surrogates(text: str) -> str:
    """``text`` with each surrogate code point replaced by U+FFFD (same length)."""
    return _SURROGATE.sub("\ufffd", text) if _SURROGATE.search(text) else text


class LinearRegex:
    """The few ``re.Pattern`` methods the analyst uses, run by RE2.

    RE2 has no look-around and no back-references; ``\\b``, ``\\w`` and ``\\s`` are
    ASCII. Patterns that need more must be rewritten, not run by ``re``.
    """

    __slots__ = ("_regex", "pattern")

    def __init__(self, pattern: str, *, ignore_case: bool = False) -> None:
        self.pattern = pattern
        options = re2.Options()
        options.case_sensitive = not ignore_case
        self._regex = re2.compile(pattern, options)

    def search(self, text: str) -> re2._Match[str] | None:
        return self._regex.search(without_surrogates(text))

    def match(self, text: str) -> re2._Match[str] | None:
        return self._regex.match(without_surrogates(text))

    def split(self, text: str) -> list[str]:
        return list(self._regex.split(without_surrogates(text)))
