"""What to validate, said in words, where a raise is a wrong call with no check code.

``handlingStrategy`` is "validation" where the raise's condition tests what the caller
passed or the state earlier calls left (:func:`.fields._a_wrong_call`), but
``validationCode`` is written only over a public raising function's own parameters
(:func:`.code_fields.validation`): verify evaluates a check in the frame that raised, so a
check in an entry point's names could not be run as written. Such a record said
"validation" with nothing behind it (issue 10). Here: the reason no code is given, for the
provenance, and where the message itself states what must hold, a tip saying it.
"""

from __future__ import annotations

from .gathered import Gathered, callable_name, short_name
from .guards import CONDITION_KINDS, code, free_names, has_private
from .message_advice import message_advice
from .quoting import quote
from .rebinding import rebound_before

__all__ = ["no_code_reason", "words_tip"]


def no_code_reason(g: Gathered) -> str:
    """Why no ``validationCode`` goes with the record, as a provenance note."""
    func, guards = g.func, g.site.guards
    if g.subject == "state":
        return "no validationCode: the condition tests the object's state, left by earlier calls, not an argument a check could test"
    if func is None or not any(e.get("depth") == 0 for e in g.entry_points):
        return "no validationCode: the raising function is not public, and verify evaluates a check in the frame that raised, not in an entry point's names"
    kinds = sorted({str(x["kind"]) for x in guards if x["kind"] not in CONDITION_KINDS})
    if kinds:
        return f"no validationCode: a guard on the way is no condition a caller tests ({', '.join(kinds)})"
    params = {p.lstrip("*") for p in func.params} - {"self", "cls"}
    read: set[str] = set()
    for guard in guards:
        names = free_names(str(guard["text"]))
        if names is None:
            return "no validationCode: a condition on the way is not one expression a check could repeat"
        read |= names
    unknown = sorted(read - params - set(g.import_lines))
    if unknown:
        return f"no validationCode: the condition reads {', '.join(code(n) for n in unknown)}, not a parameter the caller passes"
    if params & rebound_before(func, g.site.line, guards) & read:
        return "no validationCode: a parameter it reads is bound again before the raise"
    return "no validationCode: no check errdex can state exactly"


def words_tip(g: Gathered) -> str | None:
    """ "Check what the message requires before calling ``f()``: “…”." where the message
    states a requirement or an instruction and a public entry point is known."""
    if g.site.template.is_opaque:
        return None
    advice = message_advice(g.site.template.display)
    call = _public_call(g)
    if not advice or call is None:
        return None
    kind, sentence = advice[0]
    if "{" in sentence or "%" in sentence:
        return None  # a hole or a format the value fills: the requirement is not all there
    if kind == "requirement":
        return f"Check what the message requires before calling {code(call)}: {quote(sentence)}."
    return f"Before calling {code(call)}, do what the message says: {quote(sentence)}."


def _public_call(g: Gathered) -> str | None:
    """``f()`` (``Class.method()``: ``open()`` alone reads as the builtin) for the nearest
    public entry point whose facts are known."""
    for entry in sorted(g.entry_points, key=lambda e: e.get("depth", 0)):
        func = g.entry_funcs.get(entry["qualname"])
        if func is not None and not has_private(entry["qualname"]):
            method = func.cls is not None and func.name not in ("__init__", "__new__")
            name = f"{short_name(func.cls or '')}.{func.name}" if method else callable_name(func)
            return f"{name}()"
    return None
