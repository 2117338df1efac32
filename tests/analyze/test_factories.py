"""A call of a function that only returns ``Cls(...)`` passes a new instance."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.chains import Chains
from errdex.analyze.classes import ClassTree
from errdex.analyze.repo import build_index
from errdex.source.stdlib import stdlib_checkout

from .fixture_chains import chains_of
from .stdlib_items import ON_311

_SUITE = (
    "__all__ = ['Case', 'add', 'from_factory', 'from_maybe', 'from_local', 'from_two',"
    " 'from_param']\n"
    "\n\n"
    "class Case:\n"
    "    pass\n"
    "\n\n"
    "class Other:\n"
    "    pass\n"
    "\n\n"
    "def add(test):\n"
    "    if isinstance(test, type):\n"
    "        raise TypeError('instantiate it first')\n"
    "\n\n"
    "def _make(name):\n"
    "    if not name:\n"
    "        raise ValueError('no name')\n"
    "    return Case()\n"
    "\n\n"
    "def _maybe(name):\n"
    "    if name:\n"
    "        return Case()\n"
    "\n\n"
    "def _held(name):\n"
    "    case = Case()\n"
    "    return case\n"
    "\n\n"
    "def _two(name):\n"
    "    if name:\n"
    "        return Case()\n"
    "    return Other\n"
    "\n\n"
    "def _given(Case):\n"
    "    return Case()\n"
    "\n\n"
    "def from_factory():\n"
    "    add(_make('a'))\n"
    "\n\n"
    "def from_maybe():\n"
    "    add(_maybe('a'))\n"
    "\n\n"
    "def from_local():\n"
    "    add(_held('a'))\n"
    "\n\n"
    "def from_two():\n"
    "    add(_two('a'))\n"
    "\n\n"
    "def from_param():\n"
    "    add(_given(type))\n"
)


def _named(tmp_path: Path, text: str) -> set[str]:
    """The functions the walk up from ``add``'s raise reaches in the module ``text``."""
    _, chains = chains_of(tmp_path, {"m.py": text})
    at = text.splitlines().index("        raise TypeError('instantiate it first')") + 1
    walk = chains.walk(
        "m.add", "builtins.TypeError", ["isinstance(test, type)"], line=at, at=at,
        guard_lines=[at - 1],
    )  # fmt: skip
    return {h.qualname for h in walk.hops}


def test_a_factory_returning_one_class_call_passes_an_instance(tmp_path: Path) -> None:
    """Blind review stop 36 (``DocFileSuite`` adds ``DocFileTest(path)``, which ends
    ``return DocFileCase(...)``): ``from_factory`` and ``from_local`` pass instances
    and cannot raise; ``_maybe`` may fall off its end (``None``), ``_two`` returns a
    class, ``_given`` calls its parameter: those callers stay."""
    named = _named(tmp_path, _SUITE)
    assert "m.from_factory" not in named
    assert "m.from_local" not in named
    assert {"m.from_maybe", "m.from_two", "m.from_param"} <= named


@ON_311
def test_doc_file_suite_passes_instances_to_add_test() -> None:
    """``DocFileSuite`` calls ``suite.addTest(DocFileTest(path, **kw))`` (doctest.py
    2544); ``DocFileTest`` returns ``DocFileCase(test, **options)``: no class, so it
    calls ``addTest`` with nothing that meets "must be instantiated"."""
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
    direct = {h.qualname for h in walk.hops if h.depth == 1}
    assert "unittest.suite.BaseTestSuite.addTests" in direct
    assert "doctest.DocFileSuite" not in direct


_TWICE = (
    "import sys\n"
    "\n\n"
    "class Case:\n"
    "    pass\n"
    "\n\n"
    "def add(test):\n"
    "    if isinstance(test, type):\n"
    "        raise TypeError('instantiate it first')\n"
    "\n\n"
    "def make(x):\n"
    "    return Case()\n"
    "\n\n"
    "def make(x):\n"
    "    return Case\n"
    "\n\n"
    "if sys.maxsize > 2**40:\n"
    "    def branch():\n"
    "        return Case()\n"
    "else:\n"
    "    def branch():\n"
    "        return Case\n"
    "\n\n"
    "def once():\n"
    "    return Case()\n"
    "\n\n"
    "def assigned():\n"
    "    return Case()\n"
    "\n\n"
    "assigned = lambda: Case\n"
    "\n\n"
    "def build(x):\n"
    "    add(make(x))\n"
    "\n\n"
    "def build_branch():\n"
    "    add(branch())\n"
    "\n\n"
    "def build_assigned():\n"
    "    add(assigned())\n"
    "\n\n"
    "def build_once():\n"
    "    add(once())\n"
)


def test_a_name_bound_again_is_no_factory(tmp_path: Path) -> None:
    """Re-review of a44 (t3.py, t5.py): the index's first ``def make`` returns
    ``Case()``, the second (the one that runs) returns ``Case``, and ``build(1)``
    raises; a ``def`` per branch of an ``if``, or a later ``name = …``, is no factory
    either. A name bound once still is (``build_once``)."""
    named = _named(tmp_path, _TWICE)
    assert {"m.build", "m.build_branch", "m.build_assigned"} <= named
    assert "m.build_once" not in named
