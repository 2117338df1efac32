"""Which names keep one value for the whole run: what a check on the caller's arguments
may compare them with and still be decided by those arguments alone.

Review rr6 found :mod:`.arg_decided` calling ``validation`` what state decides: a
``REGISTRY = {}`` that ``register()`` fills, a ``known = []`` local that
``known.extend(os.listdir(...))`` fills, ``os.environ``. A name counts as fixed only when
it is bound once to a literal and nothing in the code that binds it changes it: no
method call other than a read, no item or attribute store, no ``global`` rebinding, no
augmented assignment, and it is not handed to a call that is not a pure builtin.
"""

from __future__ import annotations

import ast
from functools import lru_cache

__all__ = [
    "PURE_BUILTINS",
    "changed_names",
    "module_assigned",
    "module_constants",
    "module_imports",
]

#: Builtins that read their arguments and nothing else (no ``open``, ``input``, ``next``).
PURE_BUILTINS = frozenset(
    {
        "len",
        "isinstance",
        "issubclass",
        "type",
        "str",
        "int",
        "float",
        "bool",
        "bytes",
        "tuple",
        "frozenset",
        "repr",
        "callable",
        "min",
        "max",
        "abs",
        "any",
        "all",
        "sorted",
        "ord",
        "chr",
        "hasattr",
        "round",
    }
)
#: Methods that only read the object they are called on.
_READS = frozenset(
    {"get", "keys", "values", "items", "copy", "count", "index", "startswith", "endswith"}
    | {"lower", "upper", "strip", "isdigit", "isidentifier", "issubset", "issuperset"}
    | {"match", "fullmatch", "search", "group", "format", "join", "split"}
)


def _root(node: ast.expr) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def changed_names(node: ast.AST) -> set[str]:
    """Names whose object the code under ``node`` may change: ``x.append(...)``, ``x[k] =
    v``, ``x.a = v``, ``del x[k]``, ``x += y``, ``global x`` (then bound elsewhere), or
    ``x`` handed to a call other than a pure builtin."""
    out: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            func = sub.func
            if isinstance(func, ast.Attribute) and func.attr not in _READS:
                root = _root(func.value)
                if root is not None:
                    out.add(root)
            if not (isinstance(func, ast.Name) and func.id in PURE_BUILTINS):
                for arg in (*sub.args, *(k.value for k in sub.keywords)):
                    if isinstance(arg, (ast.Name, ast.Starred)):
                        root = _root(arg.value if isinstance(arg, ast.Starred) else arg)
                        if root is not None:
                            out.add(root)
        elif isinstance(sub, (ast.Subscript, ast.Attribute)) and isinstance(
            sub.ctx, (ast.Store, ast.Del)
        ):
            root = _root(sub.value)
            if root is not None:
                out.add(root)
        elif isinstance(sub, ast.AugAssign) and isinstance(sub.target, ast.Name):
            out.add(sub.target.id)
        elif isinstance(sub, ast.Global):
            out.update(sub.names)
    return out


def _literal(node: ast.expr) -> bool:
    """A literal of constants: ``1``, ``"a"``, ``(1, 2)``, ``{"a": 1}``, ``frozenset({…})``."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return all(_literal(e) for e in node.elts)
    if isinstance(node, ast.Dict):
        return all(k is not None and _literal(k) for k in node.keys) and all(
            _literal(v) for v in node.values
        )
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id == "frozenset" and not node.keywords and all(map(_literal, node.args))
    return False


def _top_stores(tree: ast.Module) -> dict[str, list[ast.stmt]]:
    """Module-level statements that bind each name (in ``if``/``try`` blocks too)."""
    out: dict[str, list[ast.stmt]] = {}
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        stmt = todo.pop()
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.setdefault(stmt.name, []).append(stmt)
            continue
        for sub in ast.walk(stmt):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, (ast.Store, ast.Del)):
                out.setdefault(sub.id, []).append(stmt)
    return out


@lru_cache(maxsize=64)
def module_constants(tree: ast.Module) -> frozenset[str]:
    """Module-level names bound once, by ``=`` to a literal, that no code in the module
    changes (:func:`changed_names`); a list, dict or set only under a CONSTANT's name (a
    ``_registry = {}`` is filled from elsewhere, ``copyreg._extension_registry``)."""
    changed = changed_names(tree)
    out: set[str] = set()
    for name, stmts in _top_stores(tree).items():
        if len(stmts) != 1 or name in changed:
            continue
        stmt = stmts[0]
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and _literal(stmt.value):
            target = stmt.targets[0]
            mutable = isinstance(stmt.value, (ast.List, ast.Dict, ast.Set))
            if (
                isinstance(target, ast.Name)
                and target.id == name
                and (not mutable or name.strip("_").isupper())
            ):
                out.add(name)
    return frozenset(out)


@lru_cache(maxsize=64)
def module_assigned(tree: ast.Module) -> frozenset[str]:
    """Module-level names some statement other than ``def``/``class`` binds."""
    return frozenset(
        name
        for name, stmts in _top_stores(tree).items()
        if any(
            not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) for s in stmts
        )
    )


@lru_cache(maxsize=64)
def module_imports(tree: ast.Module) -> frozenset[str]:
    """Names bound by ``import x`` / ``import x.y as z``: modules, whose attributes are
    the interpreter's state unless named as constants (``sys.modules``, ``os.environ``)."""
    out: set[str] = set()
    for sub in ast.walk(tree):
        if isinstance(sub, ast.Import):
            out.update((a.asname or a.name.partition(".")[0]) for a in sub.names)
    return frozenset(out)
