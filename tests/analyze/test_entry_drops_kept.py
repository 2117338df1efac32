"""Callers the fixed-argument and receiver rules must keep: each route below raises.

A read-only review of session 38 ran each: a ``**kwargs`` that gains keys where no fact
sees it, a class whose call may hand back a class, a name an enclosing function binds,
plumbing whose only listed caller was dropped, a method also bound under another name.
"""

from __future__ import annotations

from pathlib import Path

from .fixture_chains import chains_of
from .stdlib_items import one_file_items

_KWARGS = (
    "__all__ = ['aliased', 'quiet', 'handed', 'plain', 'nested', 'loud', 'updated',"
    " 'level', 'unpacked', 'copied', 'opened', 'read_bytes']\n"
    "\n\n"
    "def aliased(**kwargs):\n"
    "    opts = kwargs\n"
    "    kwargs.pop('force', None)\n"
    "    opts['filename'] = 'x'\n"
    "    if 'stream' in kwargs and 'filename' in kwargs:\n"
    "        raise ValueError('aliased: stream and filename')\n"
    "\n\n"
    "def quiet(out):\n"
    "    aliased(stream=out)\n"
    "\n\n"
    "def _fill(d):\n"
    "    d['handlers'] = [1]\n"
    "\n\n"
    "def handed(**kwargs):\n"
    "    _fill(kwargs)\n"
    "    kwargs.pop('force', None)\n"
    "    if 'handlers' in kwargs:\n"
    "        raise ValueError('handed: handlers given')\n"
    "\n\n"
    "def plain():\n"
    "    handed(level=10)\n"
    "\n\n"
    "def nested(**kwargs):\n"
    "    def add():\n"
    "        kwargs['filename'] = 'x'\n"
    "    kwargs.pop('force', None)\n"
    "    add()\n"
    "    if 'stream' in kwargs and 'filename' in kwargs:\n"
    "        raise ValueError('nested: stream and filename')\n"
    "\n\n"
    "def loud(out):\n"
    "    nested(stream=out)\n"
    "\n\n"
    "def updated(**kwargs):\n"
    "    kwargs.pop('force', None)\n"
    "    dict.update(kwargs, handlers=[1])\n"
    "    if 'handlers' in kwargs:\n"
    "        raise ValueError('updated: handlers given')\n"
    "\n\n"
    "def level():\n"
    "    updated(level=10)\n"
    "\n\n"
    "def unpacked(**kwargs):\n"
    "    kwargs.pop('force', None)\n"
    "    print(**kwargs)\n"
    "    if 'handlers' in kwargs:\n"
    "        raise ValueError('unpacked: handlers given')\n"
    "\n\n"
    "def copied():\n"
    "    unpacked(level=10)\n"
    "\n\n"
    "def opened(mode, *args, **kwargs):\n"
    "    if 'b' in mode:\n"
    "        if args or kwargs:\n"
    "            raise ValueError('opened: encoding args invalid')\n"
    "    return print(*args, **kwargs)\n"
    "\n\n"
    "def read_bytes():\n"
    "    return opened('rb')\n"
)


def _entries(items: list[tuple[dict, dict]], message: str) -> list[str]:
    """The entry points of the one record whose message holds ``message``."""
    found = [
        [p["qualname"] for p in e["entryPoints"]] for r, e in items if message in r["errorMessage"]
    ]
    assert len(found) == 1, message
    return found[0]


def test_a_kwargs_that_gains_keys_unseen_keeps_its_callers(tmp_path: Path) -> None:
    """An alias, a helper handed the mapping, a nested function and ``dict.update(kwargs,
    …)`` each add a key: the caller that passes ``stream`` alone or ``level`` alone
    reaches the raise. ``print(**kwargs)`` gets a copy and ``if args or kwargs:`` only
    tests it: ``copied`` and ``read_bytes`` (``zipfile.Path.read_bytes``) stay dropped."""
    items = one_file_items(tmp_path, "m.py", _KWARGS)
    assert "m.quiet" in _entries(items, "aliased: stream and filename")
    assert "m.plain" in _entries(items, "handed: handlers given")
    assert "m.loud" in _entries(items, "nested: stream and filename")
    assert "m.level" in _entries(items, "updated: handlers given")
    assert "m.copied" not in _entries(items, "unpacked: handlers given")
    assert _entries(items, "opened: encoding args invalid") == ["m.opened"]


