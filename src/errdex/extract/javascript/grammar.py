"""The tree-sitter grammars of JavaScript and TypeScript, and the one query that finds sites.

A file's language follows its suffix: ``.ts``/``.mts``/``.cts`` read with TypeScript's
grammar, ``.tsx`` with TSX's, everything else (``.js``, ``.mjs``, ``.cjs``, ``.jsx``)
with JavaScript's (which reads JSX). Parsers and the compiled query are made once per
process: building a query costs more than parsing a small file.
"""

from __future__ import annotations

from functools import cache

import tree_sitter
import tree_sitter_javascript
import tree_sitter_typescript

__all__ = ["SITE_QUERY", "dialect_of", "language", "parser", "site_query"]

_TS_SUFFIXES = (".ts", ".mts", ".cts")

#: Candidate sites, each pattern naming its capture; the Python side decides the rest.
#: The names a call is kept for are those of the idioms :mod:`.sites` reads.
SITE_QUERY = r"""
(throw_statement) @throw
((call_expression
   function: (member_expression
     object: (identifier) @_console
     property: (property_identifier) @_level)) @console
 (#eq? @_console "console")
 (#match? @_level "^(error|warn)$"))
((call_expression
   function: (identifier) @_fn) @call
 (#match? @_fn "^(reject|next|done|cb|callback|createError|createHttpError|httpErrors)$"))
((call_expression
   function: (member_expression property: (property_identifier) @_method)) @call
 (#match? @_method "^(reject|status|sendStatus|throw)$"))
"""


def dialect_of(file_path: str) -> str:
    """``typescript``, ``tsx`` or ``javascript``: the grammar a file is read with."""
    if file_path.endswith(".tsx"):
        return "tsx"
    if file_path.endswith(_TS_SUFFIXES):
        return "typescript"
    return "javascript"


@cache
def language(dialect: str) -> tree_sitter.Language:
    if dialect == "tsx":
        return tree_sitter.Language(tree_sitter_typescript.language_tsx())
    if dialect == "typescript":
        return tree_sitter.Language(tree_sitter_typescript.language_typescript())
    return tree_sitter.Language(tree_sitter_javascript.language())


@cache
def parser(dialect: str) -> tree_sitter.Parser:
    return tree_sitter.Parser(language(dialect))


@cache
def site_query(dialect: str) -> tree_sitter.Query:
    return tree_sitter.Query(language(dialect), SITE_QUERY)
