"""Incremental scans through scan_checkout: real files, a real git repository, the real
cache file. Every reused result is compared with a full scan of the same tree."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest

import errdex.scan_cache as scan_cache
from errdex.record import iso_now
from errdex.scan import ScanResult, scan_checkout, store_cached_scan
from errdex.scan_cache import ScanCache
from errdex.source import open_source
from errdex.store import open_store

from .source.helpers import commit_all, run_git, write

REPO = "owner/proj"

CORE = '''\
def check(x):
    """Check x.

    Raises:
        ValueError: when x is negative.
    """
    if x < 0:
        raise ValueError(f"negative: {x}")
    return x
'''

API = """\
from pkg.core import check


def public(x):
    return check(x)
"""

OTHER = """\
def other(n):
    if n is None:
        raise TypeError("n must not be None")
"""


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    run_git(root, "init", "-q", "-b", "main")
    run_git(root, "remote", "add", "origin", "https://github.com/owner/proj.git")
    write(root, "pkg/__init__.py", "")
    write(root, "pkg/core.py", CORE)
    write(root, "pkg/other.py", OTHER)
    write(root, "tests/test_core.py", "import pytest\nfrom pkg.core import check\n")
    commit_all(root)
    _age(root)
    return root


def _age(root: Path) -> None:
    """Date every file a minute back, as files are before an edit (not "racy")."""
    past = (os.stat(root).st_mtime_ns // 1_000_000_000 - 60) * 1_000_000_000
    for path in root.rglob("*.py"):
        os.utime(path, ns=(past, past))


def _scan(root: Path, cache: bool = True, **kwargs: Any) -> ScanResult:
    checkout = open_source(str(root), repo=REPO)
    if not cache:
        return scan_checkout(checkout, repo=REPO, **kwargs)
    with ScanCache() as c:
        return scan_checkout(checkout, repo=REPO, cache=c, **kwargs)


def _comparable(result: ScanResult) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Items without analyzedAt (the one field that says when, not what)."""
    out = []
    for record, evidence in result.items:
        record = dict(record)
        record.pop("analyzedAt")
        out.append((record, evidence))
    return sorted(out, key=lambda it: it[0]["id"])


def _by_path(result: ScanResult) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for record, _ in result.items:
        out.setdefault(record["filePath"], []).append(record)
    return out


