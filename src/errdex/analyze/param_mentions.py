"""Whether a docstring sentence names a parameter, not merely uses the same word.

"Pass a string" is no mention of a parameter ``a``, nor "the value must be positive" of
``value`` (re-read of session 37's merged prose: ``stated_fixes`` matched parameter
names against every word). A parameter counts as named where the sentence quotes it as
code (backquotes, quotes, ``*emphasis*``), or writes it in a form no ordinary word takes:
not a single letter, an English stop-word or one of the generic nouns a sentence uses
anyway (``value``, ``name``, ``data``); ``index`` in "The index must be in the same
statement" still names ``HyperParser.set_index``'s parameter.
"""

from __future__ import annotations

import re
from collections.abc import Collection

__all__ = ["names_param"]

#: Words a sentence uses on its own account: a parameter spelt so is named only quoted.
ORDINARY = frozenset(
    {
        "a",
        "about",
        "after",
        "all",
        "also",
        "an",
        "and",
        "any",
        "are",
        "args",
        "as",
        "at",
        "be",
        "been",
        "before",
        "between",
        "bool",
        "but",
        "by",
        "bytes",
        "can",
        "could",
        "data",
        "default",
        "dict",
        "did",
        "do",
        "does",
        "each",
        "every",
        "false",
        "first",
        "flag",
        "flags",
        "float",
        "for",
        "from",
        "had",
        "has",
        "have",
        "if",
        "in",
        "int",
        "into",
        "is",
        "it",
        "item",
        "items",
        "its",
        "key",
        "keys",
        "kwargs",
        "last",
        "least",
        "less",
        "list",
        "many",
        "may",
        "more",
        "most",
        "much",
        "must",
        "name",
        "names",
        "new",
        "no",
        "none",
        "nor",
        "not",
        "obj",
        "object",
        "objects",
        "of",
        "old",
        "on",
        "one",
        "only",
        "onto",
        "option",
        "options",
        "or",
        "other",
        "over",
        "own",
        "result",
        "results",
        "same",
        "set",
        "shall",
        "should",
        "so",
        "some",
        "str",
        "string",
        "strings",
        "such",
        "text",
        "than",
        "that",
        "the",
        "then",
        "these",
        "this",
        "those",
        "to",
        "true",
        "tuple",
        "two",
        "type",
        "types",
        "under",
        "value",
        "values",
        "was",
        "were",
        "will",
        "with",
        "would",
    }
)


def names_param(text: str, params: Collection[str]) -> bool:
    """Whether ``text`` names one of ``params``: quoted as code anywhere, or written
    plainly where the name is no single letter and no ordinary word."""
    for param in params:
        if not param:
            continue
        quoted = rf"(?:``|[`'\"*]){re.escape(param)}(?:``|[`'\"*])"
        if re.search(quoted, text):
            return True
        plain = rf"(?<![\w.]){re.escape(param)}(?!\w)"
        if (
            len(param) > 1
            and param.lower() not in ORDINARY
            and re.search(plain, text, re.IGNORECASE)
        ):
            return True
    return False
