"""What a raise needs beyond its enclosing conditions: the early exits before it.

"Triggered whenever `mktemp` reaches line 412: no enclosing condition" hid the real
cause where the line follows a loop that returns (``tempfile.mktemp`` raises only once
``TMP_MAX`` names exist), sits in a ``for`` loop's ``else`` (``multiprocessing.heap.Arena``
after 100 tries), or follows a ``try`` or an ``if`` that returns
(``mailbox.Maildir._create_tmp`` is reached when ``os.stat(path)`` does not raise) (blind
review 2026-12-06). The function's code in the record's source window is parsed, and each
statement before the raise, at each level of blocks around it, is asked how control gets
past it. The answer is a few alternatives of a few clauses each, or nothing where it
cannot be said that briefly: each clause found is a condition the raise needs.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from .exit_tests import exact_test, made_as
from .file_trees import source_lines
from .gathered import Gathered
from .guards import code, negated
from .private_terms import module_aliases, private_only_as_attributes
from .try_body import SHOWN_LENGTH
from .type_chain import none_of
from .window_locals import bound_outside, local_names, read_above, unseen_in_window

__all__ = ["Reach", "reach", "site_reach", "whole_function"]

#: Alternatives (joined by "or") of clauses (joined by "and"): ``((),)`` always passes,
#: ``()`` never does, None cannot be said briefly.
Formula = tuple[tuple[str, ...], ...] | None
ALWAYS: Formula = ((),)
NEVER: Formula = ()
#: More alternatives or clauses than this is no sentence a reader follows.
MOST_ALTERNATIVES = 3
MOST_CLAUSES = 4
#: Ends of the window tried when the raise's statement needs the lines after it.
_LOOPS = (ast.For, ast.AsyncFor, ast.While)
#: Statements that leave the block. A branch or handler left only by ``raise`` is
#: another error, as any statement may raise: the condition that avoids it is not said
#: (``if not ip_str: raise …`` before the raise is that check, not this one's cause),
#: but no path through it is claimed either.
_EXITS = (ast.Return, ast.Continue, ast.Break, ast.Raise)
#: Statement starts tried where the function begins before the window.
_STARTS = 8
_Function = ast.FunctionDef | ast.AsyncFunctionDef
_CONTINUED = ("else", "elif", "except", "finally", ")", "]", "}", "case")


@dataclass(frozen=True, slots=True)
class Reach:
    """The conditions in words ("when the loop over `range(TMP_MAX)` ends without
    returning"), and whether the raise is the function's first statement."""

    phrase: str | None
    first: bool
    #: Lines above the window the phrase names (``"N: text"``): stored as evidence.
    lines: tuple[str, ...] = ()


def site_reach(g: Gathered) -> Reach:
    """:func:`reach` for the record's raise, from the raising function's whole text
    where it is read (a window that starts below the ``def`` hid ``encode_content``'s
    ``if isinstance(content, (bytes, str)): … return`` branches, 23 lines up: "no
    enclosing condition", stop-39 paired review), else from its source window. A phrase
    that names a local bound above the raise outside the window is not said
    (:mod:`.window_locals`): the window's is, with an exit's test over such a local
    named by its line ("the `return` at line 49 is not taken")."""
    if g.func is None:
        return Reach(None, False)
    hidden = local_names(g)
    found = Reach(None, False)
    whole = whole_function(g)
    tries = ((whole, True), (g.site.window(), True), (g.site.window(), False))

    def unseen(found: Reach) -> bool:
        return found.phrase is not None and unseen_in_window(g, found.phrase)

    for window, exact in tries:
        if window is None:
            continue
        lines, at = window
        line0 = g.site.line - at
        def_at = g.func.line - line0 if g.func.line >= line0 else None
        modules = module_aliases(g.import_lines)
        found = reach(lines, at, def_at, line0, modules, hidden, exact=exact)
        if found.phrase is not None and (not exact or not bound_outside(g, found.phrase)):
            if window is whole and unseen(found):  # what the window does not show: kept
                return replace(found, lines=read_above(g, lines, found.phrase))
            return found
        # the whole function's way may be too long to say where the window's part is not
        # (``xml.dom.domreg.getDOMImplementation``): what the window shows still holds
    return found


def whole_function(g: Gathered) -> tuple[Sequence[str], int] | None:
    """The raising function's lines and the raise's index in them; None where the file
    is not read again or the function does not hold the raise."""
    func = g.func
    if func is None or not g.source_file or not func.line <= g.site.line <= func.end_line:
        return None
    lines = source_lines(g.source_file)
    if lines is None or len(lines) < func.end_line:
        return None
    return lines[func.line - 1 : func.end_line], g.site.line - func.line


def reach(
    lines: Sequence[str],
    at: int,
    def_at: int | None,
    line0: int,
    modules: Collection[str] = (),
    hidden: Collection[str] = (),
    *,
    inside: bool = False,
    exact: bool = True,
) -> Reach:
    """For the raise at ``lines[at]`` of a source window whose first line is the file's
    line ``line0`` and whose function starts at ``lines[def_at]`` (None: before the
    window); ``modules``: names of imported modules (``_winapi.GetLastError()`` is shown);
    ``hidden``: the function's locals, which no condition said names. ``inside``: from
    the innermost ``if`` around the raise only, what the statements between that test and
    the raise need (:mod:`.branch_steps`; no phrase where no ``if`` encloses it), its
    ``hidden`` alike, so that both walks name a loop the same way. ``exact``: an exit's
    test over a local is said as written (:mod:`.exit_tests`), else by its line."""
    return _reach(
        tuple(lines),
        at,
        def_at,
        line0,
        tuple(sorted(modules)),
        tuple(sorted(hidden)),
        inside,
        exact,
    )


@lru_cache(maxsize=256)
def _reach(
    lines: tuple[str, ...],
    at: int,
    def_at: int | None,
    line0: int,
    modules: tuple[str, ...],
    hidden: tuple[str, ...],
    inside: bool = False,
    exact: bool = True,
) -> Reach:
    parsed = _parse(lines, at, def_at)
    if parsed is None:
        return Reach(None, False)
    body, target, text, start, func = parsed
    path = _path(body, target)
    if inside:  # from the innermost ``if``'s branch on: its test is the guard said
        branches = [i for i, level in enumerate(path) if isinstance(level[2], ast.If)]
        path = path[branches[-1] :] if branches else []
    if not path:
        return Reach(None, False)
    ctx = _Context(text, frozenset(modules), line0 + start - 1, frozenset(hidden), target)
    ctx.body = body
    ctx.func = func
    ctx.exact = exact
    formula: Formula = ALWAYS
    for block, index, parent, where in path:
        if parent is not None:
            formula = _and(formula, ctx.container(parent, where, block))
        formula = _and(formula, ctx.block(block[:index]))
    first = def_at is not None and len(path) == 1 and _first(path[0][0], path[0][1])
    if not formula or formula == ALWAYS:  # unknown, nothing, or unreachable: not said
        return Reach(None, first)
    phrase = ", or ".join("when " + " and ".join(none_of(_noted_once(alt))) for alt in formula)
    return Reach(phrase, first)


def _noted_once(clauses: tuple[str, ...]) -> list[str]:
    """Each clause, a " (with `x = …`)" note said again dropped: ``_raise_error``'s two
    tests of ``error`` each carried its assignment."""
    seen: set[str] = set()
    out: list[str] = []
    for clause in clauses:
        head, sep, note = clause.partition(" (with ")
        if sep and note in seen:
            clause = head
        elif sep:
            seen.add(note)
        out.append(clause)
    return out


def _first(block: Sequence[ast.stmt], index: int) -> bool:
    """Nothing but a docstring comes before the raise."""
    before = block[:index]
    return all(isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) for s in before)


