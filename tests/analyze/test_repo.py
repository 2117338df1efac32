"""The repository index's class names: a module's top-level alias of a class is that class."""

from __future__ import annotations

from pathlib import Path

import pytest

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


def test_a_qualified_alias_is_the_class_it_names(tmp_path: Path) -> None:
    """The extractor writes ``asyncio.tasks``' ``raise exceptions.TimeoutError()`` as
    ``asyncio.exceptions.TimeoutError``, which ``TimeoutError = TimeoutError`` binds to
    the builtin: left as written, no ``except`` (``suppress``) of it was known to catch
    it (its ancestors were unknown)."""
    index = _index(tmp_path)
    assert index.canonical_qualified("pkg.dumb.error") == "builtins.OSError"
    assert index.canonical_qualified("pkg.dumb.Error") == "pkg.dumb._Error"
    assert index.canonical_qualified("pkg.dumb.twice") == "pkg.dumb.twice"
    assert index.canonical_qualified("pkg.gone.error") == "pkg.gone.error"


def test_a_name_bound_twice_or_to_a_tuple_is_no_alias(tmp_path: Path) -> None:
    index = _index(tmp_path)
    assert index.canonical_class("pkg.user", ("dumbdbm", "twice")) == "pkg.dumb.twice"
    assert index.canonical_class("pkg.user", ("dumbdbm", "pair")) == "pkg.dumb.pair"


def test_a_file_the_reader_fails_on_is_left_out_and_the_rest_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """One file's facts raising (an unread form once sank pandas' whole analysis) leave
    that file out, counted unreadable and logged; the others are read."""
    from errdex.analyze import repo

    real = repo.module_facts

    def failing(text: str, rel: str, *args: object, **kwargs: object) -> object:
        if rel == "pkg/user.py":
            raise IndexError("list index out of range")
        return real(text, rel, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(repo, "module_facts", failing)
    index = _index(tmp_path)
    assert index.unreadable == ["pkg/user.py"]
    assert "pkg.dumb" in index.modules
    assert "facts of pkg/user.py not read (IndexError" in caplog.text
