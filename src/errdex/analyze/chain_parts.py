"""What a walk up the callers of a raise finds (see :mod:`.chains`): the functions that
reach it (:class:`Hop`), the handlers that swallow it on the way, the conversions to
another class, and a function's parameters read from its signature text."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import lru_cache

from .callsites import constant_of
from .receivers import Lookup

__all__ = ["Catcher", "Conversion", "Hop", "Signature", "Walk", "nearest_hops", "signature_of"]


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
    #: (function, test) of each call down the chain made only under a flag of that
    #: function's own state (``if self._debug:``; :mod:`.call_gates`).
    when: tuple[tuple[str, str], ...] = ()
    #: Conditions over this function's parameters its way down needs (:mod:`.way_needs`).
    needs: tuple[str, ...] = ()
    #: Reached by a hand-out step (it returns a nested function that raises, and calls
    #: it not): a function that gets there by a call is preferred, and above it only
    #: further hand-outs are walked (``make_pass_decorator`` returns ``decorator``), since
    #: what takes the nested function may call it or keep it (:mod:`.closures`).
    handed: bool = False


def nearest_hops(found: Iterable[Hop], open_ways: set[str]) -> list[Hop]:
    """The closest hop of each function (one reached by calls before one reached by a
    hand-out step), closest first; its flags (``Hop.when``) kept only
    where no way found reaches it, or a function on its way, without one (``open_ways``
    names those reached so)."""
    nearest: dict[str, Hop] = {}
    open_ways = set(open_ways)
    for hop in sorted(found, key=lambda h: (h.handed, h.depth, h.qualname)):
        nearest.setdefault(hop.qualname, hop)
        if not hop.when:
            open_ways.add(hop.qualname)
    return [replace(h, when=()) if _open(h, open_ways) else h for h in nearest.values()]


def _open(hop: Hop, open_ways: set[str]) -> bool:
    """Whether a function on the gated part of the way (from the hop down to the deepest
    caller that tests a flag) reaches the raise some other way with none."""
    if not hop.when:
        return False
    deepest = hop.via.index(hop.when[-1][0]) if hop.when[-1][0] in hop.via else len(hop.via)
    return bool(open_ways.intersection(hop.via[: deepest + 1]))


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
