"""Edits one after another into one catalogue through one scan cache, as a maintainer
re-scans while working: after each, the catalogue holds exactly what a cold scan of the
edited tree gives (analysedAt aside), and the scan re-analysed only what the edit
touched."""

from __future__ import annotations

import os
import sqlite3
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from errdex.record import iso_now
from errdex.scan import ScanResult, scan_checkout, store_cached_scan
from errdex.scan_cache import ScanCache
from errdex.source import open_source
from errdex.store import open_store

from .source.helpers import commit_all, run_git, write
from .test_scan_reuse import CORE as CHECK
from .test_scan_reuse import REPO, _age

#: Lines enough between two raises that neither's source window holds the other's.
PAD = "\n\ndef pad(n):\n" + "".join(f"    n += {i}\n" for i in range(40)) + "    return n\n"

FAR = """\
def far(x):
    if not x:
        raise RuntimeError("nothing to do")
    return x
"""

CORE = (
    "from pkg.far import far\n\n\n"
    + CHECK
    + PAD
    + """

def limit(n):
    if n > 10:
        raise OverflowError(f"too big: {n}")
    return n


def use_far(x):
    return far(x)
"""
    + PAD.replace("pad", "pad2")
)

API = """\
from pkg.core import check, limit


def public(x):
    return check(x)


def bounded(n):
    return n
"""

TESTS = """\
import pytest

from pkg.api import public


def test_negative():
    with pytest.raises(ValueError, match="negative"):
        public(-1)
"""

ADDED = """

def lookup(table, key):
    if key not in table:
        raise KeyError(f"no such key: {key}")
    return table[key]
"""

#: far.py with an exception class of its own, raised by ``far``.
FAR_CLASS = '''\
class FarError(RuntimeError):
    """far had nothing to do."""


def far(x):
    if not x:
        raise FarError("nothing to do")
    return x
'''

BASE = """\
class Runner:
    def run(self, x):
        return self.step(x)

    def step(self, x):
        return x
"""

#: A subclass in another file; its method becomes an override of what ``run`` calls.
STRICT = """

from pkg.base import Runner


class StrictRunner(Runner):
    def check(self, x):
        if x is None:
            raise LookupError("a strict runner needs x")
        return x
"""

TEST_BIG = """

def test_big():
    with pytest.raises(OverflowError, match="too big"):
        bounded(11)
"""

Comparable = list[tuple[dict[str, Any], dict[str, Any]]]


@pytest.fixture
def edited(tmp_path: Path) -> Path:
    """A git work tree with a GitHub remote (permalinks), committed and dated back."""
    root = tmp_path / "proj"
    files = {"pkg/__init__.py": "", "pkg/core.py": CORE, "pkg/far.py": FAR, "pkg/api.py": API}
    files["pkg/base.py"] = BASE
    for rel, text in {**files, "tests/test_api.py": TESTS}.items():
        write(root, rel, text)
    run_git(root, "init", "-q", "-b", "main")
    run_git(root, "remote", "add", "origin", "https://github.com/owner/proj.git")
    commit_all(root)
    _age(root)
    return root


def _comparable(items: list[tuple[dict[str, Any], dict[str, Any]]]) -> Comparable:
    out = [({k: v for k, v in r.items() if k != "analyzedAt"}, e) for r, e in items]
    return sorted(out, key=lambda it: str(it[0]["id"]))


def _rescan(root: Path, db: Path) -> tuple[ScanResult, Comparable]:
    """A scan into the catalogue as ``errdex scan`` makes it; the catalogue's records."""
    checkout = open_source(str(root), repo=REPO)
    with open_store(str(db)) as store, ScanCache() as cache:
        result = scan_checkout(
            checkout,
            repo=REPO,
            cache=cache,
            read_cache=bool(store.scans(REPO)),
            unchanged_since=store.vouched_fingerprint(REPO),
        )
        store_cached_scan(store, checkout, REPO, result, iso_now())
        stored = [(e["record"], e["evidence"]) for e in store.iter_envelopes(REPO)]
    return result, _comparable(stored)


def _cold(root: Path) -> Comparable:
    return _comparable(scan_checkout(open_source(str(root), repo=REPO), repo=REPO).items)


def _edit(root: Path, rel: str, old: str, new: str) -> None:
    """Replace ``old`` by ``new`` in ``rel``; an empty ``old`` appends ``new``."""
    path = root / rel
    text = path.read_text()
    assert old in text, (rel, old)
    path.write_text(text.replace(old, new, 1) if old else text + new)


