"""A test class's set-up assignments that the snippet never reads, left out.

A test class's attributes and its ``setUp`` assignments all came before every snippet
cut from the class: ``test_gml.py``'s ``TestGraph`` put a 40-line ``simple_data``
string in front of ``literal_destringizer('(')``. Only the set-up is pruned, and only a
plain assignment to names that no later statement reads (a call made for what it does,
``self.addCleanup`` aside, stays).
"""

from __future__ import annotations

import ast
import builtins

from ._ast_names import bound_names, used_names

__all__ = ["unrelated_dropped", "unused_setup_dropped"]


def unused_setup_dropped(statements: list[ast.stmt], setup: int) -> list[ast.stmt]:
    """``statements`` without those of the first ``setup`` (the class's set-up) that
    only assign names nothing after them reads."""
    kept: list[ast.stmt] = []
    read = used_names(statements[setup:])
    for stmt in reversed(statements[:setup]):
        names = _plain_assign_to(stmt)
        if names and not names & read and not _calls(stmt):
            continue
        kept.append(stmt)
        read |= used_names([stmt])
    return [*reversed(kept), *statements[setup:]]


def _plain_assign_to(stmt: ast.stmt) -> set[str]:
    """The names a plain ``a = b = value`` assigns; empty for anything else."""
    if not isinstance(stmt, ast.Assign):
        return set()
    if not all(isinstance(t, ast.Name) for t in stmt.targets):
        return set()
    return {t.id for t in stmt.targets if isinstance(t, ast.Name)}


def _calls(stmt: ast.stmt) -> bool:
    """Whether the statement calls anything: ``self.patcher = mock.patch.object(...).start()``
    or ``self.old = os.chdir(...)`` are made for what they do, whatever reads the name."""
    return any(isinstance(node, ast.Call) for node in ast.walk(stmt))


def _assigns_a_call(stmt: ast.stmt) -> bool:
    """A set-up assignment made for its call (``patcher = mock.patch(...).start()``); a
    bare call on a name nothing after reads (``G.add_edges_from(...)``) is still unrelated."""
    return isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and _calls(stmt)


_BUILTINS = frozenset(dir(builtins))


def unrelated_dropped(
    statements: list[ast.stmt],
    keep_last: int,
    reads: frozenset[str] = frozenset(),
    setup: int = 0,
) -> list[ast.stmt]:
    """``statements`` without those before the last ``keep_last`` (the expectation's own)
    that share no name with anything after them: ``with open(tmp_path / 'test.gml') as f:
    f.write(...)`` kept in front of ``nx.parse_gml(gml)``. Names of builtins link nothing.
    A global effect (``sys.setrecursionlimit(50)``) shares no name either, so this is a
    second program beside the whole one, never in its place: the run decides.

    A builtin's name a statement binds links as any other (``input = 12345`` before
    ``parse(input)``); ``reads`` are names the expectation reads (``pytest.raises(exc)``
    checks the class ``exc = ValueError`` binds); of the first ``setup`` statements (the
    class's set-up) an assignment that calls anything stays."""
    cut = len(statements) - keep_last
    bound: set[str] = set()
    for stmt in statements:
        bound |= bound_names(stmt)
    unlinked = _BUILTINS - bound
    kept: list[ast.stmt] = []
    read = (used_names(statements[cut:]) | reads) - unlinked
    for i in reversed(range(cut)):
        stmt = statements[i]
        names = (used_names([stmt]) | bound_names(stmt)) - unlinked
        if not names & read and not (i < setup and _assigns_a_call(stmt)):
            continue
        kept.append(stmt)
        read |= used_names([stmt]) - unlinked
    return [*reversed(kept), *statements[cut:]]
