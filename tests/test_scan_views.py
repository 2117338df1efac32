"""A file a package-wide search read in part (its text facts, the absence of a name) is
a dependency of the raising file only through what was read of it (issue 13): an edit
there that changes none of it re-extracts nothing else, one that does re-extracts the
raising file, and the re-scan equals a fresh full scan."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.extract.python import package_calls, project, text_facts
from errdex.scan import ScanResult, scan_checkout
from errdex.scan_cache import ScanCache
from errdex.source import open_source

CONFIG = 'COLOR = "red"\n\n\ndef check(x):\n    raise ValueError("colour is " + COLOR)\n'
PARSER = "def fail(msg, exc=ValueError):\n    raise exc(msg)\n"
EXT = "from .parser import fail\n\n\ndef parse(x):\n    fail('bad ' + x, exc=KeyError)\n"
LEXER = """\
class Failure:
    def __init__(self, message):
        self.message = message

    def __call__(self):
        raise ValueError(self.message)


RULES = [Failure("Missing end of comment tag")]
"""
HELPER = "def helper(x):\n    return x + 1\n"
APPENDED = '\n\ndef _probe(x):\n    raise TypeError(f"probe {x}")\n'


def _forget() -> None:
    """What a process kept of the files it read: each scan runs as a new process."""
    for memo in (text_facts._FILES, text_facts._PACKAGES, project._READERS):
        memo.clear()
    package_calls._PARSED.clear()
    package_calls._TEXTS.clear()


@pytest.fixture
def tree(tmp_path: Path) -> Iterator[Path]:
    pkg = tmp_path / "repo" / "src" / "pkg"
    pkg.mkdir(parents=True)
    for name, text in {
        "__init__": "",
        "config": CONFIG,
        "parser": PARSER,
        "ext": EXT,
        "lexer": LEXER,
        "helper": HELPER,
    }.items():
        (pkg / f"{name}.py").write_text(text)
    yield tmp_path / "repo"
    _forget()


def _scan(tree: Path, cache: Path | None) -> ScanResult:
    _forget()
    checkout = open_source(str(tree), repo="o/pkg")
    if cache is None:
        return scan_checkout(checkout, repo="o/pkg", analyze=False)
    with ScanCache(cache) as c:
        return scan_checkout(checkout, repo="o/pkg", cache=c, analyze=False)


def _export(result: ScanResult) -> list[str]:
    items = ({k: v for k, v in r.items() if k != "analyzedAt"} | {"e": e} for r, e in result.items)
    return sorted(json.dumps(item, sort_keys=True) for item in items)


def _edit(tree: Path, rel: str, text: str) -> tuple[ScanResult, ScanResult]:
    """(the re-scan after ``rel`` gets ``text`` appended, a fresh full scan of the edit)."""
    cache = tree.parent / "cache.sqlite"
    _scan(tree, cache)
    path = tree / "src/pkg" / rel
    path.write_text(path.read_text() + text)
    return _scan(tree, cache), _scan(tree, None)


def _messages(result: ScanResult, rel: str) -> set[str]:
    return {r["messagePattern"] for r, _ in result.items if r["filePath"].endswith(rel)}


def test_both_searches_decide_the_raising_files_records(tree: Path) -> None:
    """config.py's COLOR is settled (no store of it in the package); parser.py's message
    comes from ext.py's call, found by searching the package for ``fail(``: the edits
    below are of a file both searches read."""
    result = _scan(tree, None)
    assert _messages(result, "config.py") == {"colour is red"}
    assert any("bad " in m for m in _messages(result, "parser.py"))
    assert _messages(result, "lexer.py") == {"Missing end of comment tag"}


def test_a_function_appended_elsewhere_re_extracts_only_the_edited_file(tree: Path) -> None:
    """helper.py's new function stores no attribute, holds no ``fail(`` and does not
    name ``Failure``: config.py (whose COLOR the package's stores decide), parser.py
    (whose callers were searched) and lexer.py (searched for other builders of its
    class) keep their records. Before, every file of the package was read whole."""
    after, fresh = _edit(tree, "helper.py", APPENDED)
    use = after.cache_use
    assert use is not None and use.whole == "files"
    assert use.files_reread == 1 and use.files_reread_for_reads == 0
    assert _export(after) == _export(fresh)


def test_a_store_of_the_name_elsewhere_re_extracts_the_raising_file(tree: Path) -> None:
    """helper.py now stores ``config.COLOR``: config.py's message is no longer settled."""
    after, fresh = _edit(tree, "helper.py", "\n\ndef paint(config):\n    config.COLOR = 'blue'\n")
    use = after.cache_use
    assert use is not None and use.files_reread_for_reads >= 1
    assert "src/pkg/helper.py" in use.reads_changed
    assert _messages(after, "config.py") != {"colour is red"}
    assert _export(after) == _export(fresh)


def test_a_new_call_of_the_searched_name_re_extracts_the_raising_file(tree: Path) -> None:
    """helper.py now calls ``fail(``: parser.py's callers were searched for it."""
    call = "\n\ndef other(x):\n    from .parser import fail\n    fail('odd', exc=IndexError)\n"
    after, fresh = _edit(tree, "helper.py", call)
    use = after.cache_use
    assert use is not None and use.files_reread_for_reads >= 1
    assert "src/pkg/helper.py" in use.reads_changed
    assert _export(after) == _export(fresh)


def test_a_new_mention_of_the_class_re_extracts_the_module_building_it(tree: Path) -> None:
    """helper.py now builds a ``Failure`` with a text lexer.py cannot see: its message
    becomes a hole again."""
    built = "\n\nfrom .lexer import Failure\n\nODD = Failure(compute())\n"
    after, fresh = _edit(tree, "helper.py", built)
    use = after.cache_use
    assert use is not None and "src/pkg/helper.py" in use.reads_changed
    assert _messages(after, "lexer.py") != {"Missing end of comment tag"}
    assert _export(after) == _export(fresh)


def test_a_local_variable_added_elsewhere_re_extracts_only_the_edited_file(tree: Path) -> None:
    """``z = x`` in a body is a name defined at some indentation (what a subclass may
    define again): only a search for overriding definitions reads that, and none of
    these files' extractions made one; config.py read the package's stores alone."""
    after, fresh = _edit(tree, "helper.py", "\n\ndef more(x):\n    z = x\n    return z\n")
    use = after.cache_use
    assert use is not None and use.files_reread == 1 and use.files_reread_for_reads == 0
    assert _export(after) == _export(fresh)
