"""The names a ``namedtuple(...)`` base binds, where its fields are written out.

``urllib.parse.ParseResult(_ParseResultBase, _NetlocResultMixinStr)`` inherits the
mixin's ``port``: the base before it is ``namedtuple('ParseResult', 'scheme netloc
path params query fragment')``, a class outside the repository whose names are known
all the same, so :mod:`.heir_lookup` may look past it for a name it does not bind.
"""

from __future__ import annotations

import ast
import os

from .file_trees import module_tree
from .repo import RepoIndex

__all__ = ["namedtuple_names"]

#: What every ``namedtuple`` class binds besides its fields (``tuple``'s own included).
_ALWAYS = frozenset(
    {"_make", "_replace", "_asdict", "_fields", "_field_defaults", "count", "index"}
)


def namedtuple_names(index: RepoIndex, base: str) -> frozenset[str] | None:
    """The non-special names bound by ``base`` (``module.name``, a top-level name bound
    once to ``namedtuple(name, fields)`` with the fields as constants); None where
    ``base`` is no such class or its fields are not written out."""
    module_name, _, name = base.rpartition(".")
    module = index.modules.get(module_name)
    if module is None or not index.root or module.bound_calls.get(name, ())[-1:] != ("namedtuple",):
        return None
    tree = module_tree(os.path.join(index.root, module.rel))
    for node in tree.body if tree is not None else ():
        if (
            isinstance(node, ast.Assign)
            and [t.id for t in node.targets if isinstance(t, ast.Name)] == [name]
            and isinstance(node.value, ast.Call)
        ):
            fields = _fields(node.value)
            return None if fields is None else _ALWAYS | fields
    return None


def _fields(call: ast.Call) -> frozenset[str] | None:
    """``namedtuple``'s field names, as a string or a list or tuple of strings."""
    if len(call.args) != 2 or any(k.arg == "rename" for k in call.keywords):
        return None
    arg = call.args[1]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return frozenset(arg.value.replace(",", " ").split())
    if isinstance(arg, (ast.List, ast.Tuple)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in arg.elts
    ):
        return frozenset(e.value for e in arg.elts)  # type: ignore[attr-defined]
    return None
