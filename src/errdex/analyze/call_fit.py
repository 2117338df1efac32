"""Whether a call can run a function's body as it passes its arguments: the positional
and keyword arguments it passes against the parameters (keyword-only ones after ``*``
take no position, positional-only ones before ``/`` no keyword: the interpreter raises
``TypeError`` first), and literals passed for a parameter the function calls. Read by
:mod:`.tests_evidence` before it links a test to a raise in that function, and by
:mod:`.chains` before it walks up a call."""

from __future__ import annotations

from collections.abc import Sequence

from .callsites import CallSite
from .facts import FuncFacts

__all__ = ["calls_literal", "fits", "positional", "site_fits", "takes"]

#: What a method's first parameter is called when the call passes it.
_FIRST = frozenset({"self", "cls", "mcs", "mcls", "metacls"})
#: Decorators that leave the parameters a call binds as the definition writes them.
_PLAIN = {("staticmethod",), ("classmethod",), ("abstractmethod",), ("abc", "abstractmethod")}


def positional(func: FuncFacts) -> list[str]:
    """The parameters a call can fill by position, ``self`` included."""
    named = [p for p in func.params if not p.startswith("*")]
    return named[: len(named) - len(func.kwonly)]


def fits(func: FuncFacts, given: int, keywords: Sequence[str], bound: bool) -> bool:
    """Whether ``given`` positional arguments and ``keywords`` bind to ``func``'s
    parameters (``bound``: ``self`` or ``cls`` is passed for the first one): not more
    positional ones than it names without ``*args``, no keyword it does not name (or
    names only positionally) without ``**kwargs``, none twice, every required one."""
    slots = positional(func)[1 if bound else 0 :]
    varargs = any(p.startswith("*") and not p.startswith("**") for p in func.params)
    varkw = any(p.startswith("**") for p in func.params)
    if given > len(slots) and not varargs:
        return False
    filled = set(slots[:given])
    by_name = {*slots, *func.kwonly} - set(func.posonly)
    for name in keywords:
        if name in by_name:
            if name in filled:
                return False  # "got multiple values for argument"
            filled.add(name)
        elif not varkw:
            return False  # "got an unexpected keyword argument" (or a positional-only)
    # ``required`` leaves a method's ``self`` out already
    return all(p.partition("=")[0] in filled for p in func.required)


def takes(func: FuncFacts, given: int, keywords: Sequence[str] = ()) -> bool:
    """Whether ``func`` accepts ``given`` positional arguments and ``keywords`` as a
    test passes them to it (a method's ``self`` bound when its first parameter is
    ``self`` or ``cls``)."""
    params = [p for p in func.params if not p.startswith("**")]
    bound = func.cls is not None and bool(params) and params[0] in ("self", "cls")
    return fits(func, given, keywords, bound)


def site_fits(callee: FuncFacts, site: CallSite) -> bool:
    """Whether a library call can bind to ``callee`` (:func:`fits`): one that cannot is
    the interpreter's ``TypeError``, no way to the callee's raises. Undecided (True) for
    a call passing ``*args`` or ``**kwargs`` and a callee a decorator may re-sign;
    ``Owner.m(...)`` fits with ``self`` passed or not."""
    if site.starred or any(d not in _PLAIN for d in callee.decorators):
        return True
    given = len(site.args)
    keywords = [name for name, _ in site.keywords]
    return any(fits(callee, given, keywords, b) for b in _bound_ways(callee, site))


def _bound_ways(callee: FuncFacts, site: CallSite) -> tuple[bool, ...]:
    """Whether the call passes the method's first parameter itself: ``Owner(...)`` and
    ``obj.m(...)`` do, ``super().__new__(cls)`` does not."""
    ref = site.ref
    if callee.cls is None or ("staticmethod",) in callee.decorators:
        return (False,)
    if callee.name == "__new__":  # a static method the class call passes ``cls`` to
        return (ref[-1] != "__new__",)
    first = positional(callee)[:1]
    if first and first[0] not in _FIRST:
        return (True, False)  # ``m = staticmethod(m)`` later in the class body
    if ref[-1] != callee.name or len(ref) < 2 or ("classmethod",) in callee.decorators:
        return (True,)
    if ref[0] in ("self", "cls", "super()", ""):
        return (True,)
    # ``Owner.m(obj, ...)``, or a method the class body makes a classmethod later
    # (``get_value = classmethod(get_value)``, distutils' ``Reg``): either way
    return (True, False)


def calls_literal(func: FuncFacts, positions: tuple[int, ...]) -> bool:
    """Whether ``func`` calls a parameter the test passes a literal for: ``reduce(42,
    (42, 42))`` fails in ``function(value, element)`` with the interpreter's "'int'
    object is not callable", not in ``reduce``'s own ``TypeError``."""
    if not positions:
        return False
    params = [p for p in func.params if not p.startswith("*")]
    if func.cls is not None and params and params[0] in ("self", "cls"):
        params = params[1:]
    called = {ref[0] for ref in func.calls if len(ref) == 1}
    return any(i < len(params) and params[i] in called for i in positions)
