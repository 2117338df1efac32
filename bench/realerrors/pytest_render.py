"""A collected error's CPython traceback rendered as pytest prints a failing test.

People paste pytest's report more often than a bare traceback. The collector keeps the
CPython text only (``traceback.format_exception`` of the live error); this renders it the
way pytest 9 prints the same failure, checked against real runs of failing calls
(``tests/test_realerrors_pytest_render.py`` keeps one such run and compares):

- ``long`` (``--tb=long``, the default ``auto`` for a single failure): each entry is the
  function's source from its first line to the end of the failing statement, the failing
  line marked ``>``, CPython's carets shifted under it, the last entry followed by the
  ``E`` block, then ``path:line: Class`` (``path:line: `` for the others); entries are
  separated by ``_ _ _`` rules, and the arguments of a function with any are listed
  above its source (their values are not known here: each is ``<…>``);
- ``short``: ``path:line: in function``, the line, its carets, then the ``E`` block;
- ``native``: the CPython text, with the frames of pytest's own runner above the test's;
- ``line``: the ``E`` block alone (``E   Class: message``, each further line ``E   …``),
  what is copied from a report most often (an exception group has none: its CPython text).

Chained errors keep CPython's separators between their parts in ``long`` and ``short``, as
pytest prints them; an exception group is printed as CPython prints it in every style (as
pytest 9 does; its summary line names the group here, where pytest names a single
sub-exception by its ``repr``). Paths are relative to the directory the suite ran from (pytest's
``bestrelpath``: ``tests/test_x.py``, ``../venv/lib/…``). ``long`` and ``short`` end with the
``short test summary info`` line, cut to 80 columns as pytest cuts it.
"""

from __future__ import annotations

import ast
import os
import re
import textwrap
from dataclasses import dataclass
from functools import lru_cache

FORMATS = ("long", "short", "native", "line")
GROUP = "+ Exception Group Traceback (most recent call last):"
GROUP_LINE = re.compile(r" *\| (?:\w+\.)*\w*ExceptionGroup: ")
WIDTH = 80
FRAME = re.compile(r'  File "(?P<path>[^"]+)", line (?P<line>\d+), in (?P<func>.+)$')
CHAIN = re.compile(
    r"\n(The above exception was the direct cause of the following exception:"
    r"|During handling of the above exception, another exception occurred:)\n\n"
)
#: pytest's own frames above the test function in a ``--tb=native`` report (pytest 9.2.0,
#: pluggy 1.6, as a real run printed them; ``{site}`` is the virtualenv's site-packages)
RUNNER_FRAMES = (
    ("_pytest/runner.py", 361, "from_call", "result: TResult | None = func()"),
    ("_pytest/runner.py", 250, "<lambda>", "lambda: runtest_hook(item=item, **kwds),"),
    ("pluggy/_caller.py", 197, "__call__", "return self._hookexec("),
    (
        "pluggy/_manager.py",
        183,
        "_hookexec",
        "return self._inner_hookexec(hook_name, methods, kwargs, firstresult)",
    ),
    ("pluggy/_execution.py", 195, "_multicall", "raise exception"),
    ("pluggy/_execution.py", 167, "_multicall", "teardown.throw(exception)"),
    ("_pytest/logging.py", 878, "pytest_runtest_call", "yield"),
    ("pluggy/_execution.py", 167, "_multicall", "teardown.throw(exception)"),
    ("_pytest/capture.py", 906, "pytest_runtest_call", "return (yield)"),
    ("pluggy/_execution.py", 167, "_multicall", "teardown.throw(exception)"),
    ("_pytest/skipping.py", 268, "pytest_runtest_call", "return (yield)"),
    ("pluggy/_execution.py", 147, "_multicall", "res = hook_impl.function(*args)"),
    ("_pytest/runner.py", 184, "pytest_runtest_call", "item.runtest()"),
    ("_pytest/python.py", 1798, "runtest", "self.ihook.pytest_pyfunc_call(pyfuncitem=self)"),
    ("pluggy/_caller.py", 197, "__call__", "return self._hookexec("),
    (
        "pluggy/_manager.py",
        183,
        "_hookexec",
        "return self._inner_hookexec(hook_name, methods, kwargs, firstresult)",
    ),
    ("pluggy/_execution.py", 195, "_multicall", "raise exception"),
    ("pluggy/_execution.py", 147, "_multicall", "res = hook_impl.function(*args)"),
    ("_pytest/python.py", 187, "pytest_pyfunc_call", "result = testfunction(**testargs)"),
)


@dataclass
class Entry:
    """One printed frame: where, the code line CPython showed, and its caret line."""

    path: str
    line: int
    function: str
    code: str | None
    carets: str | None


