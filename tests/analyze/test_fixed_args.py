"""A caller that never passes a keyword a popped ``**kwargs`` guard needs is no way in."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.chains import Chains
from errdex.analyze.classes import ClassTree
from errdex.analyze.fixed_args import KeysAtMost, after_removals
from errdex.analyze.guard_eval import EMPTY_KWARGS, guard_value
from errdex.analyze.repo import build_index
from errdex.source.stdlib import stdlib_checkout

from .fixture_chains import chains_of
from .stdlib_items import ON_311, one_file_items, stdlib_items

_POPPED = (
    "__all__ = ['configure', 'quiet', 'both', 'forwarded', 'emptied', 'setup', 'plain',"
    " 'custom']\n"
    "\n\n"
    "def configure(**kwargs):\n"
    "    force = kwargs.pop('force', False)\n"
    "    if 'stream' in kwargs and 'filename' in kwargs:\n"
    "        raise ValueError('stream and filename together')\n"
    "    return force\n"
    "\n\n"
    "def quiet():\n"
    "    configure(format='%(message)s', level=10)\n"
    "\n\n"
    "def both(out):\n"
    "    configure(stream=out, filename='log.txt')\n"
    "\n\n"
    "def forwarded(**options):\n"
    "    configure(stream=None, **options)\n"
    "\n\n"
    "def _strict(**kwargs):\n"
    "    kwargs.pop('force', None)\n"
    "    if kwargs:\n"
    "        raise TypeError('unexpected keywords')\n"
    "\n\n"
    "def emptied():\n"
    "    _strict(force=True)\n"
    "\n\n"
    "def setup(**kwargs):\n"
    "    handlers = kwargs.pop('handlers', None)\n"
    "    if handlers is not None:\n"
    "        raise ValueError('handlers given')\n"
    "\n\n"
    "def plain():\n"
    "    setup(level=10)\n"
    "\n\n"
    "def custom(h):\n"
    "    setup(handlers=h)\n"
)


def _entries(items: list[tuple[dict, dict]], message: str) -> list[str]:
    (evidence,) = [e for r, e in items if r["errorMessage"].startswith(message)]
    return [e["qualname"] for e in evidence["entryPoints"]]


def test_a_caller_passing_neither_popped_key_is_dropped(tmp_path: Path) -> None:
    """Blind review stop 36: ``lib2to3.main.main`` calls ``basicConfig(format=…,
    level=…)``. The body pops other keys before the test; a pop never adds one, so
    ``quiet`` cannot raise; ``both`` passes the two, ``forwarded`` may (its ``**options``)."""
    items = one_file_items(tmp_path, "m.py", _POPPED)
    named = _entries(items, "stream and filename together")
    assert "m.quiet" not in named
    assert {"m.configure", "m.both", "m.forwarded"} <= set(named)
    # ``_strict(force=True)`` passes a key the body pops: ``if kwargs`` is not decided
    assert "m.emptied" in _entries(items, "unexpected keywords")


def test_a_local_popped_from_kwargs_holds_its_default(tmp_path: Path) -> None:
    """``handlers = kwargs.pop("handlers", None)`` then ``if handlers is not None``
    (``basicConfig``'s "'stream' or 'filename' should not be specified together with
    'handlers'"): a caller that passes no ``handlers`` leaves it ``None``."""
    items = one_file_items(tmp_path, "m.py", _POPPED)
    named = _entries(items, "handlers given")
    assert "m.plain" not in named
    assert "m.custom" in named


def test_keys_at_most_decides_absence_alone() -> None:
    kwargs = KeysAtMost(["format", "level"])
    assert guard_value("'stream' in kwargs and 'filename' in kwargs", {"kwargs": kwargs}) is False
    assert guard_value("'stream' not in kwargs", {"kwargs": kwargs}) is True
    assert guard_value("'format' in kwargs", {"kwargs": kwargs}) is None
    assert guard_value("kwargs", {"kwargs": kwargs}) is None
    assert guard_value("len(kwargs) > 0", {"kwargs": kwargs}) is None
    assert guard_value("kwargs.pop('handlers', None) is None", {"kwargs": kwargs}) is True
    assert guard_value("kwargs.get('handlers', 1) == 1", {"kwargs": kwargs}) is True
    assert guard_value("kwargs.pop('level', None) is None", {"kwargs": kwargs}) is None
    assert guard_value("kwargs.pop('handlers') is None", {"kwargs": kwargs}) is None
    assert after_removals(EMPTY_KWARGS) is EMPTY_KWARGS
    assert after_removals(("a",)) is None


@ON_311
def test_basic_config_is_not_reached_from_callers_without_both_keys() -> None:
    """``lib2to3.main.main`` passes ``format`` and ``level``, ``driver.main`` ``stream``
    without ``filename`` (blind review stop 36, record 25246228e99a5ace)."""
    items = stdlib_items("logging/__init__.py", "lib2to3/main.py", "lib2to3/pgen2/driver.py")
    named = _entries(items, "'stream' and 'filename' should not be specified together")
    assert "logging.basicConfig" in named
    assert "lib2to3.main.main" not in named
    assert "lib2to3.pgen2.driver.main" not in named
    # ``driver.main`` passes ``stream`` but no ``handlers``: ``handlers`` is ``None``
    named = _entries(items, "'stream' or 'filename' should not be specified together with")
    assert named == ["logging.basicConfig"]


_MADE = (
    "class Case:\n"
    "    def __init__(self, name):\n"
    "        self.name = name\n"
    "\n\n"
    "class Meta(type):\n"
    "    pass\n"
    "\n\n"
    "class Odd(metaclass=Meta):\n"
    "    pass\n"
    "\n\n"
    "class Suite:\n"
    "    def add(self, test):\n"
    "        if isinstance(test, type) and issubclass(test, Case):\n"
    "            raise TypeError('instantiate the case first')\n"
    "\n"
    "    def need(self, test=None):\n"
    "        if test is None:\n"
    "            raise ValueError('a test is needed')\n"
    "\n\n"
    "def build(name):\n"
    "    suite = Suite()\n"
    "    suite.add(Case(name))\n"
    "\n\n"
    "def build_local(name):\n"
    "    case = Case(name)\n"
    "    suite = Suite()\n"
    "    suite.add(case)\n"
    "\n\n"
    "def build_class():\n"
    "    suite = Suite()\n"
    "    suite.add(Case)\n"
    "\n\n"
    "def build_meta():\n"
    "    suite = Suite()\n"
    "    suite.add(Odd())\n"
    "\n\n"
    "def maybe(name, Case):\n"
    "    suite = Suite()\n"
    "    suite.add(Case(name))\n"
    "\n\n"
    "def given(name):\n"
    "    suite = Suite()\n"
    "    suite.need(Case(name))\n"
)


def _line(text: str, source: str) -> int:
    return source.splitlines().index(text) + 1


def test_a_new_instance_passed_is_no_class_and_no_none(tmp_path: Path) -> None:
    """Blind review stop 36: ``DocTestSuite`` passes ``DocTestCase(test)`` to
    ``addTest``, whose raise needs a class. A class passed, one with a metaclass (which
    may build anything) and a parameter named like the class keep their callers."""
    _, chains = chains_of(tmp_path, {"m.py": _MADE})
    test = "        if isinstance(test, type) and issubclass(test, Case):"
    at = _line(test, _MADE) + 1
    walk = chains.walk(
        "m.Suite.add",
        "builtins.TypeError",
        ["isinstance(test, type) and issubclass(test, Case)"],
        line=at,
        at=at,
        guard_lines=[at - 1],
    )
    names = {h.qualname for h in walk.hops}
    assert names == {"m.Suite.add", "m.build_class", "m.build_meta", "m.maybe"}
    at = _line("            raise ValueError('a test is needed')", _MADE)
    walk = chains.walk(
        "m.Suite.need",
        "builtins.ValueError",
        ["test is None"],
        line=at,
        at=at,
        guard_lines=[at - 1],
    )
    assert {h.qualname for h in walk.hops} == {"m.Suite.need"}


@ON_311
def test_doctest_suites_pass_instances_to_add_test() -> None:
    """``DocTestSuite`` calls ``suite.addTest(DocTestCase(test, **options))`` and
    ``addTest(SkipDocTestCase(module))`` (doctest.py 2422, 2436): no class, so no way to
    "TestCases and TestSuites must be instantiated" (record 3e4ae74c9f619235).
    ``BaseTestSuite.addTests`` passes what it is given, and stays. (``DocTestSuite`` still
    reaches it through ``_DocTestSuite()``'s ``__init__``, which loops over an empty
    ``tests``: another family.)"""
    files = ["unittest/__init__.py", "unittest/suite.py", "unittest/case.py", "doctest.py"]
    index = build_index(stdlib_checkout(), library_files=files, test_globs=())
    chains = Chains(index, ClassTree(index))
    guard = "isinstance(test, type) and issubclass(test, (case.TestCase, TestSuite))"
    walk = chains.walk(
        "unittest.suite.BaseTestSuite.addTest",
        "builtins.TypeError",
        [guard],
        line=50,
        at=50,
        guard_lines=[48],
    )
    names = {h.qualname for h in walk.hops}
    assert "unittest.suite.BaseTestSuite.addTests" in names
    direct = {h.qualname for h in walk.hops if h.depth == 1}
    assert "doctest.DocTestSuite" not in direct
