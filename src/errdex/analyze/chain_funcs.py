"""What a chain walk reads of one function: whether its definition runs at all, the
parameters its callers pass, whether one still holds the caller's value at a line, and
one element of a ``*args``. Split from :mod:`.chains`, which walks the calls."""

from __future__ import annotations

from .callsites import Arg
from .facts import FuncFacts, within_module
from .guard_eval import OPAQUE, is_immutable
from .repo import RepoIndex
from .shadows import interpreter_module

__all__ = ["element", "own_params", "rebound_before", "replaced", "static"]


def replaced(index: RepoIndex, func: FuncFacts) -> bool:
    """Whether a later import in the module replaces the function's top-level definition
    for good: unconditionally, or (inside ``try: … except ImportError``) with a module
    compiled into this interpreter, whose import does not fail here."""
    module = index.modules.get(func.module)
    if module is None or not module.shadowed:
        return False
    inner = within_module(func.qualname, func.module)
    found = module.shadowed.get(inner.split(".")[0])
    if found is None:
        return False
    source, _, conditional, _guard, _caught = found
    return not conditional or interpreter_module(source)


def own_params(func: FuncFacts) -> tuple[str, ...]:
    """Parameters a caller passes: ``self``/``cls`` of a method and starred ones aside."""
    names = [p for p in func.params if not p.startswith("*")]
    if func.cls is not None and names and names[0] in ("self", "cls") and not static(func):
        names = names[1:]
    return tuple(names)


def rebound_before(func: FuncFacts, param: str, line: int | None) -> bool:
    """Whether ``param`` may hold something else than the caller's value at ``line``:
    the body binds it again before that line (or anywhere, with no line: a raise in a
    loop may run after a later binding). ``warnings.filterwarnings`` asserts
    ``isinstance(module, str)`` and only then binds ``module = re.compile(module)``."""
    if param not in func.rebound:
        return False
    if line is None:
        return True
    return any(bound <= line for bound in func.bound_lines.get(param, (0,)))


def element(arg: Arg | None) -> object:
    """One element of a ``*args`` as far as it is known."""
    if arg is not None and arg[0] == "const" and is_immutable(arg[1]):
        return arg[1]
    return OPAQUE


def static(func: FuncFacts) -> bool:
    return ("staticmethod",) in func.decorators
