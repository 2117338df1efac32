"""A raise that the innermost test only leads to: what else decides it, said beside it.

"`inspect.findsource` raises `OSError` when `isclass(object)`" was judged false in the
stop-37 paired blind review: ``isclass`` only picks the branch, and the raise sits in the
``else`` of a ``try`` whose search (``class_finder.visit(tree)``) must end without finding
the class. Likewise an ``assert`` is decided by its own test, not the ``if`` around it or
the early ``return`` before it (``unittest``'s ``_get_name_from_path`` fails only when
``_relpath.startswith('..')``, yet the record said "when `path != self._top_level_dir`",
the normal case). Here the statements between the innermost ``if`` and the raise are
asked how control gets past them (:func:`.fall_through.reach` from inside it: a loop that
searches and returns, a ``try`` whose ``else`` holds the raise, a ``for … else``, an
``if`` that returns), and an ``assert``'s own test is always said, even over a private
local: the record then calls the ``if`` test the branch, never the whole trigger.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from ..record import WINDOW_RADIUS
from .fall_through import reach, whole_function
from .file_trees import function_node, source_lines
from .gathered import Gathered
from .guards import code, has_private
from .local_binding import sole_assignment
from .local_terms import caller_guards
from .private_terms import module_aliases
from .window_locals import unseen_in_window

__all__ = ["Steps", "branch_steps", "with_steps"]

#: Longest assignment quoted to say what an assert's private local holds.
_SHOWN = 70
_WORDS = re.compile(r"[A-Za-z_]\w*")
_BRANCH_KINDS = frozenset({"if", "elif", "else"})
#: How :mod:`.fall_through` names an exit whose test it cannot show.
_NOT_TAKEN = "is not taken"
#: :func:`.fall_through.site_reach`'s phrase when only loops that return (or break) come
#: before the raise's tests: "when the loop over `getaddrinfo(…)` ends without returning".
_LOOP = r"the loop (?:over `[^`]*`|`while [^`]*`|at line \d+) ends without (?:returning|`break`(?: or returning)?)"
_LOOPS_ONLY = re.compile(rf"when {_LOOP}(?: and {_LOOP})*")


@dataclass(frozen=True, slots=True)
class Steps:
    """What the raise needs beyond the guard phrase: ``assert_test``, an ``assert``'s own
    test the phrase left out (over a private local), as a clause; ``inner``, the
    conditions of the statements between the innermost ``if`` and the raise."""

    assert_test: str | None = None
    inner: str | None = None
    #: Loops before the tests that return or break, so the raise needs them to end:
    #: ``socket.create_connection``'s ``len(exceptions)`` holds after every attempt failed.
    loops: str | None = None
    #: The private condition ``assert_test`` states (no longer "left out").
    said: tuple[str, ...] = ()


def branch_steps(g: Gathered, phrase: str | None = None) -> Steps:
    """The steps of ``g``'s raise; empty where the innermost test decides it. ``phrase``:
    the guard phrase, which may state the assert's test already (as code)."""
    own = _assert_test(g)
    if own is not None and phrase and any(code(t) in phrase for t in _said_forms(g, own[1])):
        own = None  # ``self._current_indent < 0``, or ``len(items) >= 10`` for ``_n >= 10``
    inner = loops = None
    if any(x["kind"] in _BRANCH_KINDS for x in g.site.guards):
        inner = _inner(g)  # conditions over locals said: "when `not binary`"
        if inner is not None and (_names_unseen(g, inner) or unseen_in_window(g, inner)):
            inner = None  # say less rather than name what neither record nor evidence holds
        passed = _passed(g)
        if passed and _LOOPS_ONLY.fullmatch(passed):  # those inside the branch: in inner
            # ``passed`` hides locals, so a loop inside the branch is named as the walk
            # that hides them names it ("the loop at line 4", not "`while i < n`")
            said = set(re.findall(_LOOP, f"{inner} {_inner(g, _hidden(g))}"))
            loops = " and ".join(c for c in re.findall(_LOOP, passed) if c not in said) or None
    return Steps(own[0] if own else None, inner, loops, (own[1],) if own else ())


