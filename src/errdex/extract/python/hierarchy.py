"""Classes of the repository as Python looks names up in them: bases, MRO, attributes.

A message built by ``self.make_error(...)`` or by a base class's ``__init__`` is only
known when the lookup the interpreter would do is followed: the method or ``__init__``
found first along the class's MRO (C3, builtins included), the class attribute the
nearest class defines. A base that cannot be resolved (a class of another package, a
computed base) ends the lookup: what lies past it is unknown, so nothing is guessed.
"""

from __future__ import annotations

import ast
import builtins
from dataclasses import dataclass

from .messages import MessageBuilder
from .project import current_project

__all__ = [
    "ClassRef",
    "HierarchyReader",
    "Node",
    "class_attribute",
    "class_binding",
    "defines",
    "method_of",
]

#: Bases that add nothing to an exception's message or its methods' lookup.
_INERT_BASES = frozenset(
    {
        "object",
        "builtins.object",
        "typing.Generic",
        "typing.Protocol",
        "typing_extensions.Protocol",
        "abc.ABC",
    }
)
_BUILTIN_TYPES: dict[str, type] = {
    name: obj for name, obj in vars(builtins).items() if isinstance(obj, type)
}


@dataclass(frozen=True, eq=False)
class ClassRef:
    """A class defined in the repository, and the reader of the module that defines it."""

    reader: HierarchyReader
    node: ast.ClassDef

    @property
    def qualified(self) -> str:
        return f"{self.reader.module}.{self.node.name}"


#: An MRO entry: a repository class, or a builtin type (``ValueError``, ``object``).
Node = ClassRef | type


class HierarchyReader(MessageBuilder):
    """Finds the repository's classes by qualified name and reads their MRO."""

    def _index_module(self, tree: ast.Module) -> None:
        super()._index_module(tree)
        for base in self.star_imports:
            self._import_star(base)

    def _import_star(self, base: str) -> None:
        """``from .errors import *``: the names that module exports (its ``__all__``, else
        its public functions, classes and imports) become imports here, unless this module
        defines the name itself."""
        other = self.reader_of(base)
        if other is None or other is self:
            return
        names = other.exported
        if names is None:
            names = [
                n
                for n in [*other.functions, *other.classes, *other.imports]
                if not n.startswith("_")
            ]
        for name in names:
            if name in self.functions or name in self.classes or name in self.imports:
                continue
            self.imports[name] = other.imports.get(name, f"{other.module}.{name}")

    def reader_of(self, module: str) -> HierarchyReader | None:
        """This module, or another one of the same repository (None: not readable here)."""
        if module == self.module:
            return self
        project = current_project()
        if project is None:
            return None
        other = project.reader(module, self)
        return other if isinstance(other, HierarchyReader) else None

    def class_ref(self, qualified: str, depth: int = 0) -> ClassRef | None:
        """The repository class a qualified name means, through re-exports."""
        module, _, name = qualified.rpartition(".")
        if not module or depth > 4:
            return None
        reader = self.reader_of(module)
        if reader is None:
            return None
        node = reader.classes.get(name)
        if node is not None:
            return ClassRef(reader, node)
        imported = reader.imports.get(name)
        if imported is not None and imported != qualified:
            return reader.class_ref(imported, depth + 1)
        return None

    def base_node(self, expr: ast.expr, depth: int) -> Node | None:
        """What one base expression of a class of this module is (None: unknown)."""
        if isinstance(expr, ast.Subscript):  # ``Generic[T]``, ``Field[str]``
            expr = expr.value
        qualified = self.qualify(expr)
        if "." not in qualified and qualified not in self.classes:
            qualified = f"builtins.{qualified}"  # ``str``, ``dict``: a builtin not rebound here
        if qualified in _INERT_BASES:
            return object
        if qualified.startswith("builtins."):
            return _BUILTIN_TYPES.get(qualified.removeprefix("builtins."))
        return self.class_ref(qualified, depth) if "." in qualified else None

    def mro(self, ref: ClassRef, depth: int = 0) -> list[Node] | None:
        """``type.__mro__`` of a repository class, or None where a base is unknown."""
        cache: dict[int, list[Node] | None] = self.__dict__.setdefault("_mro_cache", {})
        key = id(ref.node)
        if key not in cache:
            cache[key] = None  # a class deriving from itself stops here
            cache[key] = self._mro(ref, depth)
        return cache[key]

    def _mro(self, ref: ClassRef, depth: int) -> list[Node] | None:
        if depth > 16:
            return None
        linearized: list[list[Node]] = []
        bases: list[Node] = []
        for expr in ref.node.bases:
            base = ref.reader.base_node(expr, 0)
            if base is None:
                return None
            bases.append(base)
            if isinstance(base, ClassRef):
                above = base.reader.mro(base, depth + 1)
                if above is None:
                    return None
                linearized.append(above)
            else:
                linearized.append(list(base.__mro__))
        if not bases:
            bases = [object]
            linearized = [[object]]
        merged = _c3([*linearized, bases])
        return None if merged is None else [ref, *merged]

    def known_ancestors(self, ref: ClassRef) -> list[ClassRef]:
        """``ref`` and the repository classes above it that its bases resolve to, as far as
        they do: what the interpreter would certainly run of the class even where a base
        further up is unknown (``SAXException``'s own ``__str__`` under a base the module
        may rebind)."""
        seen: list[ClassRef] = []
        todo = [ref]
        while todo and len(seen) < 32:
            here = todo.pop(0)
            if any(here.node is s.node for s in seen):
                continue
            seen.append(here)
            for expr in here.node.bases:
                base = here.reader.base_node(expr, 0)
                if isinstance(base, ClassRef):
                    todo.append(base)
        return seen

    def own_builder(self, ref: ClassRef) -> tuple[ClassRef, str] | None:
        """A class of the repository above ``ref`` (or itself) that defines ``__init__`` or
        ``__str__``, with the method: where a base further up is unknown, the builtin's
        rendering of the constructor's arguments is only sure without one."""
        for node in self.known_ancestors(ref):
            for method in ("__init__", "__str__"):
                if defines(node, method):
                    return node, method
        return None

    def certainly_exception(self, expr: ast.expr) -> bool:
        """Whether a class expression certainly names an exception class: a builtin one not
        rebound in this module, or a repository class whose MRO, read through to the end,
        holds ``BaseException``. A name only shaped like a class, or one whose bases lead
        out of the repository, is not certain."""
        qualified = self.qualify(expr)
        if qualified.startswith("builtins."):
            found = _BUILTIN_TYPES.get(qualified.removeprefix("builtins."))
            return found is not None and issubclass(found, BaseException)
        ref = self.class_ref(qualified) if "." in qualified else None
        above = self.mro(ref) if ref is not None else None
        return above is not None and BaseException in above

    def subclasses(self, ref: ClassRef) -> list[ClassRef]:
        """Classes of ``ref``'s own module that derive from it, nearest first."""
        reader = ref.reader
        out: list[ClassRef] = []
        for node in reader.classes.values():
            if node is ref.node:
                continue
            candidate = ClassRef(reader, node)
            above = reader.mro(candidate)
            if above is not None and any(
                isinstance(n, ClassRef) and n.node is ref.node for n in above
            ):
                out.append(candidate)
        return out


