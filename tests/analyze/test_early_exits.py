"""An early exit before the raise rules out callers whose constants take it."""

from __future__ import annotations

import ast
from pathlib import Path

from errdex.analyze.early_exits import early_exits

from .fixture_chains import chains_of

# mirrors gettext.translation / gettext.install (CPython 3.11)
_GETTEXT = (
    "def find(domain):\n"  # 1
    "    return []\n"
    "\n"
    "def translation(domain, localedir=None, fallback=False):\n"  # 4
    "    mofiles = find(domain)\n"
    "    if not mofiles:\n"  # 6
    "        if fallback:\n"  # 7
    "            return None\n"
    "        raise FileNotFoundError(domain)\n"  # 9
    "    return mofiles\n"
    "\n"
    "def install(domain, localedir=None):\n"  # 12
    "    return translation(domain, localedir, fallback=True)\n"
    "\n"
    "def strict(domain):\n"  # 15
    "    return translation(domain)\n"
    "\n"
    "def passed_on(domain, fallback):\n"  # 18
    "    return translation(domain, fallback=fallback)\n"
    "\n"
    "def lookup(name, strict=False):\n"  # 21
    "    if not (strict and name):\n"
    "        return None\n"
    "    name = name.strip()\n"
    "    raise KeyError(name)\n"  # 25
    "\n"
    "def checked(name):\n"  # 27
    "    return lookup(name, True)\n"
    "\n"
    "def items(section=None):\n"  # 30
    "    if section is None:\n"
    "        return []\n"
    "    try:\n"
    "        return find(section)\n"
    "    except IndexError:\n"
    "        raise KeyError(section)\n"  # 36: deeper than the exit
    "\n"
    "def every():\n"  # 38
    "    return items()\n"
)


def test_a_caller_whose_constant_takes_the_early_return_is_dropped(tmp_path: Path) -> None:
    _, chains = chains_of(tmp_path, {"gt.py": _GETTEXT})
    hops = chains.reach(
        "gt.translation",
        "builtins.FileNotFoundError",
        ["not mofiles"],
        line=9,
        at=9,
        guard_lines=[6],
    )
    # ``install`` passes ``fallback=True``: it returns at line 8, never raises
    assert sorted(h.qualname for h in hops) == ["gt.passed_on", "gt.strict", "gt.translation"]
    # ``name`` is bound again before the raise: the exit over it judges no caller, and
    # no caller is said to pass it on unchanged to the raise
    hops = chains.reach("gt.lookup", "builtins.KeyError", [], line=25, at=25)
    assert [(h.qualname, dict(h.passes)) for h in hops] == [
        ("gt.lookup", {"strict": "strict"}),
        ("gt.checked", {}),
    ]
    # the exit's block goes on around the raise: ``every`` takes the exit
    hops = chains.reach("gt.items", "builtins.KeyError", [], line=36, at=36)
    assert [h.qualname for h in hops] == ["gt.items"]


def test_only_exits_with_no_else_and_the_statements_after_them_count() -> None:
    func = ast.parse(
        "def f(a, b):\n"  # 1
        "    if a:\n"  # 2
        "        return 1\n"
        "    if b:\n"  # 4: does not leave
        "        log(b)\n"
        "    if b > 1:\n"  # 6: has an else
        "        return 2\n"
        "    else:\n"
        "        pass\n"
        "    for x in b:\n"  # 10
        "        if x:\n"  # 11
        "            continue\n"
        "        raise ValueError\n"  # 13
        "    def g():\n"  # 14: its own function's
        "        if a:\n"
        "            return\n"
        "        raise KeyError\n"
    ).body[0]
    assert isinstance(func, ast.FunctionDef)
    assert early_exits(func) == ((2, "a", 4, 17), (11, "x", 13, 13))


# mirrors inspect.getattr_static / pydoc.HTMLDoc.docroutine (CPython 3.11)
_STATIC = (
    "_sentinel = object()\n"  # 1
    "\n"
    "def getattr_static(obj, attr, default=_sentinel):\n"  # 3
    "    found = obj.__dict__.get(attr, _sentinel)\n"
    "    if found is not _sentinel:\n"
    "        return found\n"
    "    if default is not _sentinel:\n"  # 7
    "        return default\n"
    "    raise AttributeError(attr)\n"  # 9
    "\n"
    "def docroutine(cl, name):\n"  # 11
    "    return getattr_static(cl, name, []) is object\n"
    "\n"
    "def wrapped(cl, name):\n"  # 14
    "    return getattr_static(cl, name, [name])\n"
    "\n"
    "def plain(cl, name):\n"  # 17
    "    return getattr_static(cl, name)\n"
)


def test_a_list_the_call_builds_is_no_module_object(tmp_path: Path) -> None:
    """``pydoc``'s ``docroutine`` passes ``[]`` for ``default``: a new list, never
    ``_sentinel``, so ``getattr_static`` returns it at line 8 and never raises
    (paired blind review, stop 34: two false entry points)."""
    _, chains = chains_of(tmp_path, {"ins.py": _STATIC})
    hops = chains.reach("ins.getattr_static", "builtins.AttributeError", [], line=9, at=9)
    assert sorted(h.qualname for h in hops) == ["ins.getattr_static", "ins.plain"]


# a caller passing a lambda, a comprehension or an f-string for a parameter the raise
# needs to be None
_BUILT_ARGS = (
    "def connect(host, factory=None, name=None):\n"  # 1
    "    if factory is None:\n"
    "        if name is None:\n"
    "            raise TypeError('a factory or a name is required')\n"  # 4
    "    return host\n"
    "\n"
    "def with_lambda(host):\n"  # 7
    "    return connect(host, lambda: host)\n"
    "\n"
    "def with_name(host, port):\n"  # 10
    "    return connect(host, name=f'{host}:{port}')\n"
    "\n"
    "def with_both(host):\n"  # 13
    "    return connect(host, factory=[h for h in host])\n"
    "\n"
    "def bare(host):\n"  # 16
    "    return connect(host)\n"
)


def test_a_value_the_call_builds_is_no_none(tmp_path: Path) -> None:
    _, chains = chains_of(tmp_path, {"built.py": _BUILT_ARGS})
    hops = chains.reach(
        "built.connect",
        "builtins.TypeError",
        ["factory is None", "name is None"],
        line=4,
        at=4,
        guard_lines=[2, 3],
    )
    assert sorted(h.qualname for h in hops) == ["built.bare", "built.connect"]
