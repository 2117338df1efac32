"""The repository index's class names: a module's top-level alias of a class is that class."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.repo import RepoIndex

from .test_callgraph import _index_of

FILES = {
    "pkg/__init__.py": "",
    "pkg/dumb.py": (
        "error = OSError\n"
        "\n"
        "class _Error(Exception):\n"
        "    pass\n"
        "\n"
        "Error = _Error\n"
        "twice = KeyError\n"
        "twice = IndexError\n"
        "pair = (OSError, KeyError)\n"
    ),
    "pkg/user.py": "from pkg import dumb as dumbdbm\nfrom pkg.dumb import error\n",
}


def _index(tmp_path: Path) -> RepoIndex:
    return _index_of(tmp_path, FILES)


def test_a_top_level_alias_of_a_class_is_that_class(tmp_path: Path) -> None:
    """``dbm.dumb``'s ``error = OSError``: a test's ``dumbdbm.error`` catches what
    ``raise error(...)`` raises, ``builtins.OSError``; a repository class's alias is
    the class."""
    index = _index(tmp_path)
    assert index.canonical_class("pkg.user", ("dumbdbm", "error")) == "builtins.OSError"
    assert index.canonical_class("pkg.dumb", ("error",)) == "builtins.OSError"
    assert index.canonical_class("pkg.user", ("error",)) == "builtins.OSError"  # imported
    assert index.canonical_class("pkg.user", ("dumbdbm", "Error")) == "pkg.dumb._Error"


def test_a_name_bound_twice_or_to_a_tuple_is_no_alias(tmp_path: Path) -> None:
    index = _index(tmp_path)
    assert index.canonical_class("pkg.user", ("dumbdbm", "twice")) == "pkg.dumb.twice"
    assert index.canonical_class("pkg.user", ("dumbdbm", "pair")) == "pkg.dumb.pair"