def _parse(
    lines: tuple[str, ...], at: int, def_at: int | None
) -> tuple[list[ast.stmt], int, str, int, ast.FunctionDef | ast.AsyncFunctionDef | None] | None:
    """The function body (or the window's part of it), the raise's line in that text, the
    text and its first line's index in ``lines``; None when no piece of the window parses."""
    if def_at is not None:
        starts = [def_at]
    else:
        code_lines = [i for i in range(at + 1) if lines[i].strip()[:1] not in ("", "#")]
        if not code_lines:
            return None
        least = min(_indent(lines[i]) for i in code_lines)
        starts = [
            i
            for i in code_lines
            if _indent(lines[i]) == least and not lines[i].lstrip().startswith(_CONTINUED)
        ][:_STARTS]
    whole = _whole(lines, def_at) if def_at is not None else None
    if whole is not None and def_at is not None:
        found, text = whole
        target = at - def_at + 1
        if found.lineno <= target <= (found.end_lineno or 0):
            return found.body, target, text, def_at, found
    for start in starts:
        for end in range(at + 1, len(lines) + 1):
            text = _dedented(lines[start:end], def_at)
            try:
                tree = ast.parse(text)
            except (SyntaxError, ValueError, RecursionError):
                continue
            body, target = tree.body, at - start + 1
            if def_at is None:
                return body, target, text, start, None
            func = body[0] if body else None
            if not isinstance(func, ast.FunctionDef | ast.AsyncFunctionDef) or not (
                func.lineno <= target <= (func.end_lineno or 0)
            ):
                return None
            return func.body, target, text, start, func
    return None


