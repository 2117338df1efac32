"""Methods the library calls and users do not: hooks, read from the syntax tree.

Blind review of stop 39 judged "Catch BdbQuit around the call to `Bdb.trace_dispatch()`"
(installed by ``sys.settrace``), "Public callers: `UndeclaredNameVisitor.visit_Name`"
(run by ``NodeVisitor.visit`` through ``getattr(self, f"visit_{…}")``), "around the call to
`Failure.__call__()`" (a ``jinja2.lexer`` object the lexer stores and calls) and
``FilterVisibilityController.startContainer`` (called only from an expat handler)
misleading, again and again: no user calls them. A method is a hook here when:

- ``dispatched``: a class of its lineage looks it up by a name built from a literal
  prefix, ``getattr(self, 'do_' + cmd)`` (``cmd.Cmd``), ``getattr(self,
  f"visit_{…}")`` (``NodeVisitor``), or a local bound so (``mname = 'do_' + …``), and
  the library calls no method of that name directly (jinja2's ``parse_expression``,
  which ``getattr(self, f"parse_{…}")`` could also reach, is called so and stays), nor
  exports it or its class (``getattr(self, 'to' + format)`` does not hide an exported
  ``Matrix.total``);
- ``registered``: a method of its lineage hands ``self.<name>`` (not called) to the
  interpreter (``sys.settrace``/``setprofile``, ``threading``'s) or stores it in a
  parser's ``…Handler`` slot (``parser.StartElementHandler = self.start_element_handler``),
  and no exact call of it is in the library; another attribute store is no install
  (``_method.register = self.register`` hands users ``register``);
- ``held``: the ``__call__`` of a class the library builds (an exact call of its
  constructor) that no package or ``__all__`` exports, no function returns, and no
  public name reaches (``email.headerregistry.HeaderRegistry`` is documented);
- ``below``: a method the library calls only from ``registered`` hooks or from methods
  below them (exact calls, at least one): ``Bdb.dispatch_exception``, from
  ``trace_dispatch`` alone.

A hook is no public way in (:class:`.entrypoints.PublicApi`): the walk goes on to its
resolved callers, and what calls none names no call. Answers are kept per depth (how far
callers are still followed), and one reached through a method still being decided (a
cycle) is not kept: either, kept as the method's, made the next question's answer depend
on which was asked first.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from .ancestors import lineage
from .direct_calls import called_names
from .facts import FuncFacts, dotted
from .file_trees import module_tree
from .repo import RepoIndex

if TYPE_CHECKING:
    from .callsites import CallSite

__all__ = ["HookMethods"]

#: Calls that install a function the interpreter runs (the last part of the name).
_INSTALLERS = frozenset({"settrace", "setprofile"})
_Function = ast.FunctionDef | ast.AsyncFunctionDef
#: Kinds whose callees are reached through them alone (``below``).
_INSTALLED = frozenset({"registered", "below"})
#: Hooks above hooks followed, at most (``below``).
_MAX_BELOW = 4


class _ClassHooks:
    """What one class's own methods do with ``self``'s names."""

    def __init__(self) -> None:
        self.prefixes: set[str] = set()  # ``getattr(self, 'do_' + …)``
        self.registered: set[str] = set()  # ``sys.settrace(self.trace_dispatch)``


class HookMethods:
    """Decides, once per method, whether it is a hook (its kind) or not (None)."""

    def __init__(
        self,
        index: RepoIndex,
        callers: Mapping[str, Sequence[tuple[FuncFacts, CallSite]]],
        exported: Callable[[str], bool],
        handed: Callable[[], set[str]],
    ) -> None:
        self.index = index
        self.callers = callers
        self.exported = exported
        self.handed = handed
        self._classes: dict[str, _ClassHooks] = {}
        #: (method, depth) -> its kind: how far the callers are followed is part of it
        self._memo: dict[tuple[str, int], str | None] = {}
        self._open: set[str] = set()  # being decided: a cycle of callers
        self._cut = False  # the answer being made met a method still being decided
        self._called: frozenset[str] | None = None

    def __call__(self, qualname: str) -> bool:
        return self.kind(qualname) is not None

    def kind(self, qualname: str, depth: int = 0) -> str | None:
        """The hook kind, or None; the same whatever was asked before (finding 6)."""
        key = (qualname, depth)
        if key in self._memo:
            return self._memo[key]
        if qualname in self._open:
            self._cut = True  # a cycle of callers decides nothing, here
            return None
        outer_cut, self._cut = self._cut, False
        self._open.add(qualname)
        try:
            found = self._decide(qualname, depth)
        finally:
            self._open.discard(qualname)
        if not self._cut:
            self._memo[key] = found
        self._cut = self._cut or outer_cut
        return found

    def _decide(self, qualname: str, depth: int) -> str | None:
        cls, _, name = qualname.rpartition(".")
        if cls not in self.index.classes or self._is_test(cls):
            return None
        if name == "__call__":
            return "held" if self._held(cls) else None
        if name.startswith("__"):
            return None
        classes = lineage(self.index, cls)
        read = [self._class(c) for c in classes if c in self.index.classes]
        built = any(name.startswith(p) and len(name) > len(p) for r in read for p in r.prefixes)
        if built and not self._direct(cls, qualname, name):
            return "dispatched"
        defined = self.index.method(cls, name) or qualname  # ``Pdb`` runs ``Bdb``'s
        callers = [c for c, _ in self.callers.get(defined, ()) if not c.is_test]
        if not callers:
            return "registered" if any(name in r.registered for r in read) else None
        if depth >= _MAX_BELOW:
            return None
        # only below what the interpreter or a parser runs: a method ``do_*`` commands
        # call (``Bdb.set_break``, from ``Pdb.do_break``) is an API of its own too
        if all(self.kind(c.qualname, depth + 1) in _INSTALLED for c in callers):
            return "below"
        return None

    def _direct(self, cls: str, qualname: str, name: str) -> bool:
        """Called by its name somewhere in the library, or exported (it or its class):
        a way in of its own, whatever else looks it up by a built name."""
        if self._called is None:
            self._called = called_names(self.index)
        return name in self._called or self.exported(qualname) or self.exported(cls)

    def _is_test(self, cls: str) -> bool:
        facts = self.index.classes[cls]
        module = self.index.modules.get(facts.module)
        return module is None or module.is_test

    def _held(self, cls: str) -> bool:
        """The library builds it, and nothing hands it to users by name or by return."""
        if self.exported(cls) or cls in self.handed() or _public_path(cls):
            return False
        built = (f"{cls}.__init__", f"{cls}.__new__")
        return any(not c.is_test for q in built for c, _ in self.callers.get(q, ()))

    def _class(self, cls: str) -> _ClassHooks:
        found = self._classes.get(cls)
        if found is None:
            found = self._classes[cls] = _read_class(self.index, cls)
        return found


def _read_class(index: RepoIndex, cls: str) -> _ClassHooks:
    out = _ClassHooks()
    facts = index.classes[cls]
    module = index.modules.get(facts.module)
    if module is None or not index.root:
        return out
    tree = module_tree(os.path.join(index.root, module.rel))
    node = None
    for found in ast.walk(tree) if tree is not None else ():
        if isinstance(found, ast.ClassDef) and (found.name, found.lineno) == (
            facts.name,
            facts.line,
        ):
            node = found
            break
    for func in node.body if node is not None else ():
        if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) and func.args.args:
            _read_method(func, func.args.args[0].arg, out)
    return out


def _read_method(func: _Function, me: str, out: _ClassHooks) -> None:
    """Adds the prefixes ``func`` looks ``me``'s methods up by, and the methods of ``me``
    it registers."""
    built: dict[str, str] = {}  # local -> the literal prefix of the name it is bound to
    for sub in ast.walk(func):
        if isinstance(sub, ast.Assign) and len(sub.targets) == 1:
            target = sub.targets[0]
            prefix = _prefix(sub.value)
            if isinstance(target, ast.Name) and prefix:
                built[target.id] = prefix
            name = _own_method(sub.value, me)
            if name and _handler_slot(target, me):
                out.registered.add(name)  # ``parser.StartElementHandler = self.handler``
        if not isinstance(sub, ast.Call):
            continue
        head = dotted(sub.func)
        if head == ("getattr",) and len(sub.args) >= 2 and dotted(sub.args[0]) == (me,):
            key = sub.args[1]
            prefix = built.get(key.id, "") if isinstance(key, ast.Name) else _prefix(key)
            if prefix:
                out.prefixes.add(prefix)
        elif head and head[-1] in _INSTALLERS:
            out.registered.update(n for a in sub.args if (n := _own_method(a, me)))


def _handler_slot(target: ast.expr, me: str) -> bool:
    """``parser.StartElementHandler``: a slot another object's parser calls (pyexpat's
    are all named so); ``_method.register`` is only an attribute users may read."""
    return (
        isinstance(target, ast.Attribute)
        and target.attr.endswith("Handler")
        and dotted(target.value) != (me,)
    )


def _public_path(cls: str) -> bool:
    """Importable under a public name: no part of the module path or class name is
    private (``email.headerregistry.HeaderRegistry``)."""
    return not any(p.startswith("_") and p not in ("__init__", "__main__") for p in cls.split("."))


def _prefix(node: ast.expr) -> str:
    """The literal start of a name built at run time: ``'do_' + cmd``,
    ``f"visit_{…}"``, ``'http_error_%s' % code``; empty for anything else."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        left = node.left
        if not (isinstance(left, ast.Constant) and isinstance(left.value, str)):
            return ""
        text = left.value
        if isinstance(node.op, ast.Mod):
            text = text.split("%")[0] if "%" in text else ""
        return text if text.strip("_") else ""
    if isinstance(node, ast.JoinedStr) and len(node.values) > 1:
        first = node.values[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value if first.value.strip("_") else ""
    return ""


def _own_method(node: ast.expr, me: str) -> str | None:
    """``self.<name>`` read as a value: the name."""
    if not (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load)):
        return None
    value = node.value
    return node.attr if isinstance(value, ast.Name) and value.id == me else None