def with_steps(phrase: str | None, steps: Steps) -> str | None:
    """The guard phrase with the steps said: the assert's test first, the ``if`` test as
    the branch ("on the branch where `isclass(object)`, and there only when
    `class_finder.visit(tree)` does not raise")."""
    if steps.assert_test is None and steps.inner is None and steps.loops is None:
        return phrase
    parts: list[str] = []
    if steps.assert_test is not None:
        parts.append(steps.assert_test)
    if phrase:
        branch = steps.inner is not None or steps.assert_test is not None
        parts.append(
            "on the branch where " + phrase.removeprefix("when ")
            if branch and phrase.startswith("when ")
            else phrase
        )
    if steps.inner is not None and (parts or _NOT_TAKEN not in steps.inner):
        # alone, "when the `return` at line N is not taken" is control flow, no cause
        parts.append(f"and there only {steps.inner}" if parts else steps.inner)
    if steps.loops is not None and parts:  # alone, the record says it as before
        parts.append(f"once {steps.loops}")
    return ", ".join(parts) if parts else phrase


def _function_lines(g: Gathered) -> tuple[tuple[str, ...], int, int] | None:
    """The raising function's whole text (not the record's window, which may start
    after the loop that decides), the raise's index in it and its first line's number."""
    found = whole_function(g)
    if found is None or g.func is None:
        return None
    return tuple(found[0]), found[1], g.func.line


def _inner(g: Gathered, hidden: frozenset[str] | set[str] = frozenset()) -> str | None:
    found = _function_lines(g)
    if found is None:
        return None
    lines, at, line0 = found
    modules = module_aliases(g.import_lines)
    return reach(lines, at, 0, line0, modules, hidden, inside=True).phrase


def _passed(g: Gathered) -> str | None:
    """What the whole way from the ``def`` to the raise needs (:func:`.fall_through.reach`)."""
    found = _function_lines(g)
    if found is None or g.func is None:
        return None
    lines, at, line0 = found
    return reach(lines, at, 0, line0, module_aliases(g.import_lines), _hidden(g)).phrase


def _hidden(g: Gathered) -> set[str]:
    """The function's locals, which the whole way's conditions do not name."""
    if g.func is None:
        return set()
    return set(g.func.bound_lines) - {p.lstrip("*") for p in g.func.params}


def _names_unseen(g: Gathered, phrase: str) -> bool:
    """Whether ``phrase`` names a local of the function that the record's source window
    does not show nor its guards state: networkx's "the loop over `C[V_plus] + B_prime`",
    bound 70 lines above the raise, named what neither the record nor its evidence held."""
    hidden = _hidden(g)
    named = {w for span in re.findall(r"`([^`]*)`", phrase) for w in _WORDS.findall(span)}
    if not hidden & named or not g.source_file:
        return False
    lines = source_lines(g.source_file)
    if not lines:
        return True
    start = max(1, g.site.line - WINDOW_RADIUS)
    shown = set(_WORDS.findall("\n".join(lines[start - 1 : g.site.line + WINDOW_RADIUS])))
    shown |= {w for x in g.site.guards for w in _WORDS.findall(str(x["text"]))}
    return bool((hidden & named) - shown)


def _said_forms(g: Gathered, text: str) -> set[str]:
    """The assert's test as written and as the guard phrase says it: its locals in the
    parameters' terms (:func:`.local_terms.caller_guards`)."""
    forms = {text}
    for guard in caller_guards(g):
        if guard["kind"] == "assert" and guard["line"] == g.site.line:
            forms.add(str(guard["text"]))
    return forms


def _assert_test(g: Gathered) -> tuple[str, str] | None:
    """``("when `_relpath.startswith('..')`, where …", text)`` for an assert whose test
    reads a private name, so that the guard phrase drops it; None otherwise."""
    if g.site.kind != "assert":
        return None
    own = [x for x in g.site.guards if x["kind"] == "assert" and x["line"] == g.site.line]
    if not own or not has_private(str(own[0]["text"])):
        return None
    text = str(own[0]["text"])
    where = _local_note(g, text)
    return f"when {code(text)}{where}", text


def _local_note(g: Gathered, text: str) -> str:
    """ ", where `_relpath = os.path.relpath(path, self._top_level_dir)` (line 355)": the
    one assignment before the assert of each private local the test reads, said only
    where it is the local's sole binding in the function's own scope."""
    try:
        test = ast.parse(text, mode="eval")
    except (SyntaxError, ValueError, RecursionError):
        return ""
    names = sorted({n.id for n in ast.walk(test) if isinstance(n, ast.Name) and has_private(n.id)})
    func = g.func
    if not names or func is None or not g.source_file:
        return ""
    node = function_node(g.source_file, func.line, func.name)
    if node is None:
        return ""
    notes = []
    for name in names:
        found = sole_assignment(node, name)  # no loop, nested def or for target alters it
        if found is None or found.lineno >= g.site.line:
            return ""
        said = ast.unparse(found)
        if len(said) > _SHOWN:
            return ""
        notes.append(f"{code(said)} (line {found.lineno})")
    return ", where " + " and ".join(notes)
