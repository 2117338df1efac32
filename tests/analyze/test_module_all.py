"""A module's ``__all__`` as its statements build it (:mod:`errdex.analyze.module_all`)."""

from __future__ import annotations

import ast

from errdex.analyze.facts import ModuleFacts
from errdex.analyze.module_all import note_all


def _facts(text: str) -> ModuleFacts:
    facts = ModuleFacts(name="m", rel="m.py", path="m.py", is_test=False, is_package=False)
    for stmt in ast.parse(text).body:
        if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.Expr)):
            note_all(stmt, facts)
    return facts


def test_names_os_appends_and_extends_are_listed() -> None:
    facts = _facts(
        '__all__ = ["sep"]\n'
        '__all__.extend(["makedirs", "removedirs"])\n'
        '__all__.append("popen")\n'
        '__all__ += ["walk"]\n'
    )
    assert facts.all_names == ("sep", "makedirs", "removedirs", "popen", "walk")
    assert not facts.all_partial


def test_an_extension_no_reading_can_list_leaves_the_list_open() -> None:
    # ``socket``: what ``_socket`` exports (its ``socket`` among them) is added at run time
    facts = _facts('__all__ = ["fromfd"]\n__all__.extend(os._get_exports_list(_socket))\n')
    assert facts.all_names == ("fromfd",)
    assert facts.all_partial
    # without an ``__all__`` first, an append (of another list) binds nothing
    assert _facts('__all__.append("x")\n').all_names is None
