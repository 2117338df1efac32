"""The ``errdex`` command end to end: real files, real git, real SQLite, no network.

Most tests drive :func:`errdex.cli.main` through ``click.testing.CliRunner``; a few run
the installed entry point in a subprocess to prove ``errdex`` / ``python -m errdex.cli``
work outside the test process.
"""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner, Result

from errdex.cli import main
from errdex.source.stdlib import stdlib_tag
from tests.source.helpers import commit_all, run_git, write

SHA = "0123456789abcdef0123456789abcdef01234567"
OTHER_SHA = "89abcdef0123456789abcdef0123456789abcdef"
REPO = "acme/widgets"
ENVELOPE_KEYS = {"record", "evidence", "datasetVersion"}

CORE = """\
import warnings


def check(x: int) -> int:
    if x < 0:
        raise ValueError(f"x must be non-negative, got {x}")
    if x > 10:
        warnings.warn("x is large", UserWarning)
    assert x != 5, "x must not be five"
    return x


class Thing:
    def open(self, name: str) -> None:
        if not name:
            raise FileNotFoundError("no such thing: " + name)
        raise NotImplementedError
"""

UTIL = """\
import warnings


def lookup(table: dict[str, int], key: str) -> int:
    if key not in table:
        raise KeyError(f"unknown key {key!r}")
    return table[key]


def old() -> None:
    warnings.warn("old() is deprecated; use lookup()", DeprecationWarning, stacklevel=2)
"""

# (filePath, lineNumber, errorClass) of every site in CORE and UTIL.
EXPECTED_SITES = {
    ("pkg/core.py", 6, "ValueError"),
    ("pkg/core.py", 8, "UserWarning"),
    ("pkg/core.py", 9, "AssertionError"),
    ("pkg/core.py", 16, "FileNotFoundError"),
    ("pkg/core.py", 17, "NotImplementedError"),
    ("pkg/util.py", 6, "KeyError"),
    ("pkg/util.py", 11, "DeprecationWarning"),
}

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
_BOX = re.compile("[\u2500-\u257f]")  # rich's table borders


# -- helpers ---------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Git clones go to tmp_path, never to the user's ~/.cache/errdex."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))


def flat(text: str) -> str:
    """Output without colour codes and table borders, and with rich's line wrapping undone."""
    return " ".join(_BOX.sub(" ", _ANSI.sub("", text)).split())


