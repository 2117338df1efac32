"""How a caller reaches a special method: the operator, statement or builtin that runs it.

Nobody calls ``_Database.__contains__`` by name: ``key in db`` runs it, on the object
``dbm.dumb.open`` returned. "Raised inside `_Database.__contains__`, which no public call
that errdex traced reaches" was judged misleading in the paired blind review of stop 35
(the ``in`` operator on a closed database raises it, run); so was "`__contains__` itself"
as the entry point (stop 34). What Python runs for each form is the data model's
(https://docs.python.org/3/reference/datamodel.html); a dunder not listed here says nothing.
"""

from __future__ import annotations

from .facts import FuncFacts
from .gathered import Gathered, short_name
from .guards import code
from .pickle_paths import ways_in

__all__ = ["SPECIAL_FORMS", "article", "operator_way", "special_situation"]

#: What runs a special method, with ``x`` the object of the method's class and ``{a}``,
#: ``{b}`` the method's own parameters after ``self`` (``...`` where it has none by name).
#: Names in backticks are the method's own or Python's builtins that the method's name
#: holds (``len`` in ``__len__``): prose names nothing the record's evidence does not.
SPECIAL_FORMS: dict[str, str] = {
    "__contains__": "`{a} in x`",
    "__len__": "`len(x)`",
    "__getitem__": "`x[{a}]`",
    "__setitem__": "`x[{a}] = {b}`",
    "__delitem__": "`del x[{a}]`",
    "__missing__": "`x[{a}]` for a key `x` does not hold",
    "__iter__": "`for ... in x` (or `iter(x)`)",
    "__next__": "`next(x)` (or a step of `for ... in x`)",
    "__reversed__": "`reversed(x)`",
    "__enter__": "`with x:`",
    "__exit__": "the end of a `with x:` block",
    "__aenter__": "`async with x:`",
    "__aexit__": "the end of an `async with x:` block",
    "__aiter__": "`async for ... in x`",
    "__anext__": "a step of `async for ... in x`",
    "__await__": "`await x`",
    "__call__": "`x(...)`",
    "__str__": "`str(x)` (or an f-string that shows `x`)",
    "__repr__": "`repr(x)`",
    "__format__": "`format(x, {a})` (or an f-string with a format spec)",
    "__bytes__": "`bytes(x)`",
    "__bool__": "`bool(x)` (or `if x:`)",
    "__int__": "`int(x)`",
    "__float__": "`float(x)`",
    "__complex__": "`complex(x)`",
    "__index__": "using `x` as an integer index",
    "__round__": "`round(x)`",
    "__hash__": "`hash(x)` (or using `x` as a dict key or set member)",
    "__abs__": "`abs(x)`",
    "__neg__": "`-x`",
    "__pos__": "`+x`",
    "__invert__": "`~x`",
    "__eq__": "`x == {a}`",
    "__ne__": "`x != {a}`",
    "__lt__": "`x < {a}`",
    "__le__": "`x <= {a}`",
    "__gt__": "`x > {a}`",
    "__ge__": "`x >= {a}`",
    "__add__": "`x + {a}`",
    "__radd__": "`{a} + x`",
    "__iadd__": "`x += {a}`",
    "__sub__": "`x - {a}`",
    "__rsub__": "`{a} - x`",
    "__isub__": "`x -= {a}`",
    "__mul__": "`x * {a}`",
    "__rmul__": "`{a} * x`",
    "__imul__": "`x *= {a}`",
    "__matmul__": "`x @ {a}`",
    "__truediv__": "`x / {a}`",
    "__rtruediv__": "`{a} / x`",
    "__floordiv__": "`x // {a}`",
    "__rfloordiv__": "`{a} // x`",
    "__mod__": "`x % {a}`",
    "__rmod__": "`{a} % x`",
    "__divmod__": "`divmod(x, {a})`",
    "__pow__": "`x ** {a}`",
    "__rpow__": "`{a} ** x`",
    "__lshift__": "`x << {a}`",
    "__rshift__": "`x >> {a}`",
    "__and__": "`x & {a}`",
    "__rand__": "`{a} & x`",
    "__or__": "`x | {a}`",
    "__ror__": "`{a} | x`",
    "__ior__": "`x |= {a}`",
    "__xor__": "`x ^ {a}`",
    "__rxor__": "`{a} ^ x`",
    "__getattr__": "`x.{a}` for an attribute `x` does not have",
    "__getattribute__": "`x.{a}` (reading any attribute)",
    "__setattr__": "`x.{a} = {b}`",
    "__delattr__": "`del x.{a}`",
    "__dir__": "`dir(x)`",
    "__get__": "reading the attribute that holds `x` (a descriptor)",
    "__set__": "setting the attribute that holds `x` (a descriptor)",
    "__delete__": "deleting the attribute that holds `x` (a descriptor)",
    "__set_name__": "a class body that assigns `x` to a name",
    "__fspath__": "passing `x` where a file system path is expected",
    "__copy__": "`copy.copy(x)`",
    "__deepcopy__": "`copy.deepcopy(x)`",
    "__reduce__": "pickling or copying `x`",
    "__reduce_ex__": "pickling or copying `x`",
    "__getstate__": "pickling or copying `x`",
    "__getnewargs__": "pickling or copying `x`",
    "__getnewargs_ex__": "pickling or copying `x`",
    "__setstate__": "unpickling or copying `x`",
    "__instancecheck__": "an isinstance() check against `x`",
    "__subclasscheck__": "an issubclass() check against `x`",
    "__class_getitem__": "`C[{a}]`",
    "__init_subclass__": "defining a subclass of `C`",
    "__del__": "the garbage collection of `x`",
}

