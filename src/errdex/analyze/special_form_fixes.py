"""Fixes for an object that is only for type annotations, used as a class or subscripted.

``typing``'s special forms refuse what a class allows: ``isinstance(x, Any)`` raises
``TypeError("typing.Any cannot be used with isinstance()")`` from ``__instancecheck__``,
``Self[int]`` raises ``TypeError("{self} is not subscriptable")`` from the ``Self``
function that ``@_SpecialForm`` runs for ``Self[...]``. errdex said "found no fix" there
(blind review stop 36: "the fix is plain: write Self, not Self[...]"). Known by the
special method (or the ``SpecialForm`` decorator) and the message together.
"""

from __future__ import annotations

import re

from .gathered import Gathered, class_phrase, short_name
from .guards import code

__all__ = ["special_form_fix"]

#: A solution and the evidence keys it rests on.
Remedy = tuple[str, list[str]]

_CHECKS = {"__instancecheck__": "isinstance", "__subclasscheck__": "issubclass"}
#: "{self} cannot be used with isinstance()", "typing.Any cannot be used with isinstance()".
_CANNOT = re.compile(r"\bcannot be used with (isinstance|issubclass)\(\)")
#: "{self} is not subscriptable", with nothing after.
_NOT_SUBSCRIPTABLE = re.compile(r"\bis not subscriptable\.?$")


def special_form_fix(g: Gathered) -> Remedy | None:
    """The fix for a typing object used as a class or subscripted, or None."""
    func = g.func
    if func is None or g.site.kind != "raise" or g.site.error_class != "TypeError":
        return None
    display = g.site.template.display.strip()
    check = _CHECKS.get(func.name)
    found = _CANNOT.search(display)
    if check is not None and func.cls is not None and found and found.group(1) == check:
        when = "for every object" if not g.site.guards else "under the condition shown"
        return (
            f"Do not pass this object to {code(f'{check}()')} as the class to test against: "
            f"{code(f'{short_name(func.cls)}.{func.name}')} raises {class_phrase(g)} {when}; "
            "it is for type annotations, so test against a concrete class instead.",
            ["site.function", "site.template", "site.guards"],
        )
    special = any(ref and ref[-1].endswith("SpecialForm") for ref in func.decorators)
    if special and func.cls is None and not g.site.guards and _NOT_SUBSCRIPTABLE.search(display):
        name = func.name
        return (
            f"Write {code(name)} on its own, without brackets: {code(f'{name}[...]')} raises "
            f"{class_phrase(g)} on every use, as {code(name)} takes no parameters.",
            ["site.function", "site.template"],
        )
    return None
