"""A package-wide search read the package folder too (issue 13): a module added or
removed, or a file it skipped (not UTF-8) made readable, re-extracts the files whose
records it decided, and the re-scan equals a fresh full scan. Before, only the search
for callers noted the folder, and no search noted the files it skipped."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.extract.python import package_calls
from errdex.scan import ScanResult

from .test_scan_views import _export, _messages, _scan, tree

__all__ = ["tree"]

STORE = "def paint(config):\n    config.COLOR = 'blue'\n"
#: A latin-1 module calling parser.py's ``fail``, with no cookie saying so: Python and the
#: package searches cannot read it (one with a cookie they read: test_scan_views_links).
WEIRD = "# caf\xe9\nfrom .parser import fail\n\n\ndef other():\n"
WEIRD += "    fail('odd', exc=IndexError)\n"


def _change(tree: Path, change: object) -> tuple[ScanResult, ScanResult]:
    """(the re-scan after ``change(package folder)``, a fresh full scan of it)."""
    cache = tree.parent / "cache.sqlite"
    _scan(tree, cache)
    assert callable(change)
    change(tree / "src/pkg")
    return _scan(tree, cache), _scan(tree, None)


def test_a_new_module_storing_the_name_re_extracts_the_raising_file(tree: Path) -> None:
    """new.py stores ``config.COLOR``: config.py's message is no longer settled."""
    after, fresh = _change(tree, lambda pkg: (pkg / "new.py").write_text(STORE))
    assert _messages(fresh, "config.py") != {"colour is red"}
    assert _messages(after, "config.py") == _messages(fresh, "config.py")
    assert _export(after) == _export(fresh)


def test_a_new_module_building_the_class_re_extracts_the_module_building_it(tree: Path) -> None:
    """new.py builds a ``Failure`` with a text lexer.py cannot see: a hole again."""
    built = "from .lexer import Failure\nODD = Failure(compute())\n"
    after, fresh = _change(tree, lambda pkg: (pkg / "new.py").write_text(built))
    assert _messages(fresh, "lexer.py") != {"Missing end of comment tag"}
    assert _messages(after, "lexer.py") == _messages(fresh, "lexer.py")
    assert _export(after) == _export(fresh)


def test_a_skipped_file_made_readable_re_extracts_the_files_that_searched(tree: Path) -> None:
    """weird.py (latin-1) was skipped by the search for ``fail(``; re-encoded as UTF-8
    its call adds a message to parser.py's records."""
    (tree / "src/pkg/weird.py").write_bytes(WEIRD.encode("latin-1"))

    def reencode(pkg: Path) -> None:
        (pkg / "weird.py").write_text(WEIRD.replace("\xe9", "e"), encoding="utf-8")

    after, fresh = _change(tree, reencode)
    assert "odd" in _messages(fresh, "parser.py")
    assert _messages(after, "parser.py") == _messages(fresh, "parser.py")
    assert _export(after) == _export(fresh)


def test_a_package_shrinking_below_the_limit_re_extracts(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seven files, six searched at most: no search read any. Removing helper.py brings
    the package to six, and new.py's store of ``config.COLOR`` comes into view."""
    monkeypatch.setattr(package_calls, "MAX_FILES", 6)
    (tree / "src/pkg/new.py").write_text(STORE)
    after, fresh = _change(tree, lambda pkg: (pkg / "helper.py").unlink())
    assert _messages(fresh, "config.py") != {"colour is red"}
    assert _export(after) == _export(fresh)


def test_an_edit_adding_no_file_still_re_extracts_only_the_edited_file(tree: Path) -> None:
    """The folder's listing is what is compared: a function appended to helper.py
    leaves it as it was, so no file that searched the package is read again."""
    appended = '\n\ndef _probe(x):\n    raise TypeError(f"probe {x}")\n'

    def edit(pkg: Path) -> None:
        (pkg / "helper.py").write_text((pkg / "helper.py").read_text() + appended)

    after, fresh = _change(tree, edit)
    use = after.cache_use
    assert use is not None and use.files_reread == 1 and use.files_reread_for_reads == 0
    assert _export(after) == _export(fresh)
