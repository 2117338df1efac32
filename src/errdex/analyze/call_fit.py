"""Whether a test's call can run a function's body as it passes its arguments: the
number it passes, and literals passed for a parameter the function calls (read by
:mod:`.tests_evidence` before it links a test to a raise in that function)."""

from __future__ import annotations

from .facts import FuncFacts

__all__ = ["calls_literal", "takes"]


def takes(func: FuncFacts, given: int) -> bool:
    """Whether ``func`` accepts ``given`` positional arguments (its ``self`` aside): not
    fewer than its required ones, not more than its named ones without ``*args``."""
    params = [p for p in func.params if not p.startswith("**")]
    bound = func.cls is not None and bool(params) and params[0] in ("self", "cls")
    if len([p for p in func.required if "=" not in p]) > given:
        return False  # ``required`` leaves ``self`` out already
    if any(p.startswith("*") for p in params):
        return True
    return given <= len(params) - bound


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