@lru_cache(maxsize=16)
def _whole(lines: tuple[str, ...], def_at: int) -> tuple[_Function, str] | None:
    """The function at ``lines[def_at]`` parsed once from there to the end (the whole
    function, or a window's rest), for every raise in it; None where that does not parse
    or starts with no ``def`` (a window cut inside a statement: tried end by end)."""
    text = _dedented(lines[def_at:], def_at)
    try:
        body = ast.parse(text).body
    except (SyntaxError, ValueError, RecursionError):
        return None
    func = body[0] if body else None
    return (func, text) if isinstance(func, _Function) else None


def _dedented(lines: Sequence[str], def_at: int | None) -> str:
    """The lines without the ``def``'s indentation (from at most each line's own: a
    string's line at column 0 inside a method left :func:`textwrap.dedent` nothing to
    take, so that every end was tried in vain, 3.7 s a site in a 2,000-line method), or
    as :func:`textwrap.dedent` takes it from a window with no ``def``."""
    if def_at is None or not lines:
        return textwrap.dedent("\n".join(lines))
    strip = _indent(lines[0])
    return "\n".join(line[min(strip, _indent(line)) :] for line in lines)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


Level = tuple[list[ast.stmt], int, ast.stmt | None, str]


def _path(body: list[ast.stmt], line: int) -> list[Level]:
    """Each block around ``line``, outermost first: (block, index of the statement
    holding the line, the statement owning the block, which of its blocks)."""
    out: list[Level] = []
    block, parent, where = body, None, ""
    while True:
        index = next(
            (i for i, s in enumerate(block) if s.lineno <= line <= (s.end_lineno or s.lineno)),
            None,
        )
        if index is None:
            return []
        out.append((block, index, parent, where))
        stmt = block[index]
        if isinstance(stmt, ast.Raise | ast.Expr | ast.Assert) or not _blocks(stmt):
            return out
        found = next(
            (
                (b, w)
                for w, b in _blocks(stmt)
                if b and b[0].lineno <= line <= (b[-1].end_lineno or 0)
            ),
            None,
        )
        if found is None:
            return out
        block, where = found
        parent = stmt


def _blocks(stmt: ast.stmt) -> list[tuple[str, list[ast.stmt]]]:
    if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return []  # a nested definition: its own raises, not this function's
    if isinstance(stmt, ast.Try | ast.TryStar):
        handlers = [(f"handler{i}", h.body) for i, h in enumerate(stmt.handlers)]
        return [
            ("body", stmt.body),
            *handlers,
            ("orelse", stmt.orelse),
            ("finalbody", stmt.finalbody),
        ]
    if isinstance(stmt, ast.Match):
        return [(f"case{i}", c.body) for i, c in enumerate(stmt.cases)]
    return [(w, getattr(stmt, w)) for w in ("body", "orelse") if getattr(stmt, w, None)]


def _and(a: Formula, b: Formula) -> Formula:
    if a is None or b is None:
        return None
    alts = tuple(dict.fromkeys(tuple(dict.fromkeys(x + y)) for x in a for y in b))
    if len(alts) > MOST_ALTERNATIVES or any(len(x) > MOST_CLAUSES for x in alts):
        return None
    return alts


def _or(a: Formula, b: Formula) -> Formula:
    if a is None or b is None:
        return None
    if () in a or () in b:
        return ALWAYS
    alts = tuple(dict.fromkeys(a + b))
    return alts if len(alts) <= MOST_ALTERNATIVES else None


def _one(clause: str) -> Formula:
    return ((clause,),)


