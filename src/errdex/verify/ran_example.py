"""The call a verified reproducer ran, said first in commonSituations.

A reproducer errdex built from a guard or a state (not cut whole from a test) is the most
concrete situation a record has: a call that ran and raised at the site. Blind reviewers
kept finding "the situation is not named" where the record held exactly that run, only
under "Reproduce it". So the one statement of the snippet the traceback shows as the
caller (its ``<reproducer>`` frame) opens commonSituations, when it is a short top-level
statement that names nothing private; anything longer stays in "Reproduce it" alone.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from .from_tests import Candidate
from .sandbox import RunResult

__all__ = ["MAX_CALL", "ran_call", "say_the_run"]

#: The longest statement quoted in the prose; a longer one is left to "Reproduce it".
MAX_CALL = 100
_FILE = "<reproducer>"
_SIMPLE = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign)
# the sentence as :func:`say_the_run` writes it (a second verify replaces its own)
_SAID = re.compile(
    r"For example, `[^`\n]+` (?:raises|gives) (?:it|this warning) \(errdex ran it\)\. ?"
)


def _private(tree: ast.AST) -> bool:
    """Whether the statement names a private (underscored) name, attribute or keyword."""
    for node in ast.walk(tree):
        name = (
            node.id
            if isinstance(node, ast.Name)
            else node.attr
            if isinstance(node, ast.Attribute)
            else node.arg
            if isinstance(node, ast.keyword)
            else None
        )
        if name and name.startswith("_"):
            return True
    return False


def ran_call(program: str, result: RunResult) -> str | None:
    """The snippet's statement on the line of its innermost ``<reproducer>`` frame, as the
    traceback prints it, when it is one short top-level statement with a call and no
    private name; else None."""
    lines = [line for file, line in result.frames if file == _FILE]
    if not lines:
        return None
    source = program.splitlines()
    if not 0 < lines[-1] <= len(source):
        return None
    text = source[lines[-1] - 1]
    if text[:1].isspace() or len(text.strip()) > MAX_CALL:
        return None  # inside a block the snippet defines, or too long to quote
    text = text.strip()
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None  # one line of a statement that spans several
    if len(tree.body) != 1 or not isinstance(tree.body[0], _SIMPLE) or "`" in text:
        return None
    if not any(isinstance(node, ast.Call) for node in ast.walk(tree)) or _private(tree):
        return None
    return text


def say_the_run(record: dict[str, Any], cand: Candidate | None, result: RunResult | None) -> None:
    """Open ``record``'s commonSituations with the call ``cand`` ran (a built candidate's),
    replacing the sentence an earlier verify wrote; without one, only remove that."""
    common = record.get("commonSituations")
    if not isinstance(common, str):
        return
    rest = _SAID.sub("", common, count=1)
    call = None
    if cand is not None and result is not None and cand.kind == "guard" and not cand.blocked:
        call = ran_call(cand.program, result)
    if call is None:
        if rest != common and rest:
            record["commonSituations"] = rest
        return
    said = "gives this warning" if cand is not None and cand.warns else "raises it"
    record["commonSituations"] = f"For example, `{call}` {said} (errdex ran it). {rest}".strip()
