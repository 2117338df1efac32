"""What a walk up the callers of a raise finds (see :mod:`.chains`): the functions that
reach it (:class:`Hop`), the handlers that swallow it on the way, the conversions to
another class, and a function's parameters read from its signature text."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import lru_cache

from .callsites import constant_of
from .receivers import Lookup

__all__ = ["Catcher", "Conversion", "Hop", "Signature", "Walk", "signature_of"]


@dataclass(frozen=True, slots=True)
class Conversion:
    """Where a handler turned the error into another class."""

    written: str  # the class as the handler writes it (``ReadError``)
    function: str  # the function whose handler converts
    line: int


@dataclass(frozen=True, slots=True)
class Hop:
    """A function that reaches the raise, and what gets out of it."""

    qualname: str
    depth: int
    via: tuple[str, ...]  # this function down to the raising one
    error_class: str | None  # canonical class that leaves this function
    conversion: Conversion | None  # the outermost conversion on the way, if any
    #: The raising function's parameter -> this function's parameter passed on unchanged.
    passes: dict[str, str] = field(default_factory=dict)
    #: The raising function's parameter -> the constant a caller on the way fixed it to.
    known: dict[str, object] = field(default_factory=dict)
    #: Calls counted against the depth limit: a call between a function and one nested
    #: in it (or between two nested in the same one) is not, being one body's own parts
    #: (``parse_args`` reaches ``_check_value`` through ``_parse_known_args``'s helpers).
    cost: int = 0
    #: (function, condition): a handler on the way lets it out only when the condition
    #: over that function's parameters holds (``if not fallback: raise``).
    gate: tuple[str, str] | None = None
    #: The ``self.m()`` lookups made on this function's ``self`` down the chain: a caller
    #: whose ``self`` runs another ``m`` is no way to the raise (:mod:`.receivers`).
    lookups: tuple[Lookup, ...] = ()
    #: The line of the definition that makes the call: a function defined once per
    #: platform (``ctypes.util.find_library``) is the one whose body calls on.
    line: int = 0
    #: The platform on which the calls down the chain go there: ``os.path.relpath`` is
    #: ``ntpath.relpath`` "on Windows" (:mod:`.platform_binds`).
    on: str | None = None


@dataclass(frozen=True, slots=True)
class Catcher:
    """A caller whose handler swallows the error: it gets no further that way."""

    qualname: str
    line: int  # the handler's
    depth: int


@dataclass(frozen=True, slots=True)
class Walk:
    hops: list[Hop]
    caught: list[Catcher]


@dataclass(frozen=True, slots=True)
class Signature:
    positional: tuple[str, ...]
    keyword_only: tuple[str, ...]
    defaults: dict[str, object]  # constant defaults only
    has_varargs: bool
    #: Defaults that are a plain name (``step=_ONE``, ``default_factory=MISSING``).
    named: dict[str, str] = field(default_factory=dict)
    varargs: str | None = None
    varkw: str | None = None


@lru_cache(maxsize=65536)
def signature_of(text: str) -> Signature | None:
    """A function's parameters from its signature text (``def f(a, b=1, *, k)``)."""
    try:
        node = ast.parse(text.strip() + ": pass").body[0]
    except (SyntaxError, ValueError, RecursionError, IndexError):
        return None
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return None
    a = node.args
    positional = [x.arg for x in (*a.posonlyargs, *a.args)]
    defaults: dict[str, object] = {}
    named: dict[str, str] = {}
    pairs = [
        *zip(positional[len(positional) - len(a.defaults) :], a.defaults, strict=True),
        *((arg.arg, d) for arg, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d),
    ]
    for name, default in pairs:
        known, value = constant_of(default)
        if known:
            defaults[name] = value
        elif isinstance(default, ast.Name):
            named[name] = default.id
    varargs = a.vararg.arg if a.vararg is not None else None
    return Signature(
        tuple(positional),
        tuple(x.arg for x in a.kwonlyargs),
        defaults,
        varargs is not None,
        named,
        varargs,
        a.kwarg.arg if a.kwarg is not None else None,
    )
