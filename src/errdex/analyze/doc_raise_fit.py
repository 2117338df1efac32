"""Whether a docstring's sentence of when a function raises is about this raise.

``Reader.load``'s "Raises ValueError if the document is empty" is about the raise in
``_parse``, which ``load`` calls, not its own "I/O operation on closed reader"; and
"this never raises ValueError when the reader is closed" says when it does not (read-only
review, session 38). A sentence is kept for a raise when its condition's words meet the
raise's message or guards, or when the function raises the class only there and calls
nothing that raises it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

__all__ = ["meets", "negated"]

#: A raise the sentence denies: "never raises", "does not raise", "is not raised".
_DENIED = re.compile(
    r"\b(?:never|not|no\s+longer|cannot)\s+(?:\w+\s+)?(?:be\s+)?(?:rais|throw|warn)"
    r"|n't\s+(?:\w+\s+)?(?:be\s+)?(?:rais|throw|warn)",
    re.IGNORECASE,
)
#: Where the condition starts.
_WHEN = re.compile(r"\b(?:if|when|whenever|unless)\b", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z]{3,}")
_COMMON = frozenset(
    [
        "the",
        "and",
        "are",
        "for",
        "not",
        "this",
        "that",
        "its",
        "with",
        "has",
        "have",
        "was",
        "were",
        "been",
        "any",
        "all",
        "can",
        "may",
        "one",
        "from",
        "into",
        "than",
        "then",
        "there",
        "their",
        "more",
        "less",
        "such",
        "also",
        "only",
        "does",
        "raise",
        "raises",
        "raised",
        "error",
        "exception",
        "value",
        "given",
        "when",
        "unless",
    ]
)


def negated(sentence: str) -> bool:
    """The sentence says the function does not raise (under its condition)."""
    return bool(_DENIED.search(sentence))


def _stems(text: str) -> set[str]:
    out: set[str] = set()
    for part in re.split(r"_+|(?<=[a-z])(?=[A-Z])", text):
        for word in _WORD.findall(part):
            word = word.lower()
            if word not in _COMMON:  # "types" meets "type"
                out.add((word[:-1] if len(word) > 3 and word.endswith("s") else word)[:5])
    return out


def meets(sentence: str, texts: Iterable[str]) -> bool:
    """Whether the words after the sentence's "if"/"when" share a word's stem with the
    raise's message or guard texts (``self._closed`` meets "if the reader is closed")."""
    found = _WHEN.search(sentence)
    if found is None:
        return False
    condition = _stems(sentence[found.end() :])
    return any(condition & _stems(t) for t in texts)