@dataclass
class Part:
    """One exception of a chain: its frames and its ``format_exception_only`` lines."""

    entries: list[Entry]
    exception: list[str]
    separator: str | None  # the chain text printed before this part


def parse(traceback_text: str) -> list[Part]:
    """The parts of a CPython traceback, outermost cause first."""
    pieces = CHAIN.split(traceback_text.rstrip("\n"))
    parts: list[Part] = []
    separator = None
    for i, piece in enumerate(pieces):
        if i % 2:
            separator = piece
            continue
        parts.append(_part(piece.split("\n"), separator))
    return parts


def _part(lines: list[str], separator: str | None) -> Part:
    entries: list[Entry] = []
    at = 1 if lines and lines[0].startswith("Traceback (most recent call last):") else 0
    while at < len(lines):
        head = FRAME.match(lines[at])
        if head is None:
            break
        at += 1
        code = carets = None
        if at < len(lines) and lines[at].startswith("    ") and not FRAME.match(lines[at]):
            code = lines[at][4:]
            at += 1
            if at < len(lines) and re.fullmatch(r" +[~^]+ *", lines[at]):
                carets = lines[at]
                at += 1
        entries.append(Entry(head["path"], int(head["line"]), head["func"], code, carets))
    return Part(entries, lines[at:], separator)


def render(traceback_text: str, fmt: str, test_id: str, run_dir: str, site: str) -> str:
    """The traceback as pytest prints it with ``--tb=fmt`` (``line``: the ``E`` block)."""
    parts = parse(traceback_text)
    if GROUP in traceback_text and fmt in ("line", "native"):
        return _group_native(traceback_text, site if fmt == "native" else None)
    if fmt == "line":
        return "\n".join(_e_block(parts[-1].exception, 3)) + "\n"
    if fmt == "native":
        return _native(traceback_text, site)
    name = test_id.rsplit("::", 1)[-1]
    out = ["=" * 35 + " FAILURES " + "=" * 35, _title(name)]
    if GROUP in traceback_text:
        # pytest prints an exception group as CPython does, in every --tb style
        group = traceback_text.rstrip("\n").split("\n")
        head = next((g.lstrip("| ") for g in group if GROUP_LINE.match(g)), "")
        return "\n".join([*out, *group, _footer(test_id, [head])]) + "\n"
    for part in parts:
        if part.separator is not None:
            out += ["", part.separator, ""]
        out += _long(part, run_dir) if fmt == "long" else _short(part, run_dir)
    return "\n".join([*out, _footer(test_id, parts[-1].exception)]) + "\n"


def _footer(test_id: str, exception: list[str]) -> str:
    return "=" * 27 + " short test summary info " + "=" * 28 + "\n" + _summary(test_id, exception)


