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
from .doc_raise_fit import meets, negated
from .gathered import Gathered, short_name
from .guards import code, has_private
from .param_requirement import call_name
from .special_words import article

__all__ = ["docstring_raises", "hook_situation"]

#: A raise, and a condition, in a docstring's sentence.
_RAISE = re.compile(r"\b(?:rais(?:e|es|ed|ing)|throws?|warns?)\b", re.IGNORECASE)
_WHEN = re.compile(r"\b(?:if|when|whenever|unless)\b", re.IGNORECASE)
#: A sentence that documents a flag, not when a raise happens.
_FLAG = re.compile(r"(?:If|When) (?:true|false|set|True|False)\b")
#: A reST role around a name (``:exc:`ValueError```, ``:meth:`~Foo.bar```).
_ROLE = re.compile(r":(?:py:)?[a-z]+:`~?([^`<]+?)(?:\s*<[^>]+>)?`")


def hook_situation(g: Gathered) -> tuple[str, list[str]] | None:
    """The library's public calls that run the override that raises or leads to the
    raise, where every entry point errdex found is such an override (or there is none,
    and the raising method is one)."""
    func = g.func
    if func is None or (g.shadow is not None and g.shadow.present):
        return None  # a C twin runs instead (``zoneinfo.ZoneInfo.fromutc``)
    targets = [e["qualname"] for e in g.entry_points] or [func.qualname]
    hooks = [g.hooks.get(q) for q in targets]
    if not hooks or any(h is None for h in hooks):
        return None  # a public call through other code is already named
    qualname, hook = targets[0], hooks[0]
    assert hook is not None
    method = qualname.rpartition(".")
    cls, name = short_name(method[0]), method[2]
    base = hook.base_method.rpartition(".")
    base_cls = short_name(base[0])
    base_name = f"{base_cls if base_cls != cls else base[0]}.{base[2]}"
    if has_private(cls) or has_private(base_name) or not hook.callers:
        return None
    calls = " or ".join(code(c) for c in hook.callers)
    text = (
        f"It comes from a call of {calls} where the object it calls {code(name)} on is "
        f"{article(cls)} {code(cls)}, whose {code(name)} overrides {code(base_name)}."
    )
    return text, ["site.qualname", "entryPoints"]


def docstring_raises(g: Gathered) -> tuple[str, str] | None:
    """The raising function as a caller writes it, and its docstring's sentence that says
    when it raises the class ("ValueError is raised if a cycle is encountered"): one that
    names the class, a raise and a condition ("if", "when", "unless"), or for a
    deprecation says "deprecated"; only where the function raises the class at this one
    place (a sentence about another of its raises would not be this one's). A sentence
    that only mentions the class ("descriptors that raise AttributeError",
    ``inspect.getattr_static``) says nothing of when."""
    func = g.func
    if func is None or not g.site.error_class or g.same_class_in_function != 1:
        return None
    if g.role is not None:  # an abstract method's "…when the method does not raise
        return None  # NotImplementedError" (``importlib.abc.Loader.module_repr``)
    if func.name.startswith("__") and func.name not in ("__init__", "__new__"):
        return None  # the operator that runs it says more (:mod:`.special_words`)
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
    deprecation = g.site.error_class.endswith("DeprecationWarning")
    if _FLAG.match(text):  # a flag's own account ("If true, errors raise a ValueError
        return None  # exception": ``cgi.FieldStorage``'s strict_parsing, not its limit)
    if not deprecation and not (_RAISE.search(text) and _WHEN.search(text)):
        return None
    if negated(text):  # "this never raises ValueError when the reader is closed"
        return None
    own = [str(g.site.record.get("errorMessage") or ""), *(x["text"] for x in g.site.guards)]
    if not deprecation and g.same_class_reached > 1 and not meets(text, own):
        return None  # about a raise in a function it calls (``_parse``'s, in ``load``)
    owner = call_name(func.qualname, func)
    return None if has_private(owner) else (owner, text)
