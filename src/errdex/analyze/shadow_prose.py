"""What a record says of code something else runs instead: a C twin that replaces a
pure-Python definition (``analyze.twins``, ``analyze.shadows``), ``_pyio`` beside ``io``,
and setuptools' copy of ``distutils``."""

from __future__ import annotations

import ast

from .gathered import Gathered, location
from .shadows import interpreter_module
from .twins import ShadowFact

__all__ = ["shadow_sentence", "shadow_trigger", "stdlib_copy_note"]


def shadow_sentence(shadow: ShadowFact, path: str) -> str:
    """What runs instead of this line, in the words of the statements that say so."""
    name, module = shadow.name, shadow.module
    if shadow.kind == "module":
        where = f"its import of `{module}` at line {shadow.line}"
        if shadow.guard:  # a package's switch (``if not USE_EXTENSIONS:``)
            fails = f" or {where} fails" if shadow.caught else ""
            return (
                f"`{name}` is imported only by {shadow.importer}, and only where "
                f"{_not_holding(shadow.guard)}{fails}: elsewhere the names it imports "
                f"are `{module}`'s (compiled) and this line runs only where `{name}` is "
                "imported by name."
            )
        return (
            f"`{name}` is imported only by {shadow.importer}, and only where {where} "
            f"fails: where it succeeds, the names it imports are `{module}`'s and this "
            f"line runs only where `{name}` is imported by name."
        )
    where = location(path, shadow.line)
    if shadow.kind == "rebound":
        return (
            f"At run time `{shadow.bound}` is the one imported from `{module}` at {where} "
            f"when that import succeeds, and `{name}` only where it fails, so a call "
            f"through `{shadow.bound}` runs this line only there."
        )
    head = f"At run time `{name}` is the one imported from `{module}` at {where}"
    if shadow.guard and shadow.caught:
        return (
            f"{head} where `{shadow.guard}` holds and that import succeeds, so this line "
            "runs only where the test does not hold or the import fails."
        )
    if shadow.guard:
        return f"{head} where `{shadow.guard}` holds, so this line runs only where it does not."
    if shadow.conditional:
        return f"{head} when that import succeeds, so this line runs only where it fails."
    return f"{head}, so this line does not run."


def shadow_trigger(shadow: ShadowFact) -> str:
    """When the shadowed line runs at all, and whether it can in this interpreter."""
    module = shadow.module
    if shadow.guard:
        failing = f" or `{module}` cannot be imported" if shadow.caught else ""
        if shadow.kind == "module":
            return f"It runs only where {_not_holding(shadow.guard)}{failing}."
        return f"It runs only where `{shadow.guard}` does not hold{failing}."
    if not shadow.present:
        return f"It runs only where `{module}` cannot be imported."
    here = f"this interpreter has `{module}`"
    if shadow.kind == "module":
        return (
            f"It runs only where `{module}` cannot be imported ({here}) or where "
            f"`{shadow.name}` is imported by name."
        )
    if shadow.kind == "rebound":
        return (
            f"Through `{shadow.bound}` it runs only where `{module}` cannot be imported "
            f"({here}); a call to `{shadow.name}` by that name runs it anyway."
        )
    return (
        f"It runs only where `{module}` cannot be imported; {here}, so a call to "
        f"`{shadow.name}` runs `{module}`'s code and no entry point reaches this line here."
    )


#: The standard library's pure-Python twins of C modules that no statement names as
#: such: (the public module, the C one). ``io.py`` imports its classes from ``_io`` and
#: never imports ``_pyio`` (CPython 3.11's sources). Twins a module imports in its
#: ``except ImportError`` (``_pydecimal``) are read from that statement (``analyze.twins``).
_PY_TWINS = {"_pyio": ("io", "_io")}


def stdlib_copy_note(g: Gathered) -> str | None:
    """What runs instead of this standard library file, when something else usually does:
    the C module a pure-Python twin shadows, or setuptools' copy of ``distutils``."""
    if g.site.record.get("repo") != "python/cpython":
        return None
    top = g.site.module.split(".")[0]
    twin = _PY_TWINS.get(top)
    if twin is not None and interpreter_module(twin[1]):
        public, c_module = twin
        return (
            f"`{top}` is the pure-Python version of the C module `{c_module}`, which this "
            f"interpreter has: `import {public}` gives the C code, so this line runs only "
            f"where `{top}` is imported by name."
        )
    if top == "distutils":
        return (
            "`distutils` is deprecated (PEP 632) and gone from Python 3.12. Where setuptools "
            "60 or later is installed, its `distutils-precedence.pth` makes `import "
            "distutils` load setuptools' own copy (`setuptools/_distutils`) unless "
            "`SETUPTOOLS_USE_DISTUTILS=stdlib` is set, and then this file does not run."
        )
    return None


def _not_holding(guard: str) -> str:
    """Where the test is false, without a double negation: ``not os.environ.get('X')``
    -> "`os.environ.get('X')` holds"."""
    try:
        test = ast.parse(guard, mode="eval").body
    except SyntaxError:
        return f"`{guard}` does not hold"
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return f"`{ast.unparse(test.operand)}` holds"
    return f"`{guard}` does not hold"