def defines(node: Node, name: str) -> bool:
    """Whether a class's own body defines ``name`` (a method or an attribute)."""
    if isinstance(node, ClassRef):
        return class_attribute(node, name) is not None or (node.node.name, name) in (
            node.reader.methods
        )
    return name in vars(node)


def method_of(node: ClassRef, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    return node.reader.methods.get((node.node.name, name))


def class_attribute(node: ClassRef, name: str) -> ast.expr | None:
    """The value a class body assigns to ``name`` (the last assignment), or None."""
    stmt = class_binding(node, name)
    return stmt.value if stmt is not None else None


def class_binding(node: ClassRef, name: str) -> ast.Assign | ast.AnnAssign | None:
    """The last statement of a class body that binds ``name`` to a value."""
    found: ast.Assign | ast.AnnAssign | None = None
    for stmt in node.node.body:
        if (
            isinstance(stmt, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)
        ) or (
            isinstance(stmt, ast.AnnAssign)
            and isinstance(stmt.target, ast.Name)
            and stmt.target.id == name
            and stmt.value is not None
        ):
            found = stmt
    return found


def _same(a: Node, b: Node) -> bool:
    if isinstance(a, ClassRef) and isinstance(b, ClassRef):
        return a.node is b.node
    return a is b


def _c3(sequences: list[list[Node]]) -> list[Node] | None:
    """The C3 merge Python uses for ``__mro__``; None when no consistent order exists."""
    seqs = [list(s) for s in sequences if s]
    out: list[Node] = []
    while seqs:
        for seq in seqs:
            head = seq[0]
            if not any(any(_same(head, n) for n in s[1:]) for s in seqs):
                break
        else:
            return None
        out.append(head)
        seqs = [[n for n in s if not _same(n, head)] for s in seqs]
        seqs = [s for s in seqs if s]
    return out