class _Context:
    """How control gets past statements of one parsed text."""

    def __init__(
        self,
        text: str,
        modules: frozenset[str],
        offset: int,
        hidden: frozenset[str],
        target: int = 0,
    ) -> None:
        self.text = text
        self.target = target  # the raise's line in ``text``
        self.body: Sequence[ast.stmt] = ()  # the parsed statements, for :func:`exact_test`
        self.func: ast.FunctionDef | ast.AsyncFunctionDef | None = None  # where it was parsed
        self.modules = modules
        self.hidden = hidden
        self.offset = offset  # the file's line number of the text's line 0
        self.exact = True  # an exit's test over a local said as written (:mod:`.exit_tests`)

    def line(self, node: ast.stmt) -> int:
        return node.lineno + self.offset

    def shown(self, node: ast.AST, condition: bool = False) -> str | None:
        """Code a reader can find: one line, short, no private local or function; a
        ``condition`` over a local is not restated (a statement that raises is named,
        as :mod:`.try_body` names it)."""
        if not private_only_as_attributes(node, self.modules):
            return None
        if condition and any(
            isinstance(n, ast.Name) and n.id in self.hidden for n in ast.walk(node)
        ):
            return None
        segment = ast.get_source_segment(self.text, node)
        if segment is None or "\n" in segment or len(segment) > SHOWN_LENGTH:
            return None
        return segment

    def block(self, stmts: Sequence[ast.stmt]) -> Formula:
        formula = ALWAYS
        for stmt in stmts:
            formula = _and(formula, self.stmt(stmt))
            if not formula:
                return formula
        return formula

    def stmt(self, stmt: ast.stmt) -> Formula:
        if isinstance(stmt, _EXITS):
            return NEVER
        if isinstance(stmt, ast.If):
            return self._if(stmt)
        if isinstance(stmt, _LOOPS):
            return self._loop(stmt)
        if isinstance(stmt, ast.Try | ast.TryStar):
            return self._try(stmt)
        if isinstance(stmt, ast.With | ast.AsyncWith):
            return self.block(stmt.body)
        if isinstance(stmt, ast.Match):
            cases = [self.block(c.body) for c in stmt.cases]
            return ALWAYS if all(c == ALWAYS for c in cases) else None
        return ALWAYS

    def _if(self, stmt: ast.If) -> Formula:
        body, orelse = self.block(stmt.body), self.block(stmt.orelse)
        if body == orelse == ALWAYS:
            return ALWAYS
        body_raises, else_raises = _raises_only(stmt.body), _raises_only(stmt.orelse)
        if body_raises or else_raises:  # the other branch's way, its condition unsaid
            return NEVER if body_raises and else_raises else (orelse if body_raises else body)
        if body is None or orelse is None:
            return None
        test = self.shown(stmt.test, condition=True)
        if test is None:
            exit_word = _exit_word(stmt.body[-1]) if stmt.body else None
            if body == NEVER and orelse == ALWAYS and exit_word is not None:
                # the test itself, as written, even over a local or private name: "the
                # `return` at line 2190 is not taken" hid ``0 < delta.days <= _MAXORDINAL``
                # (stop-39 paired review: misleading)
                kept = exact_test(self.text, stmt, self.target, self.body) if self.exact else None
                if kept is not None:
                    made = made_as(self.func, stmt, self.hidden)
                    return _one(code(negated(kept)) + (f" (with {made})" if made else ""))
                return _one(f"the `{exit_word}` at line {self.line(stmt.body[-1])} is not taken")
            return None
        yes = _and(_one(code(test)), body) if body else NEVER
        no = _and(_one(code(negated(test))), orelse) if orelse else NEVER
        if yes == NEVER:
            return no
        if no == NEVER:
            return yes
        return _or(yes, no)

    def _loop(self, stmt: ast.For | ast.AsyncFor | ast.While) -> Formula:
        """A loop gets past unless it returns; ``while True`` only by ``break``."""
        orelse = self.block(stmt.orelse)
        if orelse != ALWAYS:
            return None
        if isinstance(stmt, ast.While) and _forever(stmt.test):
            return None if _breaks(stmt.body) else NEVER
        if not _returns(stmt.body):
            return ALWAYS
        return _one(f"{self.loop_name(stmt)} ends without returning")

    def loop_name(self, stmt: ast.For | ast.AsyncFor | ast.While) -> str:
        if isinstance(stmt, ast.While):
            test = self.shown(stmt.test, condition=True)
            return f"the loop `while {test}`" if test else f"the loop at line {self.line(stmt)}"
        over = self.shown(stmt.iter)
        return f"the loop over {code(over)}" if over else f"the loop at line {self.line(stmt)}"

    def _try(self, stmt: ast.Try | ast.TryStar) -> Formula:
        body = _and(self.block(stmt.body), self.block(stmt.orelse))
        if body is None:
            return None
        who = self.raiser(stmt)
        result: Formula = ALWAYS
        paths: Formula = NEVER
        for handler in stmt.handlers:
            caught = _caught(handler)
            passes = self.block(handler.body)
            if passes is None:
                return None
            if passes == NEVER and _raises_only(handler.body):
                continue  # it raises another error: no way past, and nothing to say
            if body == ALWAYS and passes != ALWAYS:
                # getting past needs this class not raised, or the handler getting past
                escape = _one(f"{who} does not raise {caught}")
                via = _and(_one(f"{who} raises {caught}"), passes) if passes else NEVER
                result = _and(result, _or(escape, via) if via else escape)
            elif body != ALWAYS and passes != NEVER:
                paths = _or(paths, _and(_one(f"{who} raises {caught}"), passes))
        if body != ALWAYS:
            if body == NEVER:
                result = paths
            else:
                result = _or(_and(_one(f"{who} does not raise"), body), paths) if paths else body
        return _and(result, self.block(stmt.finalbody))

    def raiser(self, stmt: ast.Try | ast.TryStar) -> str:
        """The one statement of the ``try`` that can raise, or the ``try`` by its line."""
        can = [s for s in stmt.body if not isinstance(s, ast.Pass | ast.Break | ast.Continue)]
        if len(can) == 1 and isinstance(can[0], ast.Return | ast.Expr | ast.Assign):
            node = can[0].value
            if node is not None:
                node = node.value if isinstance(node, ast.Await) else node
                shown = self.shown(node)
                if shown:
                    return code(shown)
        return f"the `try` block at line {self.line(stmt)}"

    def container(self, parent: ast.stmt, where: str, block: list[ast.stmt]) -> Formula:
        """What entering ``block`` of ``parent`` needs beyond the extractor's guards."""
        if where == "orelse" and isinstance(parent, _LOOPS):
            # its ``else`` runs when the loop ends by itself: ``mailbox.Mailbox.popitem``'s
            # ``for key in self.iterkeys(): return …`` / ``else: raise KeyError`` needs
            # no key, which "no enclosing condition" hid
            ways = [
                w for w, out in (("`break`", _breaks), ("returning", _returns)) if out(parent.body)
            ]
            if ways:
                return _one(f"{self.loop_name(parent)} ends without {' or '.join(ways)}")
        if where == "orelse" and isinstance(parent, ast.Try | ast.TryStar):
            return _one(f"{self.raiser(parent)} does not raise")
        return ALWAYS


