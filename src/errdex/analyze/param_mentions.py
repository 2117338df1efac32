"""Whether a docstring sentence names a parameter, not merely uses the same word.

"Pass a string" is no mention of a parameter ``a``, nor "the value must be positive" of
``value`` (re-read of session 37's merged prose: ``stated_fixes`` matched parameter
names against every word). A parameter counts as named where the sentence quotes it as
code (backquotes, quotes, ``*emphasis*``), or writes it in a form no ordinary word takes:
not a single letter, an English stop-word or a common noun a sentence uses anyway.
"""

from __future__ import annotations

import re
from collections.abc import Collection

__all__ = ["names_param"]

#: Words a sentence uses on its own account: a parameter spelt so is named only quoted.
ORDINARY = frozenset(
    {
        *[
            "a",
            "an",
            "the",
            "and",
            "or",
            "not",
            "no",
            "nor",
            "but",
            "if",
            "of",
            "to",
            "in",
            "on",
            "at",
            "by",
            "for",
            "from",
            "with",
            "as",
            "is",
            "are",
            "be",
            "was",
            "were",
            "been",
            "it",
            "its",
            "this",
            "that",
            "these",
            "those",
            "any",
            "all",
            "each",
            "every",
            "some",
            "such",
            "other",
            "than",
            "then",
            "so",
            "do",
            "does",
            "did",
            "has",
            "have",
            "had",
            "may",
            "can",
            "must",
            "will",
            "shall",
            "should",
            "would",
            "could",
            "into",
            "onto",
            "over",
            "under",
            "about",
            "after",
            "before",
            "between",
            "only",
            "also",
            "one",
            "two",
            "first",
            "last",
            "new",
            "old",
            "same",
            "more",
            "most",
            "less",
            "least",
            "many",
            "much",
            "own",
        ],
        *[
            "value",
            "values",
            "name",
            "names",
            "key",
            "keys",
            "data",
            "text",
            "string",
            "strings",
            "type",
            "types",
            "object",
            "objects",
            "path",
            "paths",
            "file",
            "files",
            "mode",
            "size",
            "length",
            "number",
            "count",
            "index",
            "item",
            "items",
            "default",
            "level",
            "format",
            "kind",
            "source",
            "target",
            "result",
            "results",
            "obj",
            "args",
            "kwargs",
            "options",
            "option",
            "flag",
            "flags",
            "list",
            "dict",
            "set",
            "tuple",
            "bytes",
            "int",
            "float",
            "bool",
            "str",
            "none",
            "true",
            "false",
            "start",
            "end",
            "stop",
            "step",
            "line",
            "lines",
            "char",
            "chars",
            "word",
            "words",
            "field",
            "fields",
            "node",
            "nodes",
            "func",
            "function",
            "callback",
            "method",
            "class",
            "instance",
            "message",
            "msg",
            "error",
            "errors",
        ],
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