def invoke(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def ok(*args: str | Path) -> Result:
    result = invoke(*args)
    assert result.exit_code == 0, (result.output, result.exception)
    assert result.exception is None
    return result


def fails(*args: str | Path) -> str:
    """Run a command that must exit 2 with a clean message; return that message, flattened."""
    result = invoke(*args)
    assert result.exit_code == 2, (result.output, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception  # not a crash
    assert "Traceback" not in result.output
    return flat(result.output)


def scan_json(*args: str | Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ok("scan", *args, "--json").stdout)
    return data


def export(db: Path, *extra: str) -> list[dict[str, Any]]:
    out = db.with_suffix(".jsonl")
    ok("export", "--db", db, "--jsonl", out, *extra)
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def records(db: Path) -> list[dict[str, Any]]:
    return [env["record"] for env in export(db)]


def stats(db: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(ok("stats", "--db", db, "--json").stdout)
    return data


def make_package(root: Path) -> Path:
    """A small library: two modules with raises, warnings and an assert, plus excluded tests."""
    write(root, "pkg/__init__.py", '"""A small package."""\n')
    write(root, "pkg/core.py", CORE)
    write(root, "pkg/util.py", UTIL)
    write(
        root, "tests/test_core.py", 'def test_x() -> None:\n    raise RuntimeError("in a test")\n'
    )
    return root


def sites_of(recs: Sequence[dict[str, Any]]) -> set[tuple[str, int, str]]:
    return {(r["filePath"], r["lineNumber"], r["errorClass"]) for r in recs}


def ids_by_message(recs: Sequence[dict[str, Any]]) -> dict[str, str]:
    return {r["errorMessage"]: r["id"] for r in recs}


# -- help and version ------------------------------------------------------------------


@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_group_help_lists_every_verb(flag: str) -> None:
    text = flat(ok(flag).stdout)
    assert "Usage: main" in text or "Usage: errdex" in text
    for verb in ("scan", "export", "stats"):
        assert re.search(rf"\b{verb}\b", text), verb
    assert "errdex scan --stdlib" in text


def test_version() -> None:
    assert ok("--version").stdout.strip() == f"errdex, version {metadata.version('errdex')}"


@pytest.mark.parametrize(
    ("verb", "needles"),
    [
        (
            "scan",
            [
                "--package NAME",
                "--stdlib",
                "--repo OWNER/NAME",
                "--sha SHA",
                "--db",
                "--jobs",
                "--include GLOB",
                "--exclude GLOB",
                "--no-progress",
                "--json",
                "@ref",
            ],
        ),
        ("export", ["--jsonl", "--db", "--repo OWNER/NAME", '"record", "evidence"']),
        ("stats", ["--db", "--json", "severity"]),
    ],
)
def test_verb_help(verb: str, needles: list[str]) -> None:
    text = flat(ok(verb, "--help").stdout)
    assert f"{verb} [OPTIONS]" in text
    for needle in needles:
        assert needle in text, needle


# -- scan, export, stats on a plain directory ------------------------------------------


def test_scan_export_stats_agree(
    tmp_path: Path, record_validator: jsonschema.Draft202012Validator
) -> None:
    src = make_package(tmp_path / "src")
    db = tmp_path / "cat.db"

    summary = flat(ok("scan", src, "--repo", REPO, "--sha", SHA, "--db", db).stdout)
    assert f"{REPO} · commit {SHA[:10]}" in summary
    assert "files read 3" in summary  # pkg/__init__.py, core.py, util.py
    assert "files excluded (tests, docs, build, vendored, ignored) 1" in summary
    assert "files skipped 0" in summary
    assert "error sites 7" in summary and "records 7" in summary
    assert "by type: exception 5, console 2" in summary
    assert f"stored in {db}" in summary
    assert db.is_file()

    out = tmp_path / "out.jsonl"
    result = ok("export", "--db", db, "--jsonl", out)
    assert flat(result.stderr) == f"wrote 7 records to {out}"
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 7
    envelopes = [json.loads(line) for line in lines]
    datasets = set()
    for env in envelopes:
        assert set(env) == ENVELOPE_KEYS
        record = env["record"]
        errors = [e.message for e in record_validator.iter_errors(record)]
        assert errors == [], (record["id"], errors)
        assert record["repo"] == REPO and record["analyzedSha"] == SHA
        path, start = record["filePath"], record["sourceCodeStart"]
        assert record["githubUrl"].startswith(
            f"https://github.com/{REPO}/blob/{SHA}/{path}#L{start}"
        )
        assert env["evidence"]["source"] == {
            "origin": "dir",
            "refKind": "commit",
            "ref": SHA,
            "version": None,
            "refSource": "given",  # --sha
            "tag": None,
            "commit": SHA,
            "commitNote": None,
        }
        datasets.add(env["datasetVersion"])
    assert len(datasets) == 1  # one scan, one dataset version
    recs = [env["record"] for env in envelopes]
    assert sites_of(recs) == EXPECTED_SITES  # tests/ excluded by default
    assert len({r["id"] for r in recs}) == 7
    assert {r["errorMessage"] for r in recs} >= {
        "x must be non-negative, got {x}",
        "x is large",
        "x must not be five",
        "'unknown key {key!r}'",  # str(KeyError(msg)) is repr(msg)
    }
    # Ordered by filePath, lineNumber.
    assert [(r["filePath"], r["lineNumber"]) for r in recs] == sorted(
        (r["filePath"], r["lineNumber"]) for r in recs
    )

    # Export to standard output writes the same lines and nothing else.
    to_stdout = ok("export", "--db", db, "--jsonl", "-")
    assert to_stdout.stdout.splitlines() == lines
    assert to_stdout.stderr == ""

    data = stats(db)
    assert data["records"] == 7
    assert data["byClass"] == dict(Counter(r["errorClass"] or "(none)" for r in recs))
    assert (
        data["byType"]
        == dict(Counter(r["errorType"] for r in recs))
        == {
            "exception": 5,
            "console": 2,
        }
    )
    assert (
        data["bySeverity"]
        == dict(Counter(r["severity"] for r in recs))
        == {
            "error": 5,
            "warning": 2,
        }
    )
    assert data["repos"] == [{"repo": REPO, "commits": [SHA], "records": 7, "stale": 0}]
    (scan_info,) = data["scans"]
    assert scan_info["files_read"] == 3 and scan_info["sites"] == 7 and scan_info["records"] == 7
    assert scan_info["dataset_version"] == datasets.pop()

    text = flat(ok("stats", "--db", db).stdout)
    assert f"7 records in {db}" in text
    assert f"{REPO} {SHA[:12]} 7" in text
    assert "ValueError 1" in text and "warning 2" in text
    assert f"scan of {REPO} at {SHA}: 3 files read, 0 skipped, 7 sites" in text


def test_scan_json_summary_matches_the_store(tmp_path: Path) -> None:
    src = make_package(tmp_path / "src")
    db = tmp_path / "cat.db"
    summary = scan_json(src, "--repo", REPO, "--sha", SHA, "--db", db)
    recs = records(db)
    assert summary["db"] == str(db)
    assert (summary["repo"], summary["commit"], summary["ref"], summary["refKind"]) == (
        REPO,
        SHA,
        SHA,
        "commit",
    )
    assert summary["version"] is None
    assert (summary["filesRead"], summary["filesExcluded"], summary["filesSkipped"]) == (3, 1, 0)
    assert summary["skipped"] == []
    assert summary["sites"] == summary["records"] == len(recs) == 7
    assert summary["byClass"] == dict(Counter(r["errorClass"] for r in recs))
    assert summary["byType"] == {"exception": 5, "console": 2}
    assert sum(summary["byStyle"].values()) == 7
    assert isinstance(summary["seconds"], float)


def test_include_and_exclude(tmp_path: Path) -> None:
    src = make_package(tmp_path / "src")
    db = tmp_path / "cat.db"
    summary = scan_json(
        src, "--repo", REPO, "--db", db, "--include", "pkg/**", "--include", "tests/**"
    )
    assert summary["refKind"] == "none" and summary["commit"] is None
    recs = records(db)
    assert sites_of(recs) == EXPECTED_SITES | {("tests/test_core.py", 2, "RuntimeError")}
    # Without a commit or tag there is nothing to link to.
    assert all(r["githubUrl"] is None and r["analyzedSha"] is None for r in recs)

    # --exclude wins over the default rules and over --include.
    scan_json(src, "--repo", REPO, "--db", db, "--exclude", "util.py", "--exclude", "pkg/core.py")
    assert records(db) == []
    scan_json(src, "--repo", REPO, "--db", db, "--include", "tests/**", "--exclude", "test_*")
    assert records(db) == []

    # An --include glob restricts the scan to what it matches (see the report: the help
    # text says "Also scan paths matching GLOB", which reads as additive).
    scan_json(src, "--repo", REPO, "--db", db, "--include", "tests/**")
    assert {r["filePath"] for r in records(db)} == {"tests/test_core.py"}


def test_export_repo_filter(tmp_path: Path) -> None:
    db = tmp_path / "cat.db"
    ok("scan", make_package(tmp_path / "a"), "--repo", "one/a", "--sha", SHA, "--db", db)
    ok("scan", make_package(tmp_path / "b"), "--repo", "two/b", "--sha", SHA, "--db", db)
    assert len(export(db)) == 14
    only = export(db, "--repo", "two/b")
    assert len(only) == 7 and {e["record"]["repo"] for e in only} == {"two/b"}
    assert [r["repo"] for r in stats(db)["repos"]] == ["one/a", "two/b"]


# -- where the repository and commit come from -----------------------------------------


def test_git_work_tree_detects_repo_and_sha(tmp_path: Path) -> None:
    work = make_package(tmp_path / "work")
    run_git(work, "init", "-q", "-b", "main")
    run_git(work, "remote", "add", "origin", "git@github.com:acme/widgets.git")
    head = commit_all(work, "initial")
    db = tmp_path / "cat.db"

    summary = scan_json(work, "--db", db)
    assert (summary["repo"], summary["commit"], summary["refKind"]) == (REPO, head, "commit")
    recs = records(db)
    assert sites_of(recs) == EXPECTED_SITES
    for r in recs:
        assert r["analyzedSha"] == head
        assert r["githubUrl"].startswith(f"https://github.com/{REPO}/blob/{head}/pkg/")

    # --repo and --sha override what git says.
    summary = scan_json(work, "--db", tmp_path / "o.db", "--repo", "other/name", "--sha", SHA)
    assert (summary["repo"], summary["commit"]) == ("other/name", SHA)


def test_git_subdirectory_keeps_repository_paths(tmp_path: Path) -> None:
    work = make_package(tmp_path / "work")
    run_git(work, "init", "-q", "-b", "main")
    run_git(work, "remote", "add", "origin", "https://github.com/acme/widgets.git")
    head = commit_all(work)
    db = tmp_path / "cat.db"
    scan_json(work / "pkg", "--db", db)
    recs = records(db)
    assert sites_of(recs) == EXPECTED_SITES  # paths relative to the repository top
    assert all(f"/blob/{head}/pkg/" in r["githubUrl"] for r in recs)


DUPLICATED = """\
def a() -> None:
    raise ValueError("bad value")


def b() -> None:
    raise ValueError("bad value")
"""


def test_ids_do_not_depend_on_the_scanned_subdirectory(tmp_path: Path) -> None:
    work = tmp_path / "work"
    write(work, "pkg/dup.py", DUPLICATED)
    run_git(work, "init", "-q", "-b", "main")
    run_git(work, "remote", "add", "origin", "https://github.com/acme/widgets.git")
    commit_all(work)
    scan_json(work, "--db", tmp_path / "top.db")
    scan_json(work / "pkg", "--db", tmp_path / "sub.db")
    top, sub = records(tmp_path / "top.db"), records(tmp_path / "sub.db")
    assert [r["filePath"] for r in top] == [r["filePath"] for r in sub] == ["pkg/dup.py"] * 2
    assert [r["id"] for r in top] == [r["id"] for r in sub]


def _bare_remote(tmp_path: Path) -> tuple[Path, str, str]:
    """``owner/proj.git`` with tag ``v1.0`` (CORE) and ``main`` one commit ahead (CORE edited)."""
    bare = tmp_path / "remote" / "owner" / "proj.git"
    bare.parent.mkdir(parents=True)
    run_git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    work = make_package(tmp_path / "pusher")
    run_git(work, "init", "-q", "-b", "main")
    run_git(work, "remote", "add", "origin", bare.as_uri())
    tagged = commit_all(work, "one")
    run_git(work, "tag", "-a", "v1.0", "-m", "release 1.0")
    write(work, "pkg/core.py", CORE.replace("        raise NotImplementedError\n", ""))
    head = commit_all(work, "two")
    run_git(work, "push", "-q", "origin", "main", "--tags")
    return bare, tagged, head


def test_scan_file_url_at_tag(tmp_path: Path) -> None:
    bare, tagged, head = _bare_remote(tmp_path)
    db = tmp_path / "cat.db"
    summary = scan_json(f"{bare.as_uri()}@v1.0", "--db", db, "--repo", "owner/proj")
    assert summary["repo"] == "owner/proj"  # a file:// URL names no repository itself
    assert (summary["commit"], summary["ref"], summary["refKind"]) == (tagged, tagged, "commit")
    assert (summary["filesRead"], summary["filesExcluded"], summary["filesSkipped"]) == (3, 1, 0)
    assert summary["sites"] == summary["records"] == 7
    recs = records(db)
    assert sites_of(recs) == EXPECTED_SITES
    assert all(
        r["githubUrl"].startswith(f"https://github.com/owner/proj/blob/{tagged}/") for r in recs
    )
    assert {e["evidence"]["source"]["origin"] for e in export(db)} == {"git"}
    # The clone went to $XDG_CACHE_HOME/errdex/git, not to the user's home.
    assert any((tmp_path / "xdg-cache" / "errdex" / "git").iterdir())

    # The default branch is one commit ahead: the removed raise goes stale.
    summary = scan_json(bare.as_uri(), "--db", db, "--repo", "owner/proj")
    assert (summary["commit"], summary["records"]) == (head, 6)
    assert sites_of(records(db)) == EXPECTED_SITES - {("pkg/core.py", 17, "NotImplementedError")}
    assert stats(db)["repos"] == [
        {"repo": "owner/proj", "commits": [head, tagged], "records": 6, "stale": 1}
    ]


def test_scan_installed_package(tmp_path: Path) -> None:
    db = tmp_path / "click.db"
    summary = scan_json("--package", "click", "--db", db)
    version = metadata.version("click")
    assert summary["repo"] == "pallets/click"
    assert summary["version"] == version
    assert summary["refKind"] in ("tag", "commit")
    if summary["refKind"] == "tag":
        # click tags without a ``v`` (errdex/data/tags.json)
        assert summary["commit"] is None and summary["ref"] == version
    assert summary["records"] > 50 and summary["filesSkipped"] == 0
    envelopes = export(db)
    assert len(envelopes) == summary["records"]
    for env in envelopes:
        record, source = env["record"], env["evidence"]["source"]
        assert record["repo"] == "pallets/click"
        assert source["origin"] == "package" and source["version"] == version
        assert record["githubUrl"].startswith(
            f"https://github.com/pallets/click/blob/{summary['ref']}/src/click/"
        )
        assert record["filePath"].startswith("src/click/")  # the path in the repository
        assert source["refSource"] == "table" and source["tag"] == version
        if summary["refKind"] == "tag":
            assert record["analyzedSha"] is None and source["refKind"] == "tag"
            assert source["commit"] is None and source["commitNote"]


# -- stability of ids ------------------------------------------------------------------


def test_jobs_2_gives_the_same_records_as_jobs_1(tmp_path: Path) -> None:
    src = tmp_path / "src"
    # More than 2 * scan.CHUNK files, so --jobs 2 really uses worker processes.
    for i in range(60):
        write(
            src,
            f"pkg/mod{i:02d}.py",
            f'def f(x: int) -> None:\n    if x == {i}:\n        raise ValueError("bad {i}")\n'
            f'    raise TypeError("wrong type")\n',
        )
    write(src, "pkg/core.py", CORE)
    one = scan_json(src, "--repo", REPO, "--sha", SHA, "--db", tmp_path / "one.db", "--jobs", "1")
    two = scan_json(src, "--repo", REPO, "--sha", SHA, "--db", tmp_path / "two.db", "-j", "2")
    for key in ("filesRead", "sites", "records", "byType", "byClass", "byStyle"):
        assert one[key] == two[key], key
    assert one["records"] == 60 * 2 + 5

    def comparable(db: Path) -> list[dict[str, Any]]:
        return [{k: v for k, v in r.items() if k != "analyzedAt"} for r in records(db)]

    by_one, by_two = comparable(tmp_path / "one.db"), comparable(tmp_path / "two.db")
    assert [r["id"] for r in by_one] == [r["id"] for r in by_two]
    assert by_one == by_two
    assert len({r["slug"] for r in by_one}) == len(by_one)  # slugs unique across workers


def test_rescan_after_edit_keeps_ids_and_drops_removed_raises(tmp_path: Path) -> None:
    src = make_package(tmp_path / "src")
    db = tmp_path / "cat.db"
    ok("scan", src, "--repo", REPO, "--sha", SHA, "--db", db, "--no-progress")
    before = {r["errorMessage"]: r for r in records(db)}
    assert len(before) == 7

    # Push everything down three lines, drop the KeyError, add a RuntimeError.
    write(src, "pkg/core.py", "# one\n# two\n# three\n" + CORE)
    write(
        src,
        "pkg/util.py",
        UTIL.replace(
            '        raise KeyError(f"unknown key {key!r}")\n',
            '        raise RuntimeError("missing")\n',
        ),
    )
    ok("scan", src, "--repo", REPO, "--sha", OTHER_SHA, "--db", db, "--no-progress")
    after = {r["errorMessage"]: r for r in records(db)}

    assert set(before) - set(after) == {"'unknown key {key!r}'"}
    assert set(after) - set(before) == {"missing"}
    for message, old in before.items():
        if message in after:
            new = after[message]
            assert new["id"] == old["id"], message
            assert new["analyzedSha"] == OTHER_SHA
            if new["filePath"] == "pkg/core.py":
                assert new["lineNumber"] == old["lineNumber"] + 3
                assert f"/blob/{OTHER_SHA}/pkg/core.py#L" in new["githubUrl"]
    data = stats(db)
    assert data["records"] == 7
    assert data["repos"] == [{"repo": REPO, "commits": [OTHER_SHA, SHA], "records": 7, "stale": 1}]
    assert "KeyError" not in data["byClass"] and data["byClass"]["RuntimeError"] == 1
    assert len(data["scans"]) == 2


# -- bad input -------------------------------------------------------------------------


def test_directory_without_git_needs_repo(tmp_path: Path) -> None:
    src = make_package(tmp_path / "src")
    db = tmp_path / "cat.db"
    message = fails("scan", src, "--db", db)
    assert message.startswith("error: cannot tell which repository")
    assert str(src) in message and "--repo OWNER/NAME" in message
    assert not db.exists()  # nothing created before the input is known to be good


def test_nonexistent_path(tmp_path: Path) -> None:
    missing = tmp_path / "no" / "such" / "dir"
    db = tmp_path / "cat.db"
    message = fails("scan", missing, "--repo", REPO, "--db", db)
    assert message.startswith(f"error: no such directory: {missing};")
    assert not db.exists()


def test_path_is_a_file(tmp_path: Path) -> None:
    file = write(tmp_path, "mod.py", 'raise ValueError("x")\n')
    message = fails("scan", file, "--repo", REPO, "--db", tmp_path / "cat.db")
    assert message == f"error: {file} is a file; give the directory that holds the source"


@pytest.mark.parametrize(
    "bad", [["--repo", "no-slash"], ["--sha", "not-hex"], ["--sha", "abc12"]], ids=str
)
def test_bad_repo_or_sha(tmp_path: Path, bad: list[str]) -> None:
    src = make_package(tmp_path / "src")
    args: list[str | Path] = [src, "--db", tmp_path / "cat.db", *bad]
    if bad[0] == "--sha":
        args += ["--repo", REPO]
    message = fails("scan", *args)
    assert repr(bad[1]) in message


@pytest.mark.parametrize(
    "content",
    [b"this is not a database, just some text\n" * 4, b"\x00\xff" * 600],
    ids=["text", "binary"],
)
def test_garbage_db(tmp_path: Path, content: bytes) -> None:
    src = make_package(tmp_path / "src")
    db = tmp_path / "garbage.db"
    db.write_bytes(content)
    for args in (
        ("scan", src, "--repo", REPO, "--db", db),
        ("stats", "--db", db),
        ("export", "--db", db, "--jsonl", tmp_path / "out.jsonl"),
    ):
        message = fails(*args)
        assert message.startswith(f"error: {db} is not an errdex database"), message
        assert "new file path" in message
    assert db.read_bytes() == content  # never overwritten
    assert not (tmp_path / "out.jsonl").exists()


def test_foreign_sqlite_db(tmp_path: Path) -> None:
    db = tmp_path / "other.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)")
    conn.close()
    message = fails("scan", make_package(tmp_path / "src"), "--repo", REPO, "--db", db)
    assert "is a SQLite database but not an errdex store" in message and "customers" in message
    assert "not an errdex store" in fails("stats", "--db", db)
    with sqlite3.connect(db) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")]
    conn.close()
    assert tables == ["customers"]


def test_store_failing_while_writing_is_a_clean_error(tmp_path: Path) -> None:
    src = make_package(tmp_path / "src")
    db = tmp_path / "cat.db"
    ok("scan", src, "--repo", REPO, "--db", db)
    with sqlite3.connect(db) as conn:  # damage it: opening still succeeds, writing fails
        conn.execute("DROP TABLE record_versions")
    conn.close()
    message = fails("scan", src, "--repo", REPO, "--db", db)
    assert f"could not write the scan of {REPO} to {db}" in message


@pytest.mark.parametrize("verb", ["stats", "export"])
def test_damaged_store_when_reading_is_a_clean_error(tmp_path: Path, verb: str) -> None:
    db = tmp_path / "cat.db"
    ok("scan", make_package(tmp_path / "src"), "--repo", REPO, "--db", db)
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE records")
    conn.close()
    extra = ["--jsonl", str(tmp_path / "out.jsonl")] if verb == "export" else []
    assert str(db) in fails(verb, "--db", db, *extra)


def test_missing_db_for_reading(tmp_path: Path) -> None:
    db = tmp_path / "absent.db"
    assert "does not exist" in fails("stats", "--db", db)
    assert "does not exist" in fails("export", "--db", db, "--jsonl", "-")
    assert not db.exists()


@pytest.mark.parametrize(
    "chosen",
    [
        [],
        ["SRC", "--package", "click"],
        ["SRC", "--stdlib"],
        ["--package", "click", "--stdlib"],
        ["--stdlib", "--environment"],
    ],
    ids=["none", "target+package", "target+stdlib", "package+stdlib", "stdlib+environment"],
)
def test_exactly_one_target(tmp_path: Path, chosen: list[str]) -> None:
    src = str(make_package(tmp_path / "src"))
    args = [src if a == "SRC" else a for a in chosen]
    db = tmp_path / "cat.db"
    message = fails("scan", *args, "--repo", REPO, "--db", db)
    assert message == (
        "error: give exactly one of TARGET, --package NAME, --stdlib or --environment "
        "(see errdex scan --help)"
    )
    assert not db.exists()


@pytest.mark.parametrize("args", [["--jobs", "0"], ["--jobs", "65"], ["--bogus"]], ids=str)
def test_click_usage_errors(tmp_path: Path, args: list[str]) -> None:
    message = fails("scan", make_package(tmp_path / "src"), "--repo", REPO, *args)
    assert "Usage: " in message and "Error:" in message


def test_uninstalled_package(tmp_path: Path) -> None:
    message = fails("scan", "--package", "errdex-no-such-distribution", "--db", tmp_path / "c.db")
    assert "'errdex-no-such-distribution' is not installed" in message


def test_bad_files_are_skipped_and_named(tmp_path: Path) -> None:
    src = make_package(tmp_path / "src")
    write(src, "pkg/broken.py", 'def f(:\n    raise ValueError("never stored")\n')
    (src / "pkg" / "blob.py").write_bytes(b'raise ValueError("nul")\x00\n')
    db = tmp_path / "cat.db"

    text = flat(ok("scan", src, "--repo", REPO, "--sha", SHA, "--db", db).stdout)
    assert "files skipped 2" in text and "skipped 2 file(s):" in text
    assert "pkg/broken.py: syntax error at line 1" in text
    assert "pkg/blob.py: binary: contains a NUL byte" in text
    assert sites_of(records(db)) == EXPECTED_SITES  # the good files' records are stored

    summary = scan_json(src, "--repo", REPO, "--sha", SHA, "--db", db)
    assert summary["filesSkipped"] == 2 and summary["filesRead"] == 3
    reasons = {s["path"]: s["reason"] for s in summary["skipped"]}
    assert set(reasons) == {"pkg/broken.py", "pkg/blob.py"}
    assert reasons["pkg/broken.py"].startswith("syntax error at line 1")
    assert reasons["pkg/blob.py"] == "binary: contains a NUL byte"
    assert summary["records"] == 7
    # The store keeps the skipped list for stats.
    latest = stats(db)["scans"][0]
    assert {p for p, _ in latest["skipped"]} == {"pkg/broken.py", "pkg/blob.py"}
    assert "skipped pkg/blob.py: binary: contains a NUL byte" in flat(
        ok("stats", "--db", db).stdout
    )


# -- the standard library --------------------------------------------------------------


def test_scan_stdlib(tmp_path: Path) -> None:
    db = tmp_path / "stdlib.db"
    summary = scan_json("--stdlib", "--db", db, "--no-progress")
    tag = stdlib_tag()
    assert summary["repo"] == "python/cpython"
    assert (summary["refKind"], summary["ref"], summary["commit"]) == ("tag", tag, None)
    assert summary["records"] > 3000
    envelopes = export(db)
    assert len(envelopes) == summary["records"]
    prefix = f"https://github.com/python/cpython/blob/{tag}/Lib/"
    assert tag.startswith("v3.")
    for env in envelopes:
        record = env["record"]
        assert record["githubUrl"].startswith(prefix), record["githubUrl"]
        assert record["filePath"].startswith("Lib/") and record["analyzedSha"] is None
    assert stats(db)["records"] == summary["records"]


# -- the real entry point --------------------------------------------------------------


def _run(argv: Sequence[str | Path], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(a) for a in argv], cwd=cwd, capture_output=True, text=True, timeout=60, check=False
    )


def test_python_m_errdex_cli_subprocess(tmp_path: Path) -> None:
    src = make_package(tmp_path / "src")
    cli = [sys.executable, "-m", "errdex.cli"]
    proc = _run(
        [*cli, "scan", src, "--repo", REPO, "--sha", SHA, "--db", "cat.db", "--json"], tmp_path
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["records"] == 7
    proc = _run([*cli, "export", "--db", "cat.db", "--jsonl", "-"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert len(proc.stdout.splitlines()) == 7

    proc = _run([*cli, "scan", src, "--db", "other.db"], tmp_path)
    assert proc.returncode == 2
    assert proc.stdout == "" and "Traceback" not in proc.stderr
    assert "--repo OWNER/NAME" in flat(proc.stderr)


def test_installed_errdex_script(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("errdex")
    if not script.is_file():
        pytest.skip(f"no errdex console script next to {sys.executable}")
    proc = _run([script, "--help"], tmp_path)
    assert proc.returncode == 0 and "Usage: errdex" in proc.stdout
    src = make_package(tmp_path / "src")
    proc = _run([script, "scan", src, "--repo", REPO, "--db", "cat.db"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "records 7" in flat(proc.stdout)
    proc = _run([script, "stats", "--db", "cat.db", "--json"], tmp_path)
    assert proc.returncode == 0 and json.loads(proc.stdout)["records"] == 7


HOSTILE = (
    "def shout(x):\n"
    "    # a raw escape in the source window: \x1b[2J\n"
    '    raise ValueError("evil \\x1b]0;pwned\\x07 \\x1b[31mred [bold]loud[/bold] {}".format(x))\n'
)


def test_scanned_text_never_reaches_the_terminal_as_escapes_or_markup(tmp_path: Path) -> None:
    """Messages, source lines and file names from a scanned repository, and the paste
    itself, print as text: no escape sequence, no rich markup read from them."""
    root = tmp_path / "repo"
    write(root, "pkg/loud.py", HOSTILE)
    (root / "pkg" / "bad\x1b[31mname.py").write_bytes(b"x = 1\x00\n")  # skipped: NUL
    db = str(tmp_path / "errdex.db")
    scan = CliRunner().invoke(
        main, ["scan", str(root), "--repo", "x/loud", "--sha", SHA, "--db", db]
    )
    assert scan.exit_code == 0, scan.output
    assert "\x1b" not in scan.output and "bad\\x1b[31mname.py" in scan.output
    # the frame finds the site (the parser strips colour codes from a paste, so the
    # message alone would not match the template's raw escapes)
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/site-packages/pkg/loud.py", line 3, in shout\n'
        "ValueError: evil [bold]loud[/bold] 5\n"
    )
    for verb in ("match", "explain"):
        result = CliRunner().invoke(main, [verb, "--db", db, paste])
        assert result.exit_code == 0, result.output
        assert "\x1b" not in result.output and "\x07" not in result.output, verb
        assert "[bold]loud[/bold]" in result.output, verb  # printed, not read as markup
        assert "pwned" in result.output, verb  # the record's message is shown...
        assert "\\x1b[31mred" in result.output, verb  # shown as what it is
    explained = CliRunner().invoke(main, ["explain", "--db", db, paste]).output
    assert "\\x1b[2J" in explained  # the source window's raw escape, shown escaped
    stats = CliRunner().invoke(main, ["stats", "--db", db])
    assert stats.exit_code == 0 and "\x1b" not in stats.output