def _caught(handler: ast.ExceptHandler) -> str:
    if handler.type is None:
        return "an exception"
    if isinstance(handler.type, ast.Tuple) and len(handler.type.elts) > 1:
        return "one of " + ", ".join(code(ast.unparse(e)) for e in handler.type.elts)
    return code(ast.unparse(handler.type))


def _exit_word(stmt: ast.stmt) -> str | None:
    """The statement's name when it is an exit; None for any other last statement (a
    nested ``if`` whose branches return, ``while True: pass``): it is named no ``break``."""
    return {ast.Return: "return", ast.Continue: "continue", ast.Break: "break"}.get(type(stmt))


def _raises_only(block: Sequence[ast.stmt]) -> bool:
    """The block ends in ``raise`` and has no other way out."""
    return (
        bool(block)
        and isinstance(block[-1], ast.Raise)
        and not _returns(block)
        and not any(isinstance(n, ast.Continue | ast.Break) for n in _walk_own(block, loops=False))
    )


def _forever(test: ast.expr) -> bool:
    return isinstance(test, ast.Constant) and bool(test.value)


def _walk_own(stmts: Sequence[ast.stmt], loops: bool) -> list[ast.AST]:
    """Nodes of ``stmts`` outside nested definitions (and, unless ``loops``, outside
    nested loops: their ``break`` is theirs)."""
    out: list[ast.AST] = []
    todo: list[ast.AST] = [s for s in stmts if _own(s, loops)]  # the block's own too
    while todo:
        node = todo.pop()
        out.append(node)
        todo.extend(child for child in ast.iter_child_nodes(node) if _own(child, loops))
    return out


def _own(node: ast.AST, loops: bool) -> bool:
    """Not a nested definition, nor (unless ``loops``) a nested loop."""
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
        return False
    return loops or not isinstance(node, _LOOPS)


def _returns(stmts: Sequence[ast.stmt]) -> bool:
    return any(isinstance(n, ast.Return) for n in _walk_own(stmts, loops=True))


def _breaks(stmts: Sequence[ast.stmt]) -> bool:
    return any(isinstance(n, ast.Break) for n in _walk_own(stmts, loops=False))
