"""Where catch advice tells the caller to put the handler.

"Catch X around the call that reaches it" names no call, and at import time no call
reaches the raise at all (blind review 2026-12-06, issue 10). So the advice names the
public call errdex resolved, or the import of the module for a raise in top-level code,
and otherwise names no place rather than an unnamed one.
"""

from __future__ import annotations

from .guards import code, has_private

__all__ = ["around", "own_call"]


def around(call: str | None, module: str | None) -> str:
    """The handler's place, with its leading space: the call ``call`` (in code), the import of
    ``module`` (a raise in top-level code: give ``module`` only then), or nothing."""
    if call:
        return f" around the call to {call}"
    if module:
        return f" around the import of {code(module)}"
    return ""


def own_call(qualname: str, function: str | None) -> str | None:
    """The raising function (``qualname``, whose own name is ``function``; None in
    top-level code) as a caller writes the call, when it is public: ``mod.f()``,
    ``mod.Cls.meth()``, ``mod.Cls()`` for a constructor. None for a private name or
    module, a nested function, or a special method the language runs for syntax."""
    if not function or "<locals>" in qualname or has_private(qualname):
        return None
    if function in ("__init__", "__new__"):
        return code(qualname.rpartition(".")[0] + "()")
    if function.startswith("__") and function.endswith("__"):
        return None  # ``x[k]`` runs ``__getitem__``: no call a caller writes
    return code(f"{qualname}()")