def _title(name: str) -> str:
    side = max(1, (WIDTH - len(name) - 2) // 2)
    return f"{'_' * side} {name} {'_' * (WIDTH - len(name) - 2 - side)}"


def _summary(test_id: str, exception: list[str]) -> str:
    line = f"FAILED {test_id} - {exception[0] if exception else ''}"
    return line if len(line) <= WIDTH else line[: WIDTH - 3] + "..."


def _e_block(exception: list[str], indent: int) -> list[str]:
    pad = " " * indent
    return [f"E{pad}{line}".rstrip() if line else "E" for line in exception or [""]]


def _relative(path: str, run_dir: str) -> str:
    rel = os.path.relpath(path, run_dir) if os.path.isabs(path) else path
    return rel if len(rel) <= len(path) else path


def _short(part: Part, run_dir: str) -> list[str]:
    out: list[str] = []
    for entry in part.entries:
        out.append(f"{_relative(entry.path, run_dir)}:{entry.line}: in {entry.function}")
        if entry.code is not None:
            out.append(f"    {entry.code}")
            if _carets_shown(entry):
                out.append(entry.carets or "")
    return out + _e_block(part.exception, 3)


def _long(part: Part, run_dir: str) -> list[str]:
    out: list[str] = []
    for k, entry in enumerate(part.entries):
        last = k == len(part.entries) - 1
        if k:
            out.append("_ " * (WIDTH // 2))
        out.append("")
        args = _arguments(entry.path, entry.line)
        if args:
            out += [*_wrap_args(args), ""]
        source, indent = _source(entry)
        out += source
        if last:
            out += _e_block(part.exception, 4 + indent - 1)
        out.append("")
        tail = part.exception[0].split(":", 1)[0].rsplit(".", 1)[-1] if last else ""
        out.append(f"{_relative(entry.path, run_dir)}:{entry.line}: {tail}")
    return out


def _wrap_args(args: list[str]) -> list[str]:
    lines: list[str] = []
    current = ""
    for arg in (f"{a} = <…>" for a in args):
        if current and len(current) + 2 + len(arg) > WIDTH:
            lines.append(current)
            current = arg
        else:
            current = f"{current}, {arg}" if current else arg
    return [*lines, current] if current else lines


def _source(entry: Entry) -> tuple[list[str], int]:
    """The function's lines to the end of the failing statement (``>`` on its first line),
    and the failing line's indent once dedented; the CPython line alone if no source."""
    found = _function_span(entry.path, entry.line)
    if found is None:
        code = entry.code or "???"
        return [f">   {code}", *([entry.carets] if entry.carets else [])], 0
    first, end, lines = found
    body = textwrap.dedent("\n".join(lines[first - 1 : end])).split("\n")
    out: list[str] = []
    indent = 0
    for number, text in enumerate(body, start=first):
        if number == entry.line:
            indent = len(text) - len(text.lstrip())
            out.append(f">   {text}")
            if _carets_shown(entry):
                # CPython prints the line stripped, 4 spaces in: shift its carets alike
                out.append(" " * indent + (entry.carets or ""))
        else:
            out.append(f"    {text}")
    return out, indent


def _carets_shown(entry: Entry) -> bool:
    """pytest marks a failing expression only when it ends on its first line; CPython 3.11
    marks the first line of one that goes on (``return f(`` over several lines)."""
    if not entry.carets or entry.code is None:
        return False
    if len(entry.carets.rstrip()) < 4 + len(entry.code.rstrip()):
        return True
    span = _function_span(entry.path, entry.line)
    return span is None or span[1] == entry.line


@lru_cache(maxsize=256)
def _tree(path: str) -> tuple[ast.Module | None, tuple[str, ...]]:
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        return ast.parse(text), tuple(text.split("\n"))
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return None, ()


@lru_cache(maxsize=256)
def _functions(path: str) -> tuple[ast.FunctionDef | ast.AsyncFunctionDef, ...]:
    tree, _ = _tree(path)
    found = ast.walk(tree) if tree is not None else ()
    return tuple(n for n in found if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef))


@lru_cache(maxsize=4096)
def _function_at(path: str, line: int) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    best = None
    for node in _functions(path):
        start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        end = node.end_lineno or node.lineno
        if start <= line <= end and (best is None or node.lineno > best.lineno):
            best = node
    return best


@lru_cache(maxsize=4096)
def _function_span(path: str, line: int) -> tuple[int, int, tuple[str, ...]] | None:
    """First line (decorators included, as ``co_firstlineno``), the failing statement's
    last line, and the file's lines; None when the file or the function is not found."""
    _, lines = _tree(path)
    func = _function_at(path, line)
    if func is None or line > len(lines):
        return None
    first = min([func.lineno, *(d.lineno for d in func.decorator_list)])
    inner = [n for n in ast.walk(func) if isinstance(n, ast.stmt | ast.ExceptHandler)]
    later = [n.lineno for n in inner if n is not func and n.lineno > line]
    end = line
    for node in inner:
        if isinstance(node, ast.stmt) and node.lineno == line and node.end_lineno:
            end = min([node.end_lineno, *(s - 1 for s in later)])
            break
    while end > line and not lines[end - 1].strip():
        end -= 1
    return first, end, lines


def _arguments(path: str, line: int) -> list[str]:
    func = _function_at(path, line)
    if func is None:
        return []
    a = func.args
    names = [x.arg for x in [*a.posonlyargs, *a.args]]
    names += [a.vararg.arg] if a.vararg else []
    names += [x.arg for x in a.kwonlyargs]
    names += [a.kwarg.arg] if a.kwarg else []
    return names


def _group_native(traceback_text: str, site: str | None) -> str:
    """An exception group as pytest prints it with ``--tb=native`` (its runner's frames
    inside the group's own traceback, ``site`` given) or ``--tb=line`` (no ``E`` block:
    the group as CPython prints it, the location line after it left out)."""
    lines = traceback_text.rstrip("\n").split("\n")
    if site is not None and lines and lines[0].endswith(GROUP):
        runner = [
            f'  |   File "{site}/{rel}", line {line}, in {func}\n  |     {code}'
            for rel, line, func, code in RUNNER_FRAMES
        ]
        lines = [lines[0], *runner, *lines[1:]]
    return "\n".join(lines) + "\n"


def _native(traceback_text: str, site: str) -> str:
    head = "Traceback (most recent call last):\n"
    runner = "".join(
        f'  File "{site}/{rel}", line {line}, in {func}\n    {code}\n'
        for rel, line, func, code in RUNNER_FRAMES
    )
    body = traceback_text[len(head) :] if traceback_text.startswith(head) else traceback_text
    return head + runner + body