#: Forms said of the class itself (``C``) rather than of an instance ``x``.
_OF_CLASS = frozenset({"__class_getitem__", "__init_subclass__"})


def special_situation(g: Gathered) -> tuple[str, list[str]] | None:
    """The form that runs the raising special method, on an object of its class; None
    where the raising function is no method, no listed special method, or one this
    interpreter's C twin replaces (``evidence.shadowedBy``)."""
    func = g.func
    if func is None or func.cls is None or func.name not in SPECIAL_FORMS:
        return None
    if g.shadow is not None and g.shadow.present and g.shadow.kind != "module":
        return None  # a C twin runs instead here: "Python runs `partial.__setstate__`" is
        # false where ``_functools`` imports (run: the C method raised)
    cls = _class_name(g, func)
    named = [p for p in func.params[1:] if p.isidentifier()] + ["...", "..."]
    form = _ATTRIBUTE_WAYS.get(func.name) or SPECIAL_FORMS[func.name]
    if g.pickled_by is not None:  # which of pickle, copy, deepcopy really run it
        form = ways_in(g.pickled_by) or ""
        if not form:
            return None
    form = form.format(a=named[0], b=named[1])  # an attribute hook's parameter holds the
    # attribute's name: "`x.name`" read as an attribute called ``name``
    method = code(f"{cls}.{func.name}")
    if func.name in _OF_CLASS:
        return f"It comes from {form.replace('`C', f'`{cls}')}: Python runs {method}.", [
            "site.qualname"
        ]
    return (
        f"It comes from {form}, where `x` is {article(cls)} {code(cls)} object: Python runs "
        f"{method} for it.",
        ["site.qualname"],
    )


def operator_way(g: Gathered, func: FuncFacts | None) -> str | None:
    """How a caller runs ``func`` when it is a special method of a class, as one of
    several ways in: "`x + ...` (`x` a `Decimal` object)"; its operands are left as
    ``...`` (an entry point's parameter names are not in the record's evidence)."""
    if func is None or func.cls is None or func.name not in SPECIAL_FORMS:
        return None
    if func.name in _OF_CLASS:
        return None
    cls = _class_name(g, func)
    form = _ATTRIBUTE_WAYS.get(func.name) or SPECIAL_FORMS[func.name].split(" (")[0]
    if g.pickled_by is not None and g.func is func:
        form = ways_in(g.pickled_by) or ""
        if not form:
            return None
    return f"{form.format(a='...', b='...')} (`x` {article(cls)} {code(cls)} object)"


#: As a way in, the attribute hooks in words: "`x.... = ...`" reads as nothing.
_ATTRIBUTE_WAYS = {
    "__getattr__": "reading an attribute `x` does not have",
    "__getattribute__": "reading an attribute of `x`",
    "__setattr__": "setting an attribute of `x`",
    "__delattr__": "deleting an attribute of `x`",
}


def _class_name(g: Gathered, func: FuncFacts) -> str:
    """The class as a caller names it; with its module where the module is the fallback of
    one whose C twin this interpreter imports (``_pydecimal.Decimal``, not the
    ``decimal.Decimal`` users hold)."""
    if g.shadow is not None and g.shadow.present and func.cls is not None:
        return func.cls
    return short_name(func.cls or "")


def article(name: str) -> str:
    """ "a" or "an"; a leading U is read as "you" (`UUID`, `URLopener`)."""
    return "an" if (name.lstrip("_")[:1] or "x").lower() in "aeio" else "a"
