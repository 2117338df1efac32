"""The record's code fields made into programs that run against a verified reproducer.

- ``tryCatchPattern``: the reproducer's setup goes before the ``try``, its last statement
  becomes the ``try`` body (or the ``with warnings.catch_warnings`` body), and each handler
  starts by appending to ``__errdex_marks__``. It passes when nothing escapes and a handler
  ran. The code shown afterwards is that program without the mark lines: what ran.
- ``validationCode``/``typeGuard``: the reproducer runs, and the check's condition is
  evaluated in the frame that raised (the guard's own scope, on the failing input). True
  there is half of the claim; the other half needs a good input, which is not known, so
  such a check is reported as run but not verified.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from ._ast_names import bound_names, used_names

__all__ = ["MARK", "Spliced", "check_program", "condition_of", "splice_try"]

MARK = "__errdex_marks__"
_MARK_LINE = f'{MARK}.append("handled")'


@dataclass(frozen=True)
class Spliced:
    shown: str  # the pattern with the reproducer in place of its call
    program: str  # the same with the handler marks, as it runs


def _split(reproducer: str, raised_line: int | None) -> tuple[list[str], list[str]] | None:
    """(setup lines, the lines of the top-level statement that raised) of the reproducer;
    what follows that statement never ran and is left out."""
    try:
        tree = ast.parse(reproducer)
    except SyntaxError:
        return None
    if not tree.body:
        return None
    lines = reproducer.splitlines()
    chosen = tree.body[-1]
    if raised_line is not None:
        for stmt in tree.body:
            if stmt.lineno <= raised_line <= (stmt.end_lineno or stmt.lineno):
                chosen = stmt
                break
    first = min([chosen.lineno, *(d.lineno for d in getattr(chosen, "decorator_list", []))])
    return lines[: first - 1], lines[first - 1 : chosen.end_lineno or len(lines)]


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip())]


def splice_try(pattern: str, reproducer: str, raised_line: int | None = None) -> Spliced | None:
    """The pattern run on the reproducer's error (``raised_line``: the reproducer's line
    that raised), or None when the pattern has no place for it (no top-level ``try`` or
    ``with``)."""
    parts = _split(reproducer, raised_line)
    if parts is None:
        return None
    setup, call = parts
    try:
        tree = ast.parse(pattern)
    except SyntaxError:
        return None
    block = next((s for s in tree.body if isinstance(s, ast.Try | ast.With)), None)
    if block is None or not block.body:
        return None
    lines = pattern.splitlines()
    imports_end = max(
        (s.end_lineno or s.lineno for s in tree.body if isinstance(s, ast.Import | ast.ImportFrom)),
        default=0,
    )
    if isinstance(block, ast.Try):
        replace = (block.body[0].lineno, block.body[-1].end_lineno or block.body[-1].lineno)
        mark_at = [h.body[0].lineno for h in block.handlers if h.body]
    else:
        last = block.body[-1]
        replace = (last.lineno, last.end_lineno or last.lineno)
        after = tree.body[tree.body.index(block) + 1 :]
        mark_at = [s.body[0].lineno for s in after[:1] if isinstance(s, ast.If) and s.body]
    if not mark_at:
        return None
    body_indent = _indent(lines[replace[0] - 1])

    def assemble(skip: set[int]) -> tuple[list[str], list[str]]:
        future = [s for s in setup if s.startswith("from __future__")]
        shown: list[str] = list(future)  # a future import must come first
        marked: list[str] = list(future)
        for number, line in enumerate(lines, start=1):
            if number == imports_end + 1 or (imports_end == 0 and number == 1):
                extra = [s for s in setup if s.strip() and s not in future]
                shown += extra
                marked += extra
            if replace[0] <= number <= replace[1]:
                if number == replace[0]:
                    moved = [body_indent + c for c in call]
                    shown += moved
                    marked += moved
                continue
            if number in skip:
                continue
            if number in mark_at:
                marked.append(_indent(line) + _MARK_LINE)
            shown.append(line)
            marked.append(line)
        return shown, marked

    first, _ = assemble(set())
    shown, marked = assemble(_unused_imports(tree, "\n".join(first), setup))
    future = [line for line in marked if line.startswith("from __future__")]
    rest = [line for line in marked if line not in future]
    program = "\n".join([*future, f"{MARK} = []", *rest])
    return Spliced("\n".join(shown).strip("\n"), program)


def _unused_imports(tree: ast.Module, shown: str, setup: list[str]) -> set[int]:
    """The pattern's own one-line imports that the spliced program no longer needs: the
    names are unused now, or the reproducer's setup imports them already."""
    try:
        used = used_names([ast.parse(shown)])
        given = set().union(*(bound_names(s) for s in ast.parse("\n".join(setup)).body))
    except SyntaxError:
        return set()
    drop: set[int] = set()
    for stmt in tree.body:
        if isinstance(stmt, ast.Import | ast.ImportFrom) and stmt.lineno == stmt.end_lineno:
            names = bound_names(stmt)
            if not (names & used) or names <= given:
                drop.add(stmt.lineno)
    return drop


def condition_of(check: str) -> str | None:
    """The condition of the check's first top-level ``if``."""
    try:
        tree = ast.parse(check)
    except SyntaxError:
        return None
    node = next((s for s in tree.body if isinstance(s, ast.If)), None)
    return ast.unparse(node.test) if node is not None else None


def check_program(reproducer: str, condition: str) -> str:
    """Run the reproducer, then evaluate ``condition`` in the frame that raised."""
    return "\n".join(
        [
            f"{MARK} = []",
            "import sys as _errdex_sys",
            "try:",
            f"    exec(compile({reproducer!r}, '<reproducer>', 'exec'), {{'__name__': '__main__'}})",
            "except BaseException as _errdex_exc:",
            "    _errdex_tb = _errdex_exc.__traceback__",
            "    while _errdex_tb.tb_next is not None:",
            "        _errdex_tb = _errdex_tb.tb_next",
            "    _errdex_frame = _errdex_tb.tb_frame",
            "    _errdex_value = eval("
            f"{condition!r}, _errdex_frame.f_globals, dict(_errdex_frame.f_locals))",
            f"    {MARK}.append('true' if _errdex_value else 'false')",
            "else:",
            f"    {MARK}.append('no error')",
        ]
    )
