"""A cached scan keeps what package files' texts show (attribute stores, definitions)
between processes: a new process re-reading one raising file takes the other files'
facts from the cache, and a file whose text changed has its facts made again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.extract.python import project, text_facts
from errdex.scan import CHUNK, ScanResult, scan_checkout
from errdex.scan_cache import ScanCache, scope_key
from errdex.source import open_source

CONFIG = """\
COLOR = "red"


def check(x):
    raise ValueError("colour is " + COLOR)
"""
OTHER = """\
from . import config

config.COLOR = "blue"
"""


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    pkg = tmp_path / "repo" / "src" / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "config.py").write_text(CONFIG)
    (pkg / "other.py").write_text(OTHER)
    return tmp_path / "repo"


@pytest.fixture
def new_process() -> Iterator[None]:
    """What the test's scans kept of the files they read, forgotten after it."""
    yield
    for memo in (text_facts._FILES, text_facts._PACKAGES, project._READERS):
        memo.clear()


def _scan(tree: Path, cache: Path) -> ScanResult:
    for memo in (text_facts._FILES, text_facts._PACKAGES, project._READERS):
        memo.clear()  # each scan as a new process, as ``errdex scan`` runs
    checkout = open_source(str(tree), repo="o/pkg")
    with ScanCache(cache) as c:
        return scan_checkout(checkout, repo="o/pkg", cache=c, analyze=False)


def _messages(result: ScanResult) -> set[str]:
    return {record["messagePattern"] for record, _ in result.items}


