"""Functions that are a program's command line, not a library call: they read
``sys.argv``, parse it, or end the process.

``ftplib.test()`` is public and reaches ``netrc``'s errors, but called from code with no
host in ``sys.argv`` it prints its usage and calls ``sys.exit(0)``: a handler written
around that call never runs (blind review 2026-12-04, record 27). Code fields are not
built around such a call (:mod:`errdex.analyze.code_fields`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping

from .facts import CallRef

__all__ = ["command_line", "main_block"]

#: Calls that end the process (``exit``/``quit`` are the builtins ``site`` adds).
_EXITS = frozenset({"sys.exit", "os._exit", "exit", "quit", "SystemExit"})
#: Calls that read the command line when given no list of arguments.
_PARSERS = frozenset(
    {"parse_args", "parse_known_args", "parse_intermixed_args", "parse_known_intermixed_args"}
)
_GETOPT = frozenset({"getopt.getopt", "getopt.gnu_getopt"})


def main_block(test: ast.expr) -> bool:
    """``if __name__ == "__main__":`` (either way round): what the block defines exists
    only when the file runs as a program. ``imaplib`` defines ``run(cmd, args)`` there,
    which the block's own ``getopt`` call makes a command line; no import can reach it."""
    if not (
        isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)
    ):
        return False
    sides = (test.left, test.comparators[0])
    named = any(isinstance(x, ast.Name) and x.id == "__name__" for x in sides)
    return named and any(isinstance(x, ast.Constant) and x.value == "__main__" for x in sides)


def _resolved(ref: CallRef, imports: Mapping[str, str]) -> str:
    """``("_sys", "exit")`` with ``import sys as _sys`` -> ``"sys.exit"``."""
    head = imports.get(ref[0], ref[0])
    return ".".join((head, *ref[1:]))


def command_line(
    calls: Iterable[CallRef],
    argv: Iterable[tuple[CallRef, bool]],
    imports: Mapping[str, str],
    *,
    takes_arguments: bool,
) -> str | None:
    """What makes a function a command-line main, in words, or None: it reads
    ``sys.argv`` and takes no argument of its own (``takes_arguments``: ``self`` aside),
    calls a parser's ``parse_args`` or ``getopt`` (on another object than ``self``:
    ``ArgumentParser``'s own methods are the library), or ends the process. ``argv``
    are the dotted ``….argv`` names it uses, and whether it assigns to them: one that
    assigns ``sys.argv`` runs another program with it (``distutils``' ``run_setup``,
    pdb's ``do_run``); one with arguments reads it as their default (``FileInput(files=
    None)``, ``cgi.parse``). ``imports`` maps the names the function sees to what they
    import (its own imports over its module's)."""
    uses = [(ref, written) for ref, written in argv if _resolved(ref, imports) == "sys.argv"]
    if uses and not takes_arguments and not any(written for _, written in uses):
        return "reads sys.argv"
    for ref in calls:
        name = _resolved(ref, imports)
        if name in _EXITS:
            return f"calls {name}"
        if name in _GETOPT or (len(ref) > 1 and ref[-1] in _PARSERS and ref[0] != "self"):
            return "parses the command line"
    return None
