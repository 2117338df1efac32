"""Every parameter of a function: the named ones in the signature's order, then ``*args``
and ``**kwargs`` (the order every reader kept, so a walk's facts stay as they were).

Seven places (folding, parameter changes, aliases, callers, called classes, passed
values, the chain walk's facts) each wrote the list out again; one walk keeps their
order and what they leave out the same.
"""

from __future__ import annotations

import ast

__all__ = ["parameter_names", "parameters"]


def parameters(spec: ast.arguments, *, starred: bool = True) -> list[ast.arg]:
    """Positional-only, ordinary and keyword-only parameters, then ``*args`` and
    ``**kwargs`` where the function has them (``starred``: False leaves those two out,
    for the parameters a call can name one by one)."""
    out = [*spec.posonlyargs, *spec.args, *spec.kwonlyargs]
    if starred:
        out.extend(a for a in (spec.vararg, spec.kwarg) if a is not None)
    return out


def parameter_names(
    spec: ast.arguments, *, starred: bool = True, marked: bool = False
) -> list[str]:
    """:func:`parameters`' names; ``marked`` writes ``*args`` and ``**kwargs`` with their
    stars, as a signature does."""
    names = [a.arg for a in parameters(spec, starred=False)]
    if starred:
        if spec.vararg is not None:
            names.append(("*" if marked else "") + spec.vararg.arg)
        if spec.kwarg is not None:
            names.append(("**" if marked else "") + spec.kwarg.arg)
    return names