_CLASSES = (
    "def add_metaclass(meta):\n"
    "    def wrap(cls):\n"
    "        return meta(cls.__name__, cls.__bases__, dict(cls.__dict__))\n"
    "    return wrap\n"
    "\n\n"
    "class Meta(type):\n"
    "    def __call__(cls, *args):\n"
    "        return cls\n"
    "\n\n"
    "def with_metaclass(meta, *bases):\n"
    "    return meta('tmp', bases, {})\n"
    "\n\n"
    "def _factory(cls, *a):\n"
    "    return cls\n"
    "\n\n"
    "class Hooked:\n"
    "    def __init_subclass__(cls):\n"
    "        cls.__new__ = _factory\n"
    "\n\n"
    "@add_metaclass(Meta)\n"
    "class Deco:\n"
    "    pass\n"
    "\n\n"
    "class Assigned:\n"
    "    __new__ = _factory\n"
    "\n\n"
    "class Based(with_metaclass(Meta, object)):\n"
    "    pass\n"
    "\n\n"
    "class Sub(Based):\n"
    "    pass\n"
    "\n\n"
    "class Child(Hooked):\n"
    "    pass\n"
    "\n\n"
    "class Case:\n"
    "    pass\n"
    "\n\n"
    "def add(test):\n"
    "    if isinstance(test, type):\n"
    "        raise TypeError('must be instantiated')\n"
    "\n\n"
    "def deco():\n"
    "    add(Deco())\n"
    "\n\n"
    "def assigned():\n"
    "    add(Assigned())\n"
    "\n\n"
    "def based():\n"
    "    add(Based())\n"
    "\n\n"
    "def sub():\n"
    "    add(Sub())\n"
    "\n\n"
    "def child():\n"
    "    add(Child())\n"
    "\n\n"
    "def plain():\n"
    "    add(Case())\n"
    "\n\n"
    "def outer(Case):\n"
    "    def inner():\n"
    "        add(Case())\n"
    "    inner()\n"
)


def test_a_class_the_index_does_not_show_in_full_may_build_a_class(tmp_path: Path) -> None:
    """A class decorator, ``__new__ = _factory`` in the body, a base written as a call
    (and a subclass of such a class), a base's ``__init_subclass__``: each ``Cls()``
    here returns a class, and ``add`` raises. ``Case`` in ``inner`` is ``outer``'s
    parameter, not the module's class. Only ``plain`` passes a sure instance."""
    _, chains = chains_of(tmp_path, {"m.py": _CLASSES})
    at = _CLASSES.splitlines().index("        raise TypeError('must be instantiated')") + 1
    where = {"line": at, "at": at, "guard_lines": [at - 1]}
    walk = chains.walk("m.add", "builtins.TypeError", ["isinstance(test, type)"], **where)
    names = {h.qualname for h in walk.hops}
    kept = {
        "m.deco",
        "m.assigned",
        "m.based",
        "m.sub",
        "m.child",
        "m.outer.<locals>.inner",
        "m.outer",
    }
    assert kept <= names
    assert "m.plain" not in names


_RECEIVERS = (
    "__all__ = ['Base', 'Choice', 'Loader', 'Picky']\n"
    "\n\n"
    "class Base:\n"
    "    def load(self, name):\n"
    "        return self.get_source(name)\n"
    "\n"
    "    fetch = load\n"
    "\n"
    "    def get_source(self, name):\n"
    "        return name\n"
    "\n\n"
    "class Choice(Base):\n"
    "    def load(self, name):\n"
    "        return 'cached'\n"
    "\n"
    "    def get_source(self, name):\n"
    "        raise LookupError('choice: template not found')\n"
    "\n\n"
    "class Loader:\n"
    "    def load(self, name):\n"
    "        return self._src(name)\n"
    "\n"
    "    def _src(self, name):\n"
    "        return name\n"
    "\n\n"
    "class Picky(Loader):\n"
    "    def load(self, name):\n"
    "        return 'cached'\n"
    "\n"
    "    def _src(self, name):\n"
    "        return helper(name)\n"
    "\n\n"
    "def helper(name):\n"
    "    raise LookupError('helper: not found')\n"
)


def test_a_method_bound_under_another_name_stays_an_entry_point(tmp_path: Path) -> None:
    """``Choice`` overrides ``load`` but not ``fetch = load``: ``Choice().fetch(n)`` runs
    ``Base.load`` on a ``Choice`` and raises."""
    items = one_file_items(tmp_path, "m.py", _RECEIVERS)
    assert "m.Base.load" in _entries(items, "choice: template not found")


def test_plumbing_of_a_dropped_method_is_named_for_itself(tmp_path: Path) -> None:
    """``Loader.load`` runs ``Picky._src`` on no object (``Picky`` overrides ``load``), so
    it is dropped; ``helper``, which it reached the raise through, is then no step of a
    way in and is named (``helper("x")`` raises)."""
    items = one_file_items(tmp_path, "m.py", _RECEIVERS)
    named = _entries(items, "helper: not found")
    assert "m.Loader.load" not in named
    assert "m.helper" in named
