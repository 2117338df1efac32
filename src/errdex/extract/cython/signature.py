"""How Cython parses a Python-visible function's arguments, as its signature decides it.

:mod:`.arguments` writes the messages; this module says which form of parsing the function
gets (checked against Cython 3.3.1's ``DefNode.analyse_signature``):

- a method of a ``cdef class`` is handed ``self`` by the binding (its counts leave it out),
  but a ``@staticmethod`` of one, and every method of a plain Python ``class``, count
  every argument (``s() takes exactly 2 positional arguments (1 given)``);
- one required positional argument is parsed as ``METH_O`` when keywords are not allowed
  (every argument positional-only, or the directive ``always_allow_keywords=False``):
  ``one() takes exactly one argument (0 given)``, ``one() takes no keyword arguments``;
- a property's accessor (getter, setter, deleter) is called by attribute access with a
  fixed count: its parsing raises nothing.
"""

from __future__ import annotations

from typing import Any, Literal

__all__ = [
    "Form",
    "allows_keywords",
    "declarator_args",
    "form_of",
    "is_accessor",
    "is_staticmethod",
]

#: ``normal``: Cython's own parsing; ``one``: ``METH_O``; ``none``: no message of its own
#: (``METH_NOARGS``, or a form not known well enough to write).
Form = Literal["normal", "one", "none"]


def declarator_args(node: Any) -> list[Any]:
    """The arguments of a ``cpdef`` function's declarator, under the pointer, reference
    and const declarators its return type wraps it in (``cpdef const char* g(x)``)."""
    declarator = node.declarator
    for _ in range(16):
        if declarator is None or hasattr(declarator, "args"):
            break
        declarator = getattr(declarator, "base", None)
    return list(getattr(declarator, "args", None) or [])


#: ``@x.setter``, ``@x.deleter``: a property's other accessors.
_ACCESSORS = ("setter", "deleter", "getter")


def _decorators(node: Any) -> list[Any]:
    return [d.decorator for d in (getattr(node, "decorators", None) or [])]


def _named(expr: Any, name: str) -> bool:
    """``name`` or ``cython.name`` (the directive's two spellings)."""
    kind = type(expr).__name__
    if kind == "NameNode":
        return bool(getattr(expr, "name", None) == name)
    return kind == "AttributeNode" and getattr(expr, "attribute", None) == name


def allows_keywords(node: Any, inherited: bool | None) -> bool | None:
    """The ``always_allow_keywords`` directive in force for ``node`` (a function or a
    class): its own ``@cython.always_allow_keywords(…)``, else ``inherited``; None where
    the value is not a plain ``True``/``False``."""
    for expr in _decorators(node):
        if type(expr).__name__ == "SimpleCallNode" and _named(
            expr.function, "always_allow_keywords"
        ):
            args = list(getattr(expr, "args", None) or [])
            value = getattr(args[0], "value", None) if len(args) == 1 else None
            return value if isinstance(value, bool) else None
    return inherited


def is_staticmethod(node: Any) -> bool:
    """``@staticmethod``: Cython counts its every argument (no ``self`` is bound)."""
    return any(
        _named(e, "staticmethod") and type(e).__name__ == "NameNode" for e in _decorators(node)
    )


def is_accessor(node: Any) -> bool:
    """A property's getter (``@property``, ``@cached_property``), ``@x.setter`` or
    ``@x.deleter``: attribute access calls it with a fixed count."""
    return any(
        (type(e).__name__ == "AttributeNode" and getattr(e, "attribute", None) in _ACCESSORS)
        or _named(e, "property")
        or _named(e, "cached_property")
        for e in _decorators(node)
    )


def form_of(node: Any, args: list[Any], in_cdef_class: bool, allow_keywords: bool | None) -> Form:
    """The form of parsing of a ``def`` whose arguments, ``self`` left out where the
    binding passes it, are ``args``; ``allow_keywords``: the directive (None: unknown)."""
    if (
        getattr(node, "star_arg", None) is not None
        or getattr(node, "starstar_arg", None) is not None
    ):
        return "normal"
    if not args:
        return "none"  # METH_NOARGS: CPython's message
    positional_only = all(getattr(a, "pos_only", False) for a in args)  # ``self`` too then
    if allow_keywords is None and not positional_only:
        # a directive whose value this file does not spell plainly: only a signature that
        # parses the same either way is written
        if len(args) == 1 and args[0].default is None and not getattr(args[0], "kw_only", False):
            return "none"
        return "normal"
    if allow_keywords and not positional_only:
        return "normal"
    if in_cdef_class and is_staticmethod(node):
        return "none"  # Cython's static-method wrapper: not checked
    if len(args) == 1 and args[0].default is None and not getattr(args[0], "kw_only", False):
        # a ``cpdef`` function's wrapper is written by Cython: not checked in this form
        return "one" if type(node).__name__ == "DefNode" else "none"
    return "normal"