#: (what it is, file, text replaced ("": appended), replacement, records analysed again
#: at most). ``far``'s record reads core.py (``use_far`` calls it) and no edit of core.py
#: reaches it: it is kept, whatever else core.py gains or loses.
EDITS = [
    ("add a raise", "pkg/core.py", "", ADDED, 3),  # check and limit: a related error came
    ("change a guard", "pkg/core.py", "if x < 0:", "if x <= 0:", 1),
    ("change a test that links", "tests/test_api.py", 'match="negative"', 'match="too big"', 1),
    (
        "change a callee: bounded now reaches limit",
        "pkg/api.py",
        "def bounded(n):\n    return n",
        "def bounded(n):\n    return limit(n)",
        1,
    ),
    (
        # a name api.py defines, imported by a test module no other module names: the
        # records that read the test file (check's) and get the new test (limit's) only
        "a test of the new entry point",
        "tests/test_api.py",
        "from pkg.api import public\n",
        "from pkg.api import bounded, public\n" + TEST_BIG,
        2,
    ),
    ("remove a test that links", "tests/test_api.py", TEST_BIG, "", 2),
    ("add it back", "tests/test_api.py", "", TEST_BIG, 2),
    ("remove a raise", "pkg/core.py", ADDED, "", 2),  # a function gone, far's kept
    ("the same file again: the raise comes back", "pkg/core.py", "", ADDED, 3),
    ("and once more: a guard there", "pkg/core.py", "if key not in table:", "if not table:", 1),
    (
        "a call that changes a chain: use_far now reaches limit",
        "pkg/core.py",
        "    return far(x)",
        "    return limit(far(x))",
        2,
    ),
    ("far raises a class of its own", "pkg/far.py", FAR, FAR_CLASS, 1),
    (
        "the class renamed",
        "pkg/far.py",
        FAR_CLASS,
        FAR_CLASS.replace("FarError", "DistantError"),
        1,
    ),
    # not local (names base.py offers and uses): every record is analysed again
    ("a subclass of a class in another file", "pkg/far.py", "", STRICT, 5),
    # Runner.run's self.step() now lands in StrictRunner.step too (base.py unchanged)
    ("its method now overrides what run calls", "pkg/far.py", "def check(", "def step(", 5),
]


def _parts() -> dict[str, str]:
    """The scan cache's parts of the analysed result (:mod:`errdex.scan_parts`): file
    path -> the tag of the write that stored it."""
    with sqlite3.connect(os.environ["ERRDEX_SCAN_CACHE"]) as conn:
        rows = conn.execute("SELECT key, part, tag FROM parts").fetchall()
    return {part: tag for key, part, tag in rows if not key.startswith("analyst:")}


def _by_file(stored: Comparable) -> dict[str, Comparable]:
    out: dict[str, Comparable] = defaultdict(list)
    for record, evidence in stored:
        out[record["filePath"]].append((record, evidence))
    return out


def test_each_edit_leaves_the_catalogue_a_cold_scan_of_the_edit_gives(
    edited: Path, tmp_path: Path
) -> None:
    root = edited
    db = tmp_path / "catalogue.db"
    _, stored = _rescan(root, db)
    assert stored == _cold(root)
    for what, rel, old, new, most in EDITS:
        _edit(root, rel, old, new)
        parts, last = _parts(), _by_file(stored)
        result, stored = _rescan(root, db)
        assert stored == _cold(root), what
        use = result.cache_use
        assert use is not None and use.whole == "files", what
        assert 0 < use.records_reanalysed <= most, (what, use)
        # the cache wrote again the records of exactly the files whose records changed
        now = _by_file(stored)
        rewritten = {part for part, tag in _parts().items() if parts.get(part) != tag}
        assert rewritten == {f for f in now.keys() | last.keys() if now.get(f) != last.get(f)}
        assert set(_parts()) == set(now), what


def test_a_result_read_back_from_its_parts_after_edits_is_a_cold_scans(
    edited: Path, tmp_path: Path
) -> None:
    """The whole result as the cache keeps it by file, read when nothing changed but the
    catalogue cannot vouch (written to since), is the cold scan's after each edit."""
    root = edited
    db = tmp_path / "catalogue.db"
    _rescan(root, db)
    for what, rel, old, new, _ in EDITS:
        _edit(root, rel, old, new)
        _rescan(root, db)
        checkout = open_source(str(root), repo=REPO)
        with ScanCache() as cache:
            again = scan_checkout(checkout, repo=REPO, cache=cache)
        assert again.cache_use is not None and again.cache_use.whole == "result", what
        assert _comparable(again.items) == _cold(root), what


HELPER = """\
def fail(msg, exc):
    raise exc(msg)
"""

CALLER = """\
from pkg.helpers import fail


def {name}(x):
    if x:
        fail("{name} went wrong", exc={cls})
"""


def test_a_module_added_to_a_package_that_calls_a_raising_helper_adds_its_records(
    tmp_path: Path,
) -> None:
    """The helper's records come from its callers across the package: a module added
    (or removed) that calls it changes them, though no file the helper's extraction
    read changed."""
    root = tmp_path / "proj"
    write(root, "pkg/__init__.py", "")
    write(root, "pkg/helpers.py", HELPER)
    write(root, "pkg/first.py", CALLER.format(name="first", cls="KeyError"))
    _age(root)
    db = tmp_path / "catalogue.db"
    _, stored = _rescan(root, db)
    assert stored == _cold(root)
    write(root, "pkg/second.py", CALLER.format(name="second", cls="TypeError"))
    _, stored = _rescan(root, db)
    assert stored == _cold(root)
    assert "TypeError" in {r["errorClass"] for r, _ in stored if r["filePath"] == "pkg/helpers.py"}
    _age(root)
    (root / "pkg/second.py").unlink()
    _, stored = _rescan(root, db)
    assert stored == _cold(root)
