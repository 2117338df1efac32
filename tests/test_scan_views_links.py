"""Package files are read as the scan reads them (their coding cookie decides), and a
symlink the package searches skipped is told apart from a regular file of the same
content, so replacing one by the other re-extracts the files that searched."""

from __future__ import annotations

from pathlib import Path

from .test_scan_views import _export, _messages, _scan, tree

__all__ = ["tree"]

#: A latin-1 module calling parser.py's ``fail``, its cookie saying so.
LATIN = "# -*- coding: latin-1 -*-\n# caf\xe9\nfrom .parser import fail\n\n\ndef other():\n"
LATIN += "    fail('odd', exc=IndexError)\n"
#: A latin-1 module whose exception builds its message; raised from another module.
ERRORS = "# -*- coding: latin-1 -*-\n# caf\xe9\n\n\nclass BadColour(ValueError):\n"
ERRORS += "    def __init__(self, name):\n        super().__init__(f'no colour {name}')\n"
RAISER = "from .errors import BadColour\n\n\ndef pick(name):\n    raise BadColour(name)\n"


def test_a_latin_1_module_is_searched_as_the_scan_reads_it(tree: Path) -> None:
    """weird.py is latin-1 with a cookie, as Python reads it: its call of ``fail`` gives
    parser.py a message (before, the search read it as UTF-8 and skipped it)."""
    (tree / "src/pkg/weird.py").write_bytes(LATIN.encode("latin-1"))
    assert "odd" in _messages(_scan(tree, None), "parser.py")


def test_a_latin_1_module_is_imported_as_the_scan_reads_it(tree: Path) -> None:
    """errors.py is latin-1: the message its class builds is read from it."""
    (tree / "src/pkg/errors.py").write_bytes(ERRORS.encode("latin-1"))
    (tree / "src/pkg/raiser.py").write_text(RAISER)
    assert _messages(_scan(tree, None), "raiser.py") == {"no colour ([\\s\\S]*?)"}


def test_a_skipped_symlink_replaced_by_the_same_file_re_extracts(tree: Path) -> None:
    """link.py, a symlink, is skipped by the search for ``fail(``; replaced by a regular
    file of the same content, its call adds a message to parser.py's records."""
    target = tree / "calls.txt"
    target.write_text(LATIN.replace("\xe9", "e"))
    link = tree / "src/pkg/link.py"
    link.symlink_to(target)
    cache = tree.parent / "cache.sqlite"
    before = _scan(tree, cache)
    assert "odd" not in _messages(before, "parser.py")
    link.unlink()
    link.write_bytes(target.read_bytes())
    after, fresh = _scan(tree, cache), _scan(tree, None)
    assert "odd" in _messages(fresh, "parser.py")
    assert _export(after) == _export(fresh)
