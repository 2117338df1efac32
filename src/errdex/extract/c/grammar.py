"""The tree-sitter C and C++ grammars, their parsers, and the query the walk reads with."""

from __future__ import annotations

from functools import cache
from typing import Literal as Lit

import tree_sitter

__all__ = ["Dialect", "parser_for", "sites_query"]

Dialect = Lit["c", "cpp"]


@cache
def language(dialect: Dialect) -> tree_sitter.Language:
    if dialect == "c":
        import tree_sitter_c

        return tree_sitter.Language(tree_sitter_c.language())
    import tree_sitter_cpp

    return tree_sitter.Language(tree_sitter_cpp.language())


@cache
def parser_for(dialect: Dialect) -> tree_sitter.Parser:
    return tree_sitter.Parser(language(dialect))


@cache
def sites_query(dialect: Dialect) -> tree_sitter.Query:
    """The nodes the walk of a C++ file reads, found by tree-sitter itself (a Python walk
    over every node of a large file costs more than its parse; a C file's are found by
    name, :mod:`.find`, cheaper still)."""
    throw = " (throw_statement) @throw" if dialect == "cpp" else ""
    return tree_sitter.Query(
        language(dialect),
        "(call_expression) @call (preproc_def) @def (preproc_function_def) @macro" + throw,
    )
