"""Reproducers for a raise that no condition guards, in a public method or function: the
plainest call of it (``AbstractEventLoop().stop()``, ``Codec().decode(None)``).

A base class's method that only raises ``NotImplementedError``, a ``__reduce_ex__`` that
refuses pickling, a deprecated function that warns on entry: any call that gets into the
body raises there, yet the tests call such methods on the subclasses that override them, so
no test's call reaches the line, and :mod:`.from_guards` has no test call to rewrite. Here
the ``def`` is read (not run): the object is made with ``None`` for each argument its own
``__init__`` requires (none when it has no ``__init__`` of its own), and the method is
called, or the property read, with ``None`` for each argument it requires; a coroutine
runs under ``asyncio.run``. A class that cannot be instantiated (an ``ABC`` with abstract
methods) is left out. As every candidate, it counts only when the sandbox says it raised
this record's error at its line.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

from ._source_tree import source_tree
from .from_tests import Candidate, module_of

__all__ = ["PLAIN", "method_candidates", "plain_call", "plain_sources"]

#: How every candidate built here names itself (``Candidate.test`` starts with it).
PLAIN = "errdex's plain call of"

_Function = ast.FunctionDef | ast.AsyncFunctionDef
_ABSTRACT = frozenset({"abstractmethod", "abstractproperty"})


def _public(name: str) -> bool:
    return not name.startswith("_") or (name.startswith("__") and name.endswith("__"))


def _decorators(func: _Function) -> set[str]:
    out = set()
    for node in func.decorator_list:
        target = node.func if isinstance(node, ast.Call) else node
        if isinstance(target, ast.Name):
            out.add(target.id)
        elif isinstance(target, ast.Attribute):
            out.add(target.attr)
    return out


def _nones(func: _Function, bound: bool) -> str:
    """``None`` for each argument ``func`` requires, keyword-only ones by name; the first
    positional one skipped for a method of an object or a class."""
    args = func.args
    positional = [*args.posonlyargs, *args.args][1 if bound else 0 :]
    required = positional[: len(positional) - len(args.defaults)] if args.defaults else positional
    said = ["None"] * len(required)
    said += [
        f"{a.arg}=None" for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is None
    ]
    return ", ".join(said)


def _abstract(cls: ast.ClassDef) -> bool:
    """Whether the class cannot be instantiated as it is: abstract methods of its own, or
    ``ABC``/``ABCMeta`` named in its bases (whose abstract methods are not read here)."""
    named = {
        ast.unparse(b).rsplit(".", 1)[-1] for b in [*cls.bases, *(k.value for k in cls.keywords)]
    }
    if named & {"ABC", "ABCMeta"}:
        return True
    return any(
        isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)) and _decorators(f) & _ABSTRACT
        for f in cls.body
    )


def _defined(body: list[ast.stmt], name: str) -> _Function | None:
    found = None
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == name:
            found = stmt  # the last definition wins, as at run time (a property's setter)
    return found if found is None or "setter" not in _decorators(found) else None


def plain_call(tree: ast.Module, module: str, names: list[str]) -> str | None:
    """The program calling ``names`` (``[function]`` or ``[Class, method]``) of ``module``
    plainly, or None where that is not a public, instantiable, top-level definition."""
    if not names or not all(_public(n) for n in names) or names[0].startswith("__"):
        return None
    if len(names) == 1:
        func = _defined(tree.body, names[0])
        if func is None or func.name == "__getattr__":
            return None
        call, owner = f"{func.name}({_nones(func, False)})", func.name
    elif len(names) == 2:
        cls = next(
            (s for s in tree.body if isinstance(s, ast.ClassDef) and s.name == names[0]), None
        )
        func = _defined(cls.body, names[1]) if cls is not None else None
        if cls is None or func is None or _abstract(cls) or func.name == "__init__":
            return None
        made = _defined(cls.body, "__init__")
        obj = f"{cls.name}({_nones(made, True) if made is not None else ''})"
        kinds = _decorators(func)
        if kinds & {"staticmethod", "classmethod"}:
            bound = "classmethod" in kinds
            call = f"{cls.name}.{func.name}({_nones(func, bound)})"
        elif kinds & {"property", "cached_property"}:
            call = f"{obj}.{func.name}"
        else:
            call = f"{obj}.{func.name}({_nones(func, True)})"
        owner = cls.name
    else:
        return None
    lines = [f"from {module} import {owner}"]
    if isinstance(func, ast.AsyncFunctionDef):
        lines = ["import asyncio", *lines, f"asyncio.run({call})"]
    else:
        lines.append(call)
    return "\n".join(lines) + "\n"


@lru_cache(maxsize=256)
def _tree(file: Path) -> ast.Module | None:
    return source_tree(file)


def _plain(env: dict[str, Any], file_of: Callable[[str], Path | None]) -> tuple[str, str] | None:
    """(program, the dotted name it calls) for the record's raising function, or None."""
    site = (env.get("evidence") or {}).get("site") or {}
    path = str(env["record"].get("filePath") or "")
    module = module_of(path)
    qualname = str(site.get("qualname") or "")
    if not module or not qualname.startswith(module + "."):
        return None
    file = file_of(path)
    tree = _tree(file) if file is not None else None
    names = qualname[len(module) + 1 :].split(".")
    program = plain_call(tree, module, names) if tree is not None else None
    return None if program is None else (program, ".".join(names))


def method_candidates(
    envelopes: Iterable[dict[str, Any]], file_of: Callable[[str], Path | None]
) -> Iterator[Candidate]:
    """A plain call for each record whose raise no condition guards, in a public function
    or a public method of a public class defined at the top of its module."""
    for env in envelopes:
        record = env["record"]
        if ((env.get("evidence") or {}).get("site") or {}).get("guards"):
            continue
        found = _plain(env, file_of)
        if found is None:
            continue
        yield Candidate(
            found[0],
            f"{PLAIN} `{found[1]}` (the raise has no condition)",
            str(record.get("filePath") or ""),
            int(record.get("lineNumber") or 0),
            "guard",
            str(record.get("errorClass") or "").endswith("Warning"),
            for_record=str(record.get("id") or ""),
        )


def plain_sources(
    envelopes: Iterable[dict[str, Any]], file_of: Callable[[str], Path | None]
) -> list[Candidate]:
    """The plain call of each guarded record's raising function, as a test's body
    (kind ``body``) that :mod:`.from_guards` may rewrite with values that make the guards
    true: a function no test calls gets its calls built all the same."""
    out: dict[str, Candidate] = {}
    for env in envelopes:
        if not ((env.get("evidence") or {}).get("site") or {}).get("guards"):
            continue
        found = _plain(env, file_of)
        if found is not None and found[0] not in out:
            path = str(env["record"].get("filePath") or "")
            test = f"{PLAIN} `{found[1]}`"
            out[found[0]] = Candidate(found[0], test, path, 0, "body", False)
    return list(out.values())