@pytest.mark.parametrize("analyze", [False, True])
def test_an_unchanged_rescan_reads_no_file_and_equals_a_full_scan(
    tree: Path, analyze: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = _scan(tree, analyze=analyze)
    assert first.cache_use is not None and first.cache_use.hashed == 3 + analyze
    reads: list[str] = []
    real = Path.read_bytes

    def counting(self: Path) -> bytes:
        reads.append(self.name)
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", counting)
    again = _scan(tree, analyze=analyze)
    monkeypatch.undo()
    assert reads == []
    assert again.cache_use is not None
    # with the analyst the whole analysed result is kept; without it, each file's items
    assert again.cache_use.whole == ("result" if analyze else "files")
    assert (again.cache_use.files_reused, again.cache_use.files_reread) == (3, 0)
    assert (again.cache_use.from_stat, again.cache_use.hashed) == (3 + analyze, 0)
    assert _comparable(again) == _comparable(_scan(tree, cache=False, analyze=analyze))
    assert again.sites == first.sites and again.files_read == first.files_read


@pytest.mark.parametrize("analyze", [False, True])
def test_a_changed_file_is_read_again_and_its_records_change(tree: Path, analyze: bool) -> None:
    _scan(tree, analyze=analyze)
    write(tree, "pkg/other.py", OTHER.replace("must not be None", "is required"))
    again = _scan(tree, analyze=analyze)
    assert again.cache_use is not None
    assert (again.cache_use.files_reused, again.cache_use.files_reread) == (2, 1)
    messages = {r["errorMessage"] for r in _by_path(again)["pkg/other.py"]}
    assert messages == {"n is required"}
    assert _comparable(again) == _comparable(_scan(tree, cache=False, analyze=analyze))


def test_a_new_caller_in_another_file_changes_an_unchanged_files_evidence(tree: Path) -> None:
    before = _scan(tree)
    [core] = [e for r, e in before.items if r["filePath"] == "pkg/core.py"]
    assert [p["qualname"] for p in core["entryPoints"]] == ["pkg.core.check"]
    write(tree, "pkg/api.py", API)
    after = _scan(tree)
    assert after.cache_use is not None and after.cache_use.files_reused == 3
    [core] = [e for r, e in after.items if r["filePath"] == "pkg/core.py"]
    assert "pkg.api.public" in [p["qualname"] for p in core["entryPoints"]]
    assert _comparable(after) == _comparable(_scan(tree, cache=False))


def test_a_new_test_changes_the_evidence_of_the_site_it_triggers(tree: Path) -> None:
    before = _scan(tree)
    [core] = [e for r, e in before.items if r["filePath"] == "pkg/core.py"]
    assert core["tests"] == []
    write(
        tree,
        "tests/test_core.py",
        "import pytest\nfrom pkg.core import check\n\n\ndef test_negative():\n"
        "    with pytest.raises(ValueError, match='negative'):\n        check(-1)\n",
    )
    after = _scan(tree)
    assert after.cache_use is not None and after.cache_use.facts_reread == 1
    [core] = [e for r, e in after.items if r["filePath"] == "pkg/core.py"]
    assert [t["name"] for t in core["tests"]] == ["tests/test_core.py::test_negative"]
    assert _comparable(after) == _comparable(_scan(tree, cache=False))


def test_a_deleted_files_records_disappear(tree: Path) -> None:
    _scan(tree)
    (tree / "pkg/other.py").unlink()
    after = _scan(tree)
    assert "pkg/other.py" not in _by_path(after)
    assert _comparable(after) == _comparable(_scan(tree, cache=False))


def test_a_renamed_file_moves_its_records(tree: Path) -> None:
    before = _scan(tree)
    (tree / "pkg/other.py").rename(tree / "pkg/moved.py")
    after = _scan(tree)
    paths = _by_path(after)
    assert "pkg/other.py" not in paths
    assert [r["errorMessage"] for r in paths["pkg/moved.py"]] == ["n must not be None"]
    old_ids = {r["id"] for r in _by_path(before)["pkg/other.py"]}
    assert old_ids.isdisjoint(r["id"] for r in paths["pkg/moved.py"])  # the id hashes the path
    assert _comparable(after) == _comparable(_scan(tree, cache=False))


@pytest.mark.parametrize("analyze", [False, True])
def test_a_new_commit_relinks_unchanged_files_to_it(tree: Path, analyze: bool) -> None:
    first = _scan(tree, analyze=analyze)
    write(tree, "README.md", "not python\n")
    sha = commit_all(tree, "docs only")
    after = _scan(tree, analyze=analyze)
    assert after.cache_use is not None
    assert after.cache_use.whole == ("result" if analyze else "files")
    assert after.cache_use.files_reread == 0
    assert {r["analyzedSha"] for r, _ in after.items} == {sha}
    assert all(f"/blob/{sha}/" in r["githubUrl"] for r, _ in after.items)
    assert {e["source"]["commit"] for _, e in after.items} == {sha}
    assert first.items[0][0]["analyzedSha"] != sha
    assert _comparable(after) == _comparable(_scan(tree, cache=False, analyze=analyze))
    assert _scan(tree, analyze=analyze).cache_use.files_reread == 0  # type: ignore[union-attr]


def test_a_cache_written_by_another_errdex_is_ignored(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(scan_cache, "code_version", lambda: "an-older-errdex")
    _scan(tree)
    monkeypatch.undo()
    again = _scan(tree)
    assert again.cache_use is not None
    assert (again.cache_use.files_reused, again.cache_use.files_reread) == (0, 3)
    assert again.cache_use.facts_reused == 0
    assert _comparable(again) == _comparable(_scan(tree, cache=False))


def test_no_cache_reads_every_file_and_refreshes_the_cache(tree: Path) -> None:
    _scan(tree)
    checkout = open_source(str(tree), repo=REPO)
    with ScanCache() as c:
        full = scan_checkout(checkout, repo=REPO, cache=c, read_cache=False)
    assert full.cache_use is not None
    assert (full.cache_use.files_reread, full.cache_use.facts_reread) == (3, 4)
    assert _scan(tree).cache_use.whole == "result"  # type: ignore[union-attr]


def test_the_catalogues_fingerprint_skips_loading_anything(tree: Path) -> None:
    first = _scan(tree)
    assert first.cache_use is not None
    checkout = open_source(str(tree), repo=REPO)
    with ScanCache() as c:
        same = scan_checkout(
            checkout, repo=REPO, cache=c, unchanged_since=first.cache_use.fingerprint
        )
    assert same.cache_use is not None and same.cache_use.whole == "catalogue"
    assert same.items == []
    write(tree, "pkg/other.py", OTHER + "\n")
    with ScanCache() as c:
        changed = scan_checkout(
            checkout, repo=REPO, cache=c, unchanged_since=first.cache_use.fingerprint
        )
    assert changed.cache_use is not None and changed.cache_use.whole == "files"
    assert len(changed.items) == len(first.items)


def test_another_analysis_budget_is_another_input(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _scan(tree)
    monkeypatch.setenv("ERRDEX_ANALYSIS_BUDGET", "none")
    again = _scan(tree)
    assert again.cache_use is not None and again.cache_use.whole == "files"
    assert _scan(tree).cache_use.whole == "result"  # type: ignore[union-attr]


ERRORS = """\
class BadValue(ValueError):
    def __init__(self, x):
        super().__init__(f"bad value {x}")
"""

USES_ERRORS = """\
from pkg.errors import BadValue


def convert(x):
    if x is None:
        raise BadValue(x)
    return x
"""


def test_a_message_built_in_another_module_follows_an_edit_of_that_module(tree: Path) -> None:
    write(tree, "pkg/errors.py", ERRORS)
    write(tree, "pkg/convert.py", USES_ERRORS)
    _age(tree)
    before = _scan(tree, analyze=False)
    [site] = [r for r in _by_path(before)["pkg/convert.py"]]
    assert site["errorMessage"] == "bad value {x}"
    write(tree, "pkg/errors.py", ERRORS.replace("bad value", "unusable value"))
    after = _scan(tree, analyze=False)
    [site] = [r for r in _by_path(after)["pkg/convert.py"]]
    assert site["errorMessage"] == "unusable value {x}"
    assert after.cache_use is not None and after.cache_use.files_reread == 2
    assert _comparable(after) == _comparable(_scan(tree, cache=False, analyze=False))


def test_an_edit_reanalyses_only_the_records_it_reaches(tree: Path) -> None:
    write(tree, "pkg/api.py", API)
    _age(tree)
    _scan(tree)
    write(tree, "pkg/other.py", OTHER.replace("must not be None", "is required"))
    after = _scan(tree)
    assert after.cache_use is not None
    # core's record reads core, api (its caller) and the tests: not other.py
    assert (after.cache_use.records_kept, after.cache_use.records_reanalysed) == (1, 1)
    assert _comparable(after) == _comparable(_scan(tree, cache=False))
    write(tree, "pkg/api.py", API.replace("return check(x)", "y = x\n    return check(y)"))
    again = _scan(tree)
    assert again.cache_use is not None
    assert (again.cache_use.records_kept, again.cache_use.records_reanalysed) == (1, 1)
    assert _comparable(again) == _comparable(_scan(tree, cache=False))


@pytest.mark.parametrize(
    ("after", "kept"),
    [
        # a new helper calls nothing that reaches core's record: it stays as it was
        (API + "\n\ndef _helper(n):\n    return n + 1\n", 2),
        # a new caller of check reaches core's record: it is analysed again
        (API + "\n\ndef _checked(n):\n    return check(n)\n", 1),
        # an edge gone: the record's callers are fewer, which no changed function shows
        (API.replace("return check(x)", "return x"), 1),
    ],
)
def test_an_edit_of_a_callers_file_reanalyses_the_records_its_changed_functions_reach(
    tree: Path, after: str, kept: int
) -> None:
    """api.py calls check, so core's record read api.py; a function appended to api.py
    changes only that function there (analyze.local_change)."""
    write(tree, "pkg/api.py", API)
    assert _kept_after(tree, "pkg/api.py", after) == (kept, 2 - kept)


def _kept_after(tree: Path, rel: str, text: str) -> tuple[int, int]:
    """(records kept, records analysed again) when ``rel`` is written as ``text`` after a
    scan; the re-scan equals a full scan."""
    _age(tree)
    _scan(tree)
    write(tree, rel, text)
    after = _scan(tree)
    assert after.cache_use is not None
    assert _comparable(after) == _comparable(_scan(tree, cache=False))
    return after.cache_use.records_kept, after.cache_use.records_reanalysed


#: Twenty lines below check's raise: a function appended after them leaves its window.
PAD = "\n\ndef pad(n):\n" + "".join(f"    n += {i}\n" for i in range(20)) + "    return n\n"


@pytest.mark.parametrize(
    ("name", "kept"),
    [
        ("_helper", 2),  # nothing of core's record changed: it stays as it was
        ("negative", 1),  # its message names the new function: it is analysed again
    ],
)
def test_a_function_appended_to_a_records_own_file_keeps_it_unless_it_names_it(
    tree: Path, name: str, kept: int
) -> None:
    write(tree, "pkg/core.py", CORE + PAD)
    appended = CORE + PAD + f"\n\ndef {name}(n):\n    return n\n"
    assert _kept_after(tree, "pkg/core.py", appended) == (kept, 2 - kept)


def test_a_record_whose_callers_walk_was_cut_is_kept_when_no_changed_function_is_in_it(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With walks cut at two functions, check's callers are not known whole; a function
    appended to other.py, which none of them is in, leaves core's record as it was
    (other's own is analysed again: its source window holds the new lines)."""
    import errdex.analyze.callgraph as callgraph
    import errdex.analyze.deps as deps

    monkeypatch.setattr(callgraph, "MAX_VISITED", 2)
    monkeypatch.setattr(deps, "MAX_VISITED", 2)
    write(tree, "pkg/api.py", API)
    appended = OTHER + "\n\ndef _helper(n):\n    return n\n"
    assert _kept_after(tree, "pkg/other.py", appended) == (1, 1)


def test_a_name_another_module_uses_reanalyses_every_record(tree: Path) -> None:
    write(tree, "pkg/api.py", API)
    _age(tree)
    _scan(tree)
    # other.py now defines `check`, a name api.py and the tests use: not a local change
    write(tree, "pkg/other.py", OTHER + "\n\ndef check(x):\n    return x\n")
    after = _scan(tree)
    assert after.cache_use is not None
    assert (after.cache_use.records_kept, after.cache_use.records_reanalysed) == (0, 2)
    assert _comparable(after) == _comparable(_scan(tree, cache=False))


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_selective_rescan_into_either_catalogue_stores_a_cold_scans_records(
    tree: Path, tmp_path: Path, request: pytest.FixtureRequest, backend: str
) -> None:
    location = str(tmp_path / "catalogue.db")
    if backend == "postgres":
        location = request.getfixturevalue("postgres_server").new_database()
    write(tree, "pkg/api.py", API)
    _age(tree)
    checkout = open_source(str(tree), repo=REPO)
    with open_store(location) as store:
        for edit in ("", "is required"):
            if edit:
                write(tree, "pkg/other.py", OTHER.replace("must not be None", edit))
            with ScanCache() as c:
                result = scan_checkout(
                    checkout,
                    repo=REPO,
                    cache=c,
                    read_cache=bool(store.scans(REPO)),
                    unchanged_since=store.vouched_fingerprint(REPO),
                )
            store_cached_scan(store, checkout, REPO, result, iso_now())
        assert result.cache_use is not None and result.cache_use.records_kept == 1
        stored = [(e["record"], e["evidence"]) for e in store.iter_envelopes(REPO)]
    stored_result = ScanResult(stored, 0, 0, 0, [], 0.0)
    assert _comparable(stored_result) == _comparable(_scan(tree, cache=False))


def test_an_analyst_state_of_another_scan_is_not_unpickled(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The analyst's state and the result must be one scan's: when their fingerprints
    differ, neither's parts are read, every record is analysed again, as a full scan."""
    _scan(tree)
    with sqlite3.connect(scan_cache.default_cache_path()) as conn:
        conn.execute("UPDATE results SET fingerprint = 'other' WHERE key LIKE 'analyst:%'")
    write(tree, "pkg/core.py", CORE + "\n\ndef more(y):\n    raise KeyError('no more')\n")
    read: list[str] = []
    real = ScanCache.parts

    def counting(self: ScanCache, scope: str, key: str, tags: dict[str, str]) -> Any:
        read.append(key)
        return real(self, scope, key, tags)

    monkeypatch.setattr(ScanCache, "parts", counting)
    again = _scan(tree)
    monkeypatch.undo()
    assert read == []
    assert again.cache_use is not None and again.cache_use.records_kept == 0
    assert _comparable(again) == _comparable(_scan(tree, cache=False))
