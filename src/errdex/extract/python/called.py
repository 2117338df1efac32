"""Exception classes called by names that do not look like classes.

``raise error("too many groups")`` in ``re._parser`` calls the class ``error`` that
``from ._constants import *`` brought in; ``raise self.error("…")`` in ``imaplib`` calls the
class ``IMAP4.error`` nested in the class body; ``raise self.failureException(msg)`` in
``unittest`` calls ``AssertionError`` through a class attribute. Each is a construction,
not a helper: the message is what the class makes of the arguments.
"""

from __future__ import annotations

import ast
import builtins

from .builtin_str import builtin_class
from .hierarchy import ClassRef, HierarchyReader, class_attribute, method_of
from .params import parameter_names
from .scope import Scope

__all__ = ["NestedClass", "called_class", "is_parameter", "self_class"]


def called_class(reader: HierarchyReader, func: ast.expr, scope: Scope) -> str | None:
    """The exception class a call constructs when its name is bound to one at module
    level (``error`` star-imported from ``re._constants``, ``error = OSError``) and no
    local binding or parameter shadows it; None otherwise."""
    if not isinstance(func, ast.Name) or func.id in scope.env or func.id in reader.functions:
        return None
    if is_parameter(func.id, scope):
        return None
    qualified = reader.qualify(func)
    if "." not in qualified:
        return None
    if qualified.startswith("builtins."):
        return qualified if builtin_class(qualified) is not None else None
    return qualified if reader.class_ref(qualified) is not None else None


class NestedClass:
    """A class defined in another class's body (``IMAP4.error``): its qualified name and
    the builtin exception whose ``str()`` it keeps (no class of its chain defines
    ``__init__`` or ``__str__``)."""

    def __init__(self, qualified: str, builtin: type) -> None:
        self.qualified = qualified
        self.builtin = builtin


def self_class(reader: HierarchyReader, func: ast.expr, scope: Scope) -> str | NestedClass | None:
    """``self.<name>(…)`` (or ``Cls.<name>(…)`` of a class of the module) where ``<name>``
    is, for the raising class and each subclass its module defines, the same exception class: a class attribute naming one
    (``failureException = AssertionError``) or a class nested in the body. None when it
    is a method, or anything else, or differs between the classes ``self`` may be."""
    if not (isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name)):
        return None
    owner = func.value.id
    if owner not in ("self", "cls"):
        # ``IMAP4.error(…)``: the class of this module named, not an instance
        named = reader.classes.get(owner)
        if named is None or owner in scope.env or is_parameter(owner, scope):
            return None
        return _class_named(ClassRef(reader, named), func.attr)
    if not (scope.class_name and scope.class_name in reader.classes):
        return None
    own = ClassRef(reader, reader.classes[scope.class_name])
    found = _class_named(own, func.attr)
    if found is None:
        return None
    for sub in reader.subclasses(own):
        other = _class_named(sub, func.attr)
        same = (
            other == found
            if isinstance(found, str)
            else isinstance(other, NestedClass) and other.qualified == found.qualified
        )
        if not same:
            return None
    return found


def _class_named(ref: ClassRef, attr: str) -> str | NestedClass | None:
    """What ``attr`` is on instances of ``ref`` by the MRO lookup, when it is a class."""
    mro = ref.reader.mro(ref)
    for node in mro or ():
        if not isinstance(node, ClassRef):
            return None  # a builtin base: it defines no exception class attribute
        if method_of(node, attr) is not None:
            return None
        nested = _nested(node, attr)
        if nested is not None:
            return nested
        value = class_attribute(node, attr)
        if value is None:
            continue
        if not isinstance(value, (ast.Name, ast.Attribute)):
            return None
        qualified = node.reader.qualify(value)
        if "." not in qualified and isinstance(getattr(builtins, qualified, None), type):
            qualified = f"builtins.{qualified}"
        if qualified.startswith("builtins."):
            return qualified if builtin_class(qualified) is not None else None
        return qualified if node.reader.class_ref(qualified) is not None else None
    return None


def _nested(node: ClassRef, attr: str) -> NestedClass | None:
    """``class error(Exception): pass`` in the body of ``node``, its bases nested beside it
    or builtin exceptions, none defining ``__init__`` or ``__str__``."""
    body = {s.name: s for s in node.node.body if isinstance(s, ast.ClassDef)}
    if attr not in body:
        return None
    name, seen = attr, set()
    while name in body and name not in seen:
        seen.add(name)
        cls = body[name]
        if (
            any(
                isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
                and item.name in ("__init__", "__str__", "__new__", "__repr__")
                for item in cls.body
            )
            or len(cls.bases) != 1
            or cls.keywords
        ):
            return None
        base = cls.bases[0]
        if not isinstance(base, ast.Name):
            return None
        name = base.id
    if name in body:
        return None  # a cycle
    builtin = builtin_class(f"builtins.{name}") if name not in node.reader.classes else None
    if builtin is None:
        return None
    return NestedClass(f"{node.qualified}.{attr}", builtin)


def is_parameter(name: str, scope: Scope) -> bool:
    """Whether ``name`` is a parameter of the function the scope runs."""
    fn = scope.node
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    return name in parameter_names(fn.args, starred=False)
