"""A module function that only ever returns a new instance of one class of the repository.

``doctest.DocFileSuite`` calls ``suite.addTest(DocFileTest(path, **kw))``, and
``DocFileTest`` ends with ``return DocFileCase(test, **options)``, its one ``return``:
``addTest``'s "TestCases and TestSuites must be instantiated" (``isinstance(test, type)
and …``) cannot fire, yet ``DocFileSuite`` was named a way to it (blind review stop 36,
record 3e4ae74c9f619235: false, run). :func:`.fixed_args.made_value` knew a class called
by name (``DocTestCase(test)``); a call of such a function gives the same: an instance,
no class and no ``None``. Only a function of the module's top level (a method may be
overridden), with no decorator, no ``yield``, no ``async``, not replaced by a later
import of C code, whose every ``return`` gives a call of the same class (or a local it
bound once to one) that is no parameter or local of it, and whose last statement is a
``return`` or ``raise`` (it never ends by falling off, returning ``None``). The name must
be bound once at the module's top level (:mod:`.top_binds`): of ``def make(): return
Case()`` then ``def make(): return Case``, or a ``def`` per branch of an ``if``, the
index shows one definition, not the one that runs.
"""

from __future__ import annotations

import ast
import os

from .facts import FuncFacts
from .file_trees import function_node
from .repo import RepoIndex, Target
from .top_binds import STAR, top_bindings

__all__ = ["factory_class", "returned_class"]


def factory_class(index: RepoIndex, qualname: str) -> Target | None:
    """The class every call of the function ``qualname`` returns a new instance of (as
    the class's own call gives it, which the caller still judges); None where not shown."""
    func = index.function(qualname)
    module = index.modules.get(func.module) if func is not None else None
    if func is None or module is None or func.cls is not None or func.parent is not None:
        return None
    if func.decorators or func.is_generator or func.is_async or func.name in module.shadowed:
        return None
    cls = returned_class(index, func)
    if cls is None or not index.root:
        return None
    path = os.path.join(index.root, module.rel)
    bound = top_bindings(path)
    if bound is None or bound[func.name] != 1 or bound[STAR]:
        return None  # defined again, per branch, or bound otherwise too (.top_binds)
    node = function_node(path, func.line, func.name)
    if node is None or not isinstance(node.body[-1], (ast.Return, ast.Raise)):
        return None  # it may end by falling off, returning ``None``
    return Target("class", cls)


def returned_class(index: RepoIndex, func: FuncFacts) -> str | None:
    """The one class of the repository that every ``return`` of ``func`` calls by name,
    a name that is no parameter or local of it; None where a return gives anything else."""
    found: set[str] = set()
    params = {p.lstrip("*") for p in func.params}
    for values in func.returns or ((None,),):
        ref = values[0] if len(values) == 1 else None
        if ref is None or not ref[0] or ref[0] in func.bound_lines or ref[0] in params:
            return None
        target = index.resolve(func.module, ref, func.local_imports)
        if target is None or target.kind != "class":
            return None
        found.add(target.qualname)
    return found.pop() if len(found) == 1 else None