def _shown(result: ScanResult) -> set[str]:
    return {record["errorMessage"] for record, _ in result.items}


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts whose stores are counted from here on."""
    counted: list[str] = []
    real = text_facts.count_stores

    def count(text: str) -> object:
        counted.append(text)
        return real(text)

    monkeypatch.setattr(text_facts, "count_stores", count)
    return counted


def test_a_new_process_takes_unchanged_files_text_facts_from_the_cache(
    tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, new_process: None
) -> None:
    cache = tmp_path / "cache.sqlite"
    cold = _scan(tree, cache)
    (tree / "src/pkg/config.py").write_text(CONFIG + "\n\ndef more():\n    pass\n")
    counted = _counted(monkeypatch)
    again = _scan(tree, cache)
    assert again.cache_use is not None and again.cache_use.files_reread == 1
    assert OTHER not in counted  # other.py's stores came from the cache
    assert any(text.startswith(CONFIG) for text in counted)  # the edited one's did not
    assert _messages(again) == _messages(cold)
    assert _shown(again) == {"colour is {COLOR}"}  # stored elsewhere: a hole


def test_a_changed_text_has_its_facts_made_again(
    tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, new_process: None
) -> None:
    cache = tmp_path / "cache.sqlite"
    _scan(tree, cache)
    (tree / "src/pkg/other.py").write_text("from . import config\n")  # no longer stores
    counted = _counted(monkeypatch)
    again = _scan(tree, cache)
    assert "from . import config\n" in counted
    assert CONFIG not in counted  # read again for other.py, its own text is unchanged
    assert _shown(again) == {"colour is red"}
    fresh = _scan(tree, tmp_path / "other.sqlite")
    assert _messages(again) == _messages(fresh)


def test_what_workers_read_is_kept_too(tree: Path, tmp_path: Path, new_process: None) -> None:
    for n in range(2 * CHUNK):  # enough files for worker processes
        (tree / f"src/pkg/filler_{n}.py").write_text(f"def f{n}(x):\n    raise KeyError(x)\n")
    cache = tmp_path / "cache.sqlite"
    checkout = open_source(str(tree), repo="o/pkg")
    with ScanCache(cache) as c:
        result = scan_checkout(checkout, repo="o/pkg", cache=c, analyze=False, jobs=2)
        kept = c.texts(scope_key("o/pkg", checkout.path_prefix))
    assert "colour is {COLOR}" in _shown(result)
    assert {path for path, _ in kept} >= {"src/pkg/config.py", "src/pkg/other.py"}


def test_workers_take_the_stored_facts_too(
    tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, new_process: None
) -> None:
    """Extraction in worker processes (many files re-read) takes unchanged package
    texts' facts from the cache as a serial one does: other.py's stores are not counted
    again in any worker."""
    fillers = [tree / f"src/pkg/filler_{n}.py" for n in range(2 * CHUNK)]
    for n, path in enumerate(fillers):
        path.write_text(f"def f{n}(x):\n    raise KeyError(x)\n")
    cache = tmp_path / "cache.sqlite"
    checkout = open_source(str(tree), repo="o/pkg")
    with ScanCache(cache) as c:
        scan_checkout(checkout, repo="o/pkg", cache=c, analyze=False, jobs=2)
    for memo in (text_facts._FILES, text_facts._PACKAGES, project._READERS):
        memo.clear()
    for n, path in enumerate(fillers):  # every file read again, in workers
        path.write_text(f"def g{n}(x):\n    raise KeyError(x)\n")
    (tree / "src/pkg/config.py").write_text(CONFIG + "\n\ndef more():\n    pass\n")
    log = tmp_path / "counted.txt"
    real = text_facts.count_stores

    def count(text: str) -> object:  # run in forked workers: they write what they count
        with log.open("a") as out:
            out.write(repr(text) + "\n")
        return real(text)

    monkeypatch.setattr(text_facts, "count_stores", count)
    with ScanCache(cache) as c:
        result = scan_checkout(checkout, repo="o/pkg", cache=c, analyze=False, jobs=2)
    assert result.cache_use is not None and result.cache_use.files_reread >= 2 * CHUNK
    counted = log.read_text()
    assert repr(CONFIG + "\n\ndef more():\n    pass\n") in counted  # the edited one's were
    assert repr(OTHER) not in counted  # other.py's came from the cache


def test_facts_of_texts_the_scan_does_not_list_are_kept(
    tree: Path, tmp_path: Path, new_process: None
) -> None:
    """A package's tests are read as text (they may store the attribute) but are not
    scanned: their facts stay in the cache after the scan that wrote them."""
    tests = tree / "src/pkg/tests"
    tests.mkdir()
    (tests / "__init__.py").write_text("")
    (tests / "test_config.py").write_text("from pkg import config\n\nconfig.COLOR = 'x'\n")
    cache = tmp_path / "cache.sqlite"
    _scan(tree, cache)
    checkout = open_source(str(tree), repo="o/pkg")
    with ScanCache(cache) as c:
        kept = {path for path, _ in c.texts(scope_key("o/pkg", checkout.path_prefix))}
    assert "src/pkg/tests/test_config.py" in kept
    assert "src/pkg/other.py" in kept


def _fill(tree: Path) -> None:
    for n in range(2 * CHUNK):  # enough files for worker processes
        (tree / f"src/pkg/filler_{n}.py").write_text(f"def f{n}(x):\n    raise KeyError(x)\n")


def test_facts_made_before_this_scan_are_kept_by_its_cache(
    tree: Path, tmp_path: Path, new_process: None
) -> None:
    """A text whose facts the process made in an earlier scan (tags one after another,
    another cache) is kept by this scan's cache too, in worker processes forked with
    them as in the scan's own: a later new process need not read it again."""
    _fill(tree)
    checkout = open_source(str(tree), repo="o/pkg")
    with ScanCache(tmp_path / "first.sqlite") as c:
        scan_checkout(checkout, repo="o/pkg", cache=c, analyze=False)
    with ScanCache(tmp_path / "second.sqlite") as c:
        result = scan_checkout(checkout, repo="o/pkg", cache=c, analyze=False, jobs=2)
        kept = c.texts(scope_key("o/pkg", checkout.path_prefix))
    assert "colour is {COLOR}" in _shown(result)
    assert {path for path, _ in kept} >= {"src/pkg/config.py", "src/pkg/other.py"}


def test_an_edit_of_a_text_a_worker_read_extracts_the_raising_file_again(
    tree: Path, tmp_path: Path, new_process: None
) -> None:
    """config.py's template rests on other.py's store, read in a worker process: the
    reads kept for it hold other.py, so an edit there extracts config.py again."""
    _fill(tree)
    cache = tmp_path / "cache.sqlite"
    checkout = open_source(str(tree), repo="o/pkg")
    with ScanCache(cache) as c:
        cold = scan_checkout(checkout, repo="o/pkg", cache=c, analyze=False, jobs=2)
    assert "colour is {COLOR}" in _shown(cold)
    for memo in (text_facts._FILES, text_facts._PACKAGES, project._READERS):
        memo.clear()  # a new process
    (tree / "src/pkg/other.py").write_text("from . import config\n")  # no longer stores
    with ScanCache(cache) as c:
        again = scan_checkout(checkout, repo="o/pkg", cache=c, analyze=False, jobs=2)
    assert again.cache_use is not None and "src/pkg/other.py" in again.cache_use.reads_changed
    assert again.cache_use.files_reread_for_reads >= 1  # config.py, its text unchanged
    assert "colour is red" in _shown(again)
