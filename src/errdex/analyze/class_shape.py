"""Whether a class statement hides what calling the class builds.

:class:`.fixed_args.Instance` takes ``Cls(...)`` for a new instance of ``Cls`` only when
the repository shows the class in full. The index keeps dotted bases and ``metaclass=``
alone; a decorator may replace the class (``@six.add_metaclass(Meta)``), a base written
as a call brings a metaclass (``with_metaclass(Meta, object)``), a class keyword goes
to a base's ``__init_subclass__`` and a method may set ``cls.__new__`` on the class or
its subclasses (a read-only review of session 38). ``unittest.TestCase``'s own
``__init_subclass__`` sets plain attributes and leaves its subclasses shown in full.
"""

from __future__ import annotations

import ast

from .facts import dotted

__all__ = ["opaque_class"]


def opaque_class(node: ast.ClassDef) -> bool:
    """A decorator, a base that is no dotted name, a keyword other than ``metaclass=``
    (which :class:`.facts.ClassFacts` keeps), or a store of ``__new__`` anywhere in the
    class's body or methods (``cls.__new__ = …``, ``setattr(cls, "__new__", …)``)."""
    return (
        bool(node.decorator_list)
        or any(dotted(base) is None for base in node.bases)
        or any(k.arg != "metaclass" for k in node.keywords)
        or any(_stores_new(inner) for inner in ast.walk(node))
    )


def _stores_new(node: ast.AST) -> bool:
    if isinstance(node, ast.Attribute):
        return node.attr == "__new__" and not isinstance(node.ctx, ast.Load)
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "setattr"
        and any(isinstance(a, ast.Constant) and a.value == "__new__" for a in node.args)
    )
