"""Platform tests in words: ``sys.platform == "win32"`` is "on Windows".

A developer knows which system they run on, not the value of ``sys.platform`` or
``os.name``, so a guard that only tests the platform is said as the platform's name,
from one table: ``sys.platform`` values and prefixes, ``os.name`` values and
``platform.system()`` results. The module names are resolved through the module's own
imports (``import sys as _sys``), a module constant bound to such a test
(``_mswindows = sys.platform == "win32"``) reads as the test it holds, and a module
that exists on one family of platforms only (``_winapi``, ``fcntl``) tests that family
when its name is tested (``if _winapi:``). Anything else
(``sys.platform[1:] == x``, a test mixed with other names) is no platform test here;
``sys.platform[:4] == "java"`` is the prefix test it spells.
"""

from __future__ import annotations

import ast
import os
import platform
import sys
from collections.abc import Mapping

from .parsed import parse_guard

__all__ = [
    "BUILTIN_NAMES",
    "OTHER_THAN",
    "PLATFORMS",
    "PLATFORM_MODULES",
    "builtin_names",
    "flag_names",
    "holds_here",
    "platform_words",
]

#: How a test that fails on the platforms named is said.
OTHER_THAN = "on platforms other than "

#: ``sys.platform`` values (and the prefixes ``startswith`` tests), as people name them.
PLATFORMS = {
    "win32": "Windows",
    "win": "Windows",
    "cygwin": "Cygwin",
    "msys": "MSYS",
    "linux": "Linux",
    "darwin": "macOS",
    "freebsd": "FreeBSD",
    "openbsd": "OpenBSD",
    "netbsd": "NetBSD",
    "aix": "AIX",
    "sunos": "Solaris",
    "java": "Jython",
    "emscripten": "Emscripten (WebAssembly)",
    "wasi": "WASI (WebAssembly)",
    "ios": "iOS",
    "android": "Android",
    "vxworks": "VxWorks",
}
#: ``os.name`` values.
_OS_NAMES = {"nt": "Windows", "posix": "POSIX systems (Linux, macOS, the BSDs)", "java": "Jython"}
#: ``platform.system()`` results.
_SYSTEMS = {"Windows": "Windows", "Linux": "Linux", "Darwin": "macOS", "Java": "Jython"}
#: Modules that exist on one family of platforms only: ``if _winapi:`` (bound by ``try:
#: import _winapi`` / ``except ImportError: _winapi = None``) tests the platform.
PLATFORM_MODULES = {
    "_winapi": "Windows",
    "_overlapped": "Windows",
    "msvcrt": "Windows",
    "winreg": "Windows",
    "winsound": "Windows",
    "nt": "Windows",
    "posix": _OS_NAMES["posix"],
    "fcntl": _OS_NAMES["posix"],
    "termios": _OS_NAMES["posix"],
    "pwd": _OS_NAMES["posix"],
    "grp": _OS_NAMES["posix"],
    "resource": _OS_NAMES["posix"],
    "_posixsubprocess": _OS_NAMES["posix"],
    "_posixshmem": _OS_NAMES["posix"],
}
#: What ``os.py`` tests to choose its platform's module (``if 'posix' in _names``).
BUILTIN_NAMES = "sys.builtin_module_names"
#: How deep a module constant may refer to another (``_WIN = _mswindows``).
_DEPTH = 3


def _module(node: ast.expr, name: str, modules: Mapping[str, str]) -> bool:
    """``node`` is a name bound to the module ``name`` (``sys``, or ``_sys`` imported so)."""
    if not isinstance(node, ast.Name):
        return False
    return modules.get(node.id, node.id if node.id == name else "") == name


def _subject(node: ast.expr, modules: Mapping[str, str]) -> dict[str, str] | None:
    """The table a compared expression's values are looked up in."""
    if isinstance(node, ast.Attribute):
        if node.attr == "platform" and _module(node.value, "sys", modules):
            return PLATFORMS
        if node.attr == "name" and _module(node.value, "os", modules):
            return _OS_NAMES
    if (
        isinstance(node, ast.Call)
        and not node.args
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "system"
        and _module(node.func.value, "platform", modules)
    ):
        return _SYSTEMS
    return None


def _prefix(node: ast.expr, modules: Mapping[str, str]) -> int | None:
    """N of ``sys.platform[:N]``."""
    if not isinstance(node, ast.Subscript) or _subject(node.value, modules) is not PLATFORMS:
        return None
    cut = node.slice
    if not isinstance(cut, ast.Slice) or cut.lower is not None or cut.step is not None:
        return None
    upper = cut.upper
    if isinstance(upper, ast.Constant) and isinstance(upper.value, int):
        return upper.value
    return None


def builtin_names(node: ast.expr, modules: Mapping[str, str], constants: Mapping[str, str]) -> bool:
    """``sys.builtin_module_names``, or a module constant bound to it (``os.py``'s
    ``_names``): ``'posix' in _names`` tests the platform as ``os.name`` does."""
    if isinstance(node, ast.Name) and constants.get(node.id) == BUILTIN_NAMES:
        return True
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "builtin_module_names"
        and _module(node.value, "sys", modules)
    )


def _platform_module(node: ast.expr, modules: Mapping[str, str]) -> str | None:
    """The platform of a name bound by importing a platform-only module."""
    if not isinstance(node, ast.Name) or node.id not in modules:
        return None
    return PLATFORM_MODULES.get(modules[node.id])


def _strings(node: ast.expr) -> list[str] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        out = [e.value for e in node.elts if isinstance(e, ast.Constant)]
        if len(out) == len(node.elts) and all(isinstance(v, str) for v in out):
            return [str(v) for v in out]
    return None


