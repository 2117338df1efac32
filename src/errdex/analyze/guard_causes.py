"""What the prose says for a guard over the raising function's own private names: the
cause in the caller's terms where the source shows it, else less than the code.

"Triggered when `not self._initialized`", "when `hasattr(self, '_get_formatter')`"
restate state no caller sees (paired blind reviews, stop 36: triggerScenarios judged
misleading 61 times in 113). Where the guard reads an attribute only ``__init__`` sets,
the cause is an ``__init__`` that did not run (:mod:`.init_only`); where the raise
converts the error of a call made with what was passed, that value is the cause
(:mod:`.except_cause`); any other private condition is named as an internal condition
of its owner, not printed (the source shown has it).
"""

from __future__ import annotations

import ast

from errdex.evidence import GuardItem

from .except_cause import except_cause
from .gathered import Gathered
from .guards import code, free_names, has_private
from .init_only import init_cause, own_class
from .local_origins import origin_note
from .parsed import parse_guard

__all__ = ["guard_cause", "internal_words", "with_origins"]


def guard_cause(g: Gathered) -> str | None:
    """The guard chain as a clause in the caller's terms, or None (said as before)."""
    return init_cause(g) or except_cause(g)


def with_origins(g: Gathered, guards: list[GuardItem], phrase: str | None) -> str | None:
    """The phrase, then which parameters the locals its conditions read were made from
    (:mod:`.local_origins`): "when `r_scheme.startswith('/')`, with `r_scheme` made
    from what was passed as `proxy`"."""
    if not phrase:
        return phrase
    shown = [x for x in guards if not has_private(str(x["text"]))]
    note = origin_note(g, shown)
    return f"{phrase}, {note}" if note else phrase


def internal_words(g: Gathered, conditions: tuple[str, ...]) -> str:
    """ "under a condition on the internal state of its `Au_write` object" (each private
    name an attribute of ``self``), "under an internal condition of `forkserver.main`";
    a private owner is not named: "of the raising function (line 487)"."""
    func = g.func
    params = {p.lstrip("*") for p in func.params} - {"self", "cls"} if func else set()
    read = sorted({n for c in conditions for n in free_names(c) or ()} & params)
    if read:  # ``exp._exp`` of ``Decimal.quantize``: what was passed decides, not the object
        names = " and ".join(code(p) for p in read)
        return f"under a condition on private attributes of what was passed as {names}"
    on_self = all(_on_self(c) for c in conditions)
    cls = own_class(func)
    if cls is not None and on_self:
        if not has_private(cls):
            return f"under a condition on the internal state of its {code(cls)} object"
        return f"under a condition on the object's internal state (line {g.site.line})"
    if not has_private(g.site.qualname):
        return f"under an internal condition of {code(g.site.qualname)}"
    return f"under an internal condition of the raising function (line {g.site.line})"


def _on_self(condition: str) -> bool:
    """Whether every private name ``condition`` reads is an attribute of ``self``
    (``self._x``, ``hasattr(self, "_x")``, ``self._x._y``)."""
    node = parse_guard(condition)
    if node is None:
        return False
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and _private(sub.id):
            return False
        if isinstance(sub, ast.Attribute) and _private(sub.attr) and not _of_self(sub.value):
            return False
        if (
            isinstance(sub, ast.Call)
            and any(
                isinstance(a, ast.Constant) and isinstance(a.value, str) and _private(a.value)
                for a in sub.args
            )
            and not _of_self(sub.args[0])
        ):
            return False
    return True


def _of_self(node: ast.expr) -> bool:
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and node.id == "self"


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))
