"""Conditions over a private flag that a caller sets some other way, in words.

Two flags decide a raise though a caller passes neither (blind review 2026-12-06: false
statements that left them out):

* a module flag set by whether an import worked (``try: import ssl`` / ``except
  ImportError: _have_ssl = False``): ``urlopen(cafile=…)`` raises "SSL support not
  available" only ``if not _have_ssl``, in a Python built without OpenSSL;
* asyncio's debug flag (``if self._debug and sock.gettimeout() != 0``): on only where
  ``loop.set_debug(True)``, ``asyncio.run(debug=True)``, ``PYTHONASYNCIODEBUG`` or
  ``python -X dev`` turned it on.

Each is said as a context ("only in debug mode (…)"), never dropped as private.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

from errdex.evidence import EntryPoint, GuardItem

from .guards import CONDITION_KINDS, conjuncts, parse_guard

__all__ = ["BUILT_WITH", "DEBUG_MODE", "flag_words", "gate_words", "import_words"]

#: What asyncio's debug flag is said as.
DEBUG_MODE = "only in debug mode (`loop.set_debug(True)` / `PYTHONASYNCIODEBUG`)"
_NOT_DEBUG = "only outside debug mode (`loop.set_debug(False)`, the default)"
#: How asyncio's classes read the event loop's debug flag.
_DEBUG_TESTS = frozenset(
    {
        "self._debug",
        "self._loop._debug",
        "self._loop.get_debug()",
        "loop.get_debug()",
        "self.get_debug()",
        "self._get_debug()",
    }
)
#: The library an extension module is built against, where a build may lack it.
BUILT_WITH = {
    "ssl": "OpenSSL",
    "_ssl": "OpenSSL",
    "_hashlib": "OpenSSL",
    "zlib": "zlib",
    "bz2": "libbz2",
    "_bz2": "libbz2",
    "lzma": "liblzma",
    "_lzma": "liblzma",
    "readline": "readline",
    "_ctypes": "libffi",
    "ctypes": "libffi",
    "sqlite3": "SQLite",
    "_sqlite3": "SQLite",
    "_tkinter": "Tcl/Tk",
    "tkinter": "Tcl/Tk",
    "_curses": "curses",
    "curses": "curses",
    "_uuid": "libuuid",
}


def import_words(module: str, works: bool) -> str:
    """ "only when the `ssl` module cannot be imported (a Python built without OpenSSL)"."""
    if works:
        return f"only when the `{module}` module can be imported"
    lib = BUILT_WITH.get(module)
    why = f" (a Python built without {lib})" if lib else ""
    return f"only when the `{module}` module cannot be imported{why}"


def _words(text: str, import_flags: Mapping[str, str], asyncio: bool) -> str | None:
    node = parse_guard(text)
    if node is None:
        return None
    works = True
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        node, works = node.operand, False
    if isinstance(node, ast.Name) and node.id in import_flags:
        return import_words(import_flags[node.id], works)
    if asyncio and ast.unparse(node) in _DEBUG_TESTS:
        return DEBUG_MODE if works else _NOT_DEBUG
    return None


def flag_words(
    guards: list[GuardItem], import_flags: Mapping[str, str], module: str
) -> dict[str, str]:
    """Each condition (or top-level ``and`` part) on the way that tests such a flag, as
    ``ast.unparse`` writes it -> its words."""
    asyncio = module == "asyncio" or module.startswith("asyncio.")
    if not import_flags and not asyncio:
        return {}
    out: dict[str, str] = {}
    for guard in guards:
        if guard["kind"] not in CONDITION_KINDS:
            continue
        for part in conjuncts(str(guard["text"])):
            words = _words(part, import_flags, asyncio)
            if words is not None:
                out[part] = words
    return out


def gate_words(entry: EntryPoint, *, quoted: bool = True) -> str | None:
    """What the calls on an entry point's way need (:mod:`.call_gates`): "only in debug
    mode (…)" for asyncio's flag, else "only when `self._x` holds in `C.m`" (not
    ``quoted``: without the private test, for a solution, which quotes none); None when
    no call on the way tests a flag."""
    out: list[str] = []
    for caller, test in entry.get("onlyWhen") or []:
        asyncio = caller.startswith("asyncio.")
        words = _words(test, {}, asyncio)
        if words is None:
            owner = ".".join(caller.split(".")[-2:])
            words = (
                f"only when `{test}` holds in `{owner}`"
                if quoted
                else f"only when `{owner}` makes that call (it tests its own state first)"
            )
        if words not in out:
            out.append(words)
    return " and ".join(out) or None
