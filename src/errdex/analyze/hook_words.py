"""commonSituations for a method the library calls itself (:mod:`.hook_callers`), and the
raising function's own docstring sentence of when it raises.

"It comes from a call of `ExtendedInterpolation.before_get()`" names a hook users never
call (paired blind review of stop 36, twice misleading): the public call that runs it
is said instead, as errdex's call graph shows it. Where no situation is known, the
raising function's docstring may say when in its own words (``inspect.unwrap``:
":exc:`ValueError` is raised if a cycle is encountered"): a true sentence that adds a
fact, where restating the message was judged misleading every time.
"""

from __future__ import annotations

import re

from .doc_quote import docstring_quote
from .gathered import Gathered, short_name
from .guards import code, has_private
from .param_requirement import call_name
from .quoting import quote
from .special_words import article

__all__ = ["docstring_raises", "hook_situation"]

#: A reST role around a name (``:exc:`ValueError```, ``:meth:`~Foo.bar```).
_ROLE = re.compile(r":(?:py:)?[a-z]+:`~?([^`<]+?)(?:\s*<[^>]+>)?`")


def hook_situation(g: Gathered) -> tuple[str, list[str]] | None:
    """The library's public calls that run the raising override, where the entry points
    errdex found name nothing but the override itself (or there are none)."""
    func, hook = g.func, g.hook
    if func is None or hook is None or not hook.callers:
        return None
    if any(e["qualname"] != func.qualname for e in g.entry_points):
        return None  # a public call through other code is already named
    cls = short_name(func.cls or "")
    base = hook.base_method.rpartition(".")
    base_name = f"{short_name(base[0])}.{base[2]}"
    if has_private(cls) or has_private(base_name):
        return None
    calls = " or ".join(code(c) for c in hook.callers)
    text = (
        f"It comes from a call of {calls} where the object it calls {code(func.name)} on is "
        f"{article(cls)} {code(cls)}, whose {code(func.name)} overrides {code(base_name)}."
    )
    return text, ["site.qualname"]


def docstring_raises(g: Gathered) -> tuple[str, list[str]] | None:
    """The raising function's docstring sentence that names the raised class, only where
    the function raises the class at this one place (a sentence about another of its
    raises of the class would not be this one's)."""
    func = g.func
    if func is None or not g.site.error_class or g.same_class_in_function != 1:
        return None
    text = docstring_quote(
        func.docstring,
        error_class=g.site.error_class,
        tested=(),
        name=func.name,
        cls=func.cls or "",
        private=True,  # the sentence that names the class, never a summary
    )
    if not text:
        return None
    text = _ROLE.sub(r"\1", text)
    owner = call_name(func.qualname, func)
    if has_private(owner):
        return None
    return f"The docstring of {code(owner)} says: {quote(text)}.", ["function.docstring"]
