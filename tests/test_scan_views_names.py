"""A module read to resolve names in it is a dependency of the importing file only
through the names looked up (issue 13): a function added to it re-extracts nothing else,
an edit of a name looked up re-extracts the importing file, and a module whose names may
mean what its statements do not show (a star import, a module ``__getattr__``) is read
whole. Each re-scan equals a fresh full scan."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.scan import ScanResult

from .test_scan_views import _export, _forget, _messages, _scan

BASE = """\
class BadColour(ValueError):
    def __init__(self, name):
        super().__init__(f"no colour {name}")


def make_error(name):
    return BadColour(name)
"""
USER = """\
from .base import make_error
from . import base


def pick(name):
    raise make_error(name)


def other(name):
    raise base.BadColour(name)
"""
API = "from .base import BadColour\n"
VIA = "from .api import BadColour\n\n\ndef choose(name):\n    raise BadColour(name)\n"
APPENDED = '\n\ndef _probe(x):\n    raise TypeError(f"probe {x}")\n'


@pytest.fixture
def tree(tmp_path: Path) -> Iterator[Path]:
    pkg = tmp_path / "repo" / "src" / "pkg"
    pkg.mkdir(parents=True)
    files = {"__init__": "", "base": BASE, "user": USER, "api": API, "via": VIA}
    for name, text in files.items():
        (pkg / f"{name}.py").write_text(text)
    yield tmp_path / "repo"
    _forget()


def _edit(tree: Path, rel: str, text: str, *, replace: bool = False) -> tuple[ScanResult, ...]:
    """(the re-scan after ``rel`` gets ``text`` appended, or in place of its text, a
    fresh full scan of the edit)."""
    cache = tree.parent / "cache.sqlite"
    _scan(tree, cache)
    path = tree / "src/pkg" / rel
    path.write_text(text if replace else path.read_text() + text)
    return _scan(tree, cache), _scan(tree, None)


def test_the_imported_names_decide_the_records(tree: Path) -> None:
    result = _scan(tree, None)
    assert _messages(result, "user.py") == {"no colour ([\\s\\S]*?)"}
    assert _messages(result, "via.py") == {"no colour ([\\s\\S]*?)"}


def test_a_function_appended_to_an_imported_module_re_extracts_only_it(tree: Path) -> None:
    """user.py and via.py looked up ``make_error`` and ``BadColour`` in base.py; a new
    function there changes neither (before, base.py was read whole by both)."""
    after, fresh = _edit(tree, "base.py", APPENDED)
    use = after.cache_use
    assert use is not None and use.whole == "files"
    assert use.files_reread == 1 and use.files_reread_for_reads == 0
    assert _export(after) == _export(fresh)


def test_an_edit_of_a_name_looked_up_re_extracts_its_importers(tree: Path) -> None:
    """make_error now builds a KeyError: user.py raises something else."""
    changed = BASE.replace("return BadColour(name)", "return KeyError(name)")
    after, fresh = _edit(tree, "base.py", changed, replace=True)
    use = after.cache_use
    assert use is not None and use.files_reread_for_reads >= 1
    assert _export(after) == _export(fresh)


def test_a_class_changed_re_extracts_its_importers(tree: Path) -> None:
    """user.py and via.py (through api.py's re-export) build BadColour's message."""
    changed = BASE.replace('f"no colour {name}"', 'f"no such colour {name}"')
    after, fresh = _edit(tree, "base.py", changed, replace=True)
    assert _messages(fresh, "via.py") == {"no such colour ([\\s\\S]*?)"}
    assert _messages(after, "via.py") == {"no such colour ([\\s\\S]*?)"}
    assert _export(after) == _export(fresh)


@pytest.mark.parametrize(
    "tail",
    [
        "\n\ndef make_error(name):\n    return KeyError(name)\n",  # defined again
        "\n\nmake_error = KeyError\n",  # rebound
        "\n\ndel make_error\n",
        "\n\nclass BadColour(KeyError):\n    pass\n",
    ],
)
def test_a_name_bound_again_below_re_extracts_its_importers(tree: Path, tail: str) -> None:
    after, fresh = _edit(tree, "base.py", tail)
    use = after.cache_use
    assert use is not None and use.files_reread_for_reads >= 1
    assert _export(after) == _export(fresh)


def test_a_re_export_changed_re_extracts_through_it(tree: Path) -> None:
    """api.py re-exports BadColour; it now binds the name to a class of its own."""
    after, fresh = _edit(tree, "api.py", "\n\nclass BadColour(KeyError):\n    pass\n")
    assert _messages(fresh, "via.py") != _messages(_scan(tree, None), "user.py")
    use = after.cache_use
    assert use is not None and "src/pkg/api.py" in use.reads_changed
    assert _export(after) == _export(fresh)


@pytest.mark.parametrize(
    "head",
    [
        "from .extra import *\n",  # a star import: its names come from elsewhere
        "def __getattr__(name):\n    raise AttributeError(name)\n\n\n",  # module __getattr__
    ],
)
def test_a_module_whose_names_its_statements_do_not_show_is_read_whole(
    tree: Path, head: str
) -> None:
    """base.py star-imports, or defines ``__getattr__``: a function appended to it
    re-extracts its importers (their names may now mean something else)."""
    (tree / "src/pkg/extra.py").write_text("X = 1\n")
    base = tree / "src/pkg/base.py"
    base.write_text(head + BASE)
    after, fresh = _edit(tree, "base.py", APPENDED)
    use = after.cache_use
    assert use is not None and "src/pkg/base.py" in use.reads_changed
    assert _export(after) == _export(fresh)


def test_a_star_import_added_re_extracts_the_importers(tree: Path) -> None:
    (tree / "src/pkg/extra.py").write_text("def make_error(name):\n    return KeyError(name)\n")
    after, fresh = _edit(tree, "base.py", "\nfrom .extra import *\n")
    use = after.cache_use
    assert use is not None and "src/pkg/base.py" in use.reads_changed
    assert _export(after) == _export(fresh)