def _names(values: list[str], table: dict[str, str]) -> list[str] | None:
    """The platforms' names (each once), or None if one is not in the table."""
    out: list[str] = []
    for value in values:
        name = table.get(value)
        if name is None:
            return None
        if name not in out:
            out.append(name)
    return out


def _test(
    node: ast.expr, modules: Mapping[str, str], constants: Mapping[str, str], depth: int
) -> tuple[list[str], bool] | None:
    """(platforms, holds on them) for a platform test: ``(["Windows"], False)`` is
    ``sys.platform != "win32"``."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _test(node.operand, modules, constants, depth)
        return None if inner is None else (inner[0], not inner[1])
    module = _platform_module(node, modules)
    if module is not None:  # ``if _winapi:``
        return [module], True
    if isinstance(node, ast.Name) and node.id in constants and depth < _DEPTH:
        try:
            bound = ast.parse(constants[node.id], mode="eval").body
        except SyntaxError:
            return None
        return _test(bound, modules, constants, depth + 1)
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        op, right = node.ops[0], node.comparators[0]
        if isinstance(op, (ast.Is, ast.IsNot)):  # ``_winapi is None``
            module = _platform_module(node.left, modules)
            none = isinstance(right, ast.Constant) and right.value is None
            return ([module], isinstance(op, ast.IsNot)) if module and none else None
        prefix = _prefix(node.left, modules)
        if prefix is not None:  # ``sys.platform[:4] == "java"``: a startswith
            values = _strings(node.comparators[0])
            if values is None or len(values) != 1 or len(values[0]) != prefix:
                return None
            names = _names(values, PLATFORMS)
            ops = (ast.Eq, ast.NotEq)
            if names is None or not isinstance(node.ops[0], ops):
                return None
            return names, isinstance(node.ops[0], ast.Eq)
        if isinstance(op, (ast.In, ast.NotIn)) and builtin_names(right, modules, constants):
            tested = _strings(node.left)  # ``'nt' in sys.builtin_module_names``
            names = _names(tested, _OS_NAMES) if tested is not None else None
            return None if names is None else (names, isinstance(op, ast.In))
        table = _subject(node.left, modules)
        values = _strings(node.comparators[0])
        if table is None or values is None:
            return None
        op = node.ops[0]
        if isinstance(op, (ast.Eq, ast.NotEq)) and len(values) == 1:
            names = _names(values, table)
            return None if names is None else (names, isinstance(op, ast.Eq))
        if isinstance(op, (ast.In, ast.NotIn)) and len(values) > 1:
            names = _names(values, table)
            return None if names is None else (names, isinstance(op, ast.In))
        return None
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "startswith"
        and len(node.args) == 1
        and not node.keywords
        and _subject(node.func.value, modules) is PLATFORMS
    ):
        values = _strings(node.args[0])
        names = _names(values, PLATFORMS) if values else None
        return None if names is None else (names, True)
    if isinstance(node, ast.BoolOp):
        parts = [_test(v, modules, constants, depth) for v in node.values]
        if any(p is None for p in parts):
            return None
        found = [p for p in parts if p is not None]
        holds = {p[1] for p in found}
        # ``a or b`` of platforms is "on A or B"; ``not a and not b`` "other than A and B"
        if holds == {isinstance(node.op, ast.Or)}:
            names = [n for p in found for n in p[0]]
            return list(dict.fromkeys(names)), isinstance(node.op, ast.Or)
    return None


def _may_test(text: str, modules: Mapping[str, str], constants: Mapping[str, str]) -> bool:
    """Cheap: ``text`` names something a platform test reads (most conditions do not)."""
    if "platform" in text or "name" in text:
        return True
    if any(name in text for name in constants):
        return True
    return any(alias in text for alias, module in modules.items() if module in PLATFORM_MODULES)


def platform_words(
    text: str, modules: Mapping[str, str] | None = None, constants: Mapping[str, str] | None = None
) -> str | None:
    """``sys.platform == "win32"`` -> "on Windows"; ``os.name != "nt"`` -> "on platforms
    other than Windows"; None when ``text`` is not a platform test alone. ``modules``:
    import aliases (``_sys`` -> ``sys``); ``constants``: module constants bound to a
    test (``_mswindows`` -> ``sys.platform == "win32"``)."""
    modules, constants = modules or {}, constants or {}
    if not _may_test(text, modules, constants):
        return None
    node = parse_guard(text)
    if node is None:
        return None
    found = _test(node, modules, constants, 0)
    if found is None:
        return None
    names, holds = found
    if holds:
        return "on " + " or ".join(names)
    return OTHER_THAN + " and ".join(names)


def _here() -> frozenset[str]:
    """This interpreter's platform as the table names it, every way it is named."""
    names = {_OS_NAMES.get(os.name, ""), _SYSTEMS.get(platform.system(), "")}
    names.update(name for value, name in PLATFORMS.items() if sys.platform.startswith(value))
    return frozenset(names - {""})


_HERE = _here()


def holds_here(words: str) -> bool:
    """Whether :func:`platform_words`' ``words`` hold on the platform this runs on:
    ``os.py`` imports ``posixpath`` as ``path`` here, on Linux, and ``ntpath`` on Windows."""
    if words.startswith(OTHER_THAN):
        return not any(n in _HERE for n in words[len(OTHER_THAN) :].split(" and "))
    return any(n in _HERE for n in words.removeprefix("on ").split(" or "))


def flag_names(body: list[ast.stmt], value: bool) -> set[str]:
    """Names a block binds to the constant ``value`` (``_mswindows = False``)."""
    return {
        t.id
        for x in body
        if isinstance(x, ast.Assign)
        and isinstance(x.value, ast.Constant)
        and x.value.value is value
        for t in x.targets
        if isinstance(t, ast.Name)
    }
