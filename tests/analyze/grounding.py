"""The "nothing invented" check: every identifier the static analyst writes is in its evidence.

Identifiers are the words inside backticks and dotted names anywhere. Each must occur
in the record's evidence, its source window, its path or its message. Code fields are
checked too, after removing the few fixed idioms the field writer itself uses
(``warnings.catch_warnings``, ``str(exc)``, the ``obj`` placeholder for an instance).
"""

from __future__ import annotations

import json
import keyword
import re
from typing import Any

__all__ = ["ungrounded"]

PROSE = ("documentation", "triggerScenarios", "commonSituations", "solutions", "preventionTips")
CODE = ("validationCode", "typeGuard", "tryCatchPattern", "exampleFix")

_BACKTICKED = re.compile(r"`([^`]+)`")
_DOTTED = re.compile(r"(?<![\w.])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_WORD = re.compile(r"[A-Za-z_]\w*")
_IDIOMS = re.compile(
    r"warnings\.(catch_warnings|simplefilter)|\bw\.(message|category)|\bobj\.|str\(exc\)|"
    r"\bimport warnings\b"
)
_SKIP = frozenset(keyword.kwlist) | {"None", "True", "False"}


def _texts(record: dict[str, Any], keys: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for key in keys:
        value = record.get(key)
        if isinstance(value, str):
            out.append(value)
        elif isinstance(value, list):
            out.extend(v for v in value if isinstance(v, str))
    return out


def ungrounded(record: dict[str, Any], evidence: dict[str, Any]) -> list[str]:
    """Identifiers in the generated fields that the evidence does not contain."""
    corpus = "\n".join(
        [
            json.dumps(evidence, ensure_ascii=False),
            str(record.get("sourceCode", "")),
            str(record.get("filePath", "")),
            str(record.get("errorMessage", "")),
        ]
    )
    missing: list[str] = []
    for text in _texts(record, PROSE):
        for span in _BACKTICKED.findall(text):
            for word in _WORD.findall(span):
                if word not in _SKIP and word not in corpus:
                    missing.append(word)
        for name in _DOTTED.findall(_BACKTICKED.sub(" ", text)):
            if name not in corpus:
                missing.append(name)
    for text in _texts(record, CODE):
        stripped = _IDIOMS.sub(" ", text)
        for name in _DOTTED.findall(stripped):
            if name not in corpus:
                missing.append(name)
    return missing
