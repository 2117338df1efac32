"""The names the library calls directly: ``self.x()``, ``obj.x()``, ``x()``.

A method looked up by a built name (``getattr(self, f"parse_{…}")``) may also be called
directly: jinja2's ``Parser.parse_expression``, ``parse_tuple``, ``parse_statements``
are, and the documentation tells extension writers to call them. Such a method is a way
in of its own, not a hook (review rr3 of :mod:`.hook_methods`).
"""

from __future__ import annotations

from .repo import RepoIndex

__all__ = ["called_names"]


def called_names(index: RepoIndex) -> frozenset[str]:
    """The last part of every call the library's own (non-test) functions make."""
    return frozenset(
        ref[-1]
        for defs in index.functions.values()
        for func in defs
        if not func.is_test
        for ref in func.calls
        if ref
    )
