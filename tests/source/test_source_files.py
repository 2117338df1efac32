"""Listing source files: default exclusions, globs, git ignores and honest skips."""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from errdex.source import Checkout, iter_source_files, open_source
from errdex.source.globs import Glob

from .helpers import commit_all, run_git, write


def _dir(root: Path, files: tuple[str, ...] | None = None) -> Checkout:
    return Checkout(
        root=root,
        repo=None,
        sha=None,
        ref=None,
        ref_kind="none",
        forge_url=None,
        version=None,
        origin="dir",
        files=files,
    )


TREE = (
    "pkg/__init__.py",
    "pkg/core.py",
    "pkg/notes.txt",
    "pkg/tests/test_core.py",
    "pkg/tests/helpers.py",
    "pkg/test_inline.py",
    "pkg/thing_test.py",
    "conftest.py",
    "docs/conf.py",
    "Doc/tools/ext.py",
    "examples/demo.py",
    "benchmarks/b.py",
    "asv_bench/a.py",
    "pkg/_vendor/six.py",
    "pkg/third_party/lib.py",
    "build/lib/pkg/core.py",
    ".venv/lib/site-packages/x.py",
    "node_modules/x/y.py",
    "pkg/__pycache__/core.py",
    "pkg.egg-info/x.py",
    ".tox/py/x.py",
)


def _tree(root: Path, extra: tuple[str, ...] = ()) -> Path:
    for rel in (*TREE, *extra):
        write(root, rel)
    return root


def test_default_exclusions(tmp_path: Path) -> None:
    listing = iter_source_files(_dir(_tree(tmp_path)))
    assert listing.files == ["pkg/__init__.py", "pkg/core.py"]
    assert listing.skipped == []
    # test/doc/example/benchmark/vendored .py files are counted; build, venvs, caches are not
    assert listing.excluded == 12


def test_an_installed_distribution_keeps_its_vendored_copies(tmp_path: Path) -> None:
    """A package's RECORD lists what it runs: ``pkg/_vendor`` and ``pkg/third_party`` are
    sources there (their tests still are not); the same list read as a folder leaves
    them out, as a repository's vendored copies are another project's code."""
    _tree(tmp_path, ("pkg/_vendor/tests/test_six.py", "pkg/externals/compat.py"))
    listed = tuple(sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.py")))
    installed = dataclasses.replace(_dir(tmp_path, listed), origin="package")
    files = iter_source_files(installed).files
    assert [f for f in files if f.startswith("pkg/")] == [
        "pkg/__init__.py",
        "pkg/_vendor/six.py",
        "pkg/core.py",
        "pkg/externals/compat.py",
        "pkg/third_party/lib.py",
    ]
    assert "pkg/_vendor/six.py" not in iter_source_files(_dir(tmp_path, listed)).files


def test_include_restricts_and_readmits(tmp_path: Path) -> None:
    _tree(tmp_path)
    only_tests = iter_source_files(_dir(tmp_path), include=["pkg/tests/**"])
    assert only_tests.files == ["pkg/tests/helpers.py", "pkg/tests/test_core.py"]
    readmit_build = iter_source_files(_dir(tmp_path), include=["build/**", "pkg/core.py"])
    assert readmit_build.files == ["build/lib/pkg/core.py", "pkg/core.py"]
    by_name = iter_source_files(_dir(tmp_path), include=["_vendor"])
    assert by_name.files == ["pkg/_vendor/six.py"]


def test_exclude_drops_more(tmp_path: Path) -> None:
    _tree(tmp_path, ("pkg/gen/a_pb2.py", "pkg/gen/keep.py"))
    listing = iter_source_files(_dir(tmp_path), exclude=["*_pb2.py", "pkg/core.py"])
    assert listing.files == ["pkg/__init__.py", "pkg/gen/keep.py"]
    folder = iter_source_files(_dir(tmp_path), exclude=["pkg/gen/"])
    assert folder.files == ["pkg/__init__.py", "pkg/core.py"]
    # exclude wins over include
    both = iter_source_files(_dir(tmp_path), include=["pkg/tests/**"], exclude=["test_*"])
    assert both.files == ["pkg/tests/helpers.py"]


def test_other_suffixes(tmp_path: Path) -> None:
    _tree(tmp_path, ("pkg/core.pyi", "pkg/ext.pyx"))
    listing = iter_source_files(_dir(tmp_path), suffixes=(".pyi", ".pyx"))
    assert listing.files == ["pkg/core.pyi", "pkg/ext.pyx"]


def test_gitignore_is_respected(git_repo: Path) -> None:
    write(git_repo, ".gitignore", "generated/\n_version.py\n")
    write(git_repo, "pkg/_version.py")
    write(git_repo, "generated/out.py")
    write(git_repo, "pkg/untracked.py")
    commit_all(git_repo)
    write(git_repo, "pkg/new_untracked.py")
    co = open_source(str(git_repo))
    listing = iter_source_files(co)
    assert listing.files == ["pkg/__init__.py", "pkg/new_untracked.py", "pkg/untracked.py"]
    # an include glob re-admits ignored files too
    assert iter_source_files(co, include=["pkg/_version.py"]).files == ["pkg/_version.py"]


def test_gitignore_from_a_subdirectory(git_repo: Path) -> None:
    write(git_repo, ".gitignore", "*_gen.py\n")
    write(git_repo, "src/pkg/a.py")
    write(git_repo, "src/pkg/b_gen.py")
    commit_all(git_repo)
    co = open_source(str(git_repo / "src"))
    assert iter_source_files(co).files == ["pkg/a.py"]


def test_symlinks(tmp_path: Path) -> None:
    root = tmp_path / "root"
    write(root, "pkg/real.py")
    outside = write(tmp_path, "elsewhere/secret.py")
    write(tmp_path, "elsewhere/dir/x.py")
    (root / "pkg" / "leak.py").symlink_to(outside)
    (root / "pkg" / "alias.py").symlink_to(root / "pkg" / "real.py")
    (root / "pkg" / "linked_dir").symlink_to(tmp_path / "elsewhere" / "dir")
    (root / "pkg" / "inner_dir").symlink_to(root / "pkg")
    listing = iter_source_files(_dir(root))
    assert listing.files == ["pkg/real.py"]
    assert listing.skipped == [
        ("pkg/alias.py", "symlink to pkg/real.py (scanned there)"),
        ("pkg/leak.py", "symlink outside repository"),
        ("pkg/linked_dir", "symlink outside repository"),
    ]


def test_too_large(tmp_path: Path) -> None:
    write(tmp_path, "big.py", "x = 1\n" * 100)
    write(tmp_path, "small.py")
    listing = iter_source_files(_dir(tmp_path), max_bytes=100)
    assert listing.files == ["small.py"]
    assert listing.skipped == [("big.py", "too large (600 bytes)")]


def test_unreadable_special_files(tmp_path: Path) -> None:
    """Real even as root: a FIFO is not a readable source and must never be opened."""
    write(tmp_path, "ok.py")
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "dangling.py").symlink_to(tmp_path / "missing.py")
    listing = iter_source_files(_dir(tmp_path))
    assert listing.files == ["ok.py"]
    assert listing.skipped == [
        ("dangling.py", "unreadable: broken symlink"),
        ("pipe.py", "unreadable: not a regular file (fifo)"),
    ]


def _listing_as_nobody(root: Path) -> list[tuple[str, str]]:
    """List ``root`` in a forked child that dropped root's rights, so permissions bite."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        status = 1
        try:
            os.close(read_end)
            os.setgid(65534)
            os.setuid(65534)
            skipped = iter_source_files(_dir(root)).skipped
            os.write(write_end, json.dumps(skipped).encode())
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        data = pipe.read()
    _, status = os.waitpid(pid, 0)
    assert status == 0, "the unprivileged child failed"
    return [tuple(item) for item in json.loads(data)]  # type: ignore[misc]


def test_unreadable_permissions() -> None:
    # tmp_path lives under a 0700 folder of root's: use a world-traversable one instead.
    root = Path(tempfile.mkdtemp(prefix="errdex-perm-"))
    try:
        root.chmod(0o755)
        write(root, "ok.py").chmod(0o644)
        locked = write(root, "locked.py")
        locked.chmod(0)
        if os.geteuid() == 0:
            skipped = _listing_as_nobody(root)
        else:
            skipped = iter_source_files(_dir(root)).skipped
        assert skipped == [("locked.py", "unreadable: permission denied")]
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_package_file_list_gets_the_same_rules(tmp_path: Path) -> None:
    _tree(tmp_path, ("pkg/big.py",))
    (tmp_path / "pkg" / "big.py").write_text("x" * 500, encoding="utf-8")
    files = (
        "pkg/__init__.py",
        "pkg/core.py",
        "pkg/big.py",
        "pkg/tests/test_core.py",
        "../../bin/x.py",
    )
    listing = iter_source_files(_dir(tmp_path, files), max_bytes=100)
    assert listing.files == ["pkg/__init__.py", "pkg/core.py"]
    assert listing.excluded == 1
    assert listing.skipped == [
        ("../../bin/x.py", "path outside the package root"),
        ("pkg/big.py", "too large (500 bytes)"),
    ]
    assert iter_source_files(_dir(tmp_path, files), include=["pkg/tests/*"]).files == [
        "pkg/tests/test_core.py"
    ]


def test_large_tree_is_fast(tmp_path: Path) -> None:
    for d in range(40):
        folder = tmp_path / f"pkg{d}"
        folder.mkdir()
        for f in range(50):
            (folder / f"m{f}.py").write_text("x = 1\n", encoding="utf-8")
        (folder / "data.txt").write_text("", encoding="utf-8")
    run_git(tmp_path, "init", "-q")
    start = time.perf_counter()
    listing = iter_source_files(open_source(str(tmp_path)))
    elapsed = time.perf_counter() - start
    assert len(listing.files) == 2000
    assert elapsed < 2.0, elapsed


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        ("pkg/*", "pkg/a/b.py", True),  # fnmatch: '*' crosses '/'
        ("**/conftest.py", "conftest.py", True),
        ("**/conftest.py", "a/b/conftest.py", True),
        ("src/**", "src/x.py", True),
        ("src/**", "srcx/x.py", False),
        ("tests", "a/tests/b.py", True),  # a bare name matches at any depth
        ("*_pb2.py", "a/b_pb2.py", True),
        ("gen/", "gen.py", False),  # folders only
        ("gen/", "a/gen/x.py", True),
        ("a/b", "a/b/c.py", True),  # a matching folder covers what is below
        ("m[0-9].py", "m1.py", True),
        ("m[!0-9].py", "m1.py", False),
    ],
)
def test_glob_semantics(pattern: str, path: str, expected: bool) -> None:
    assert Glob.compile(pattern).matches(path) is expected


def test_a_folder_named_for_tests_is_not_library(tmp_path: Path) -> None:
    """``idlelib/idle_test/mock_tk.py`` is the test suite's mock, not idlelib's code
    (stdlib 3.11.7: four of its raises were catalogued as the library's)."""
    listing = iter_source_files(
        _dir(
            _tree(tmp_path, ("idlelib/run.py", "idlelib/idle_test/mock_tk.py", "x/unit_tests/m.py"))
        )
    )
    assert listing.files == ["idlelib/run.py", "pkg/__init__.py", "pkg/core.py"]


def test_a_bare_name_include_does_not_reach_into_virtualenvs(tmp_path: Path) -> None:
    # --include numbers.py once listed the numbers.py of every package installed in a
    # virtualenv (and the stdlib's Lib/site-packages), beside the project's own.
    _tree(
        tmp_path,
        (
            "pkg/numbers.py",
            ".venv/lib/python3.11/site-packages/sympy/numbers.py",
            "Lib/site-packages/sympy/core/numbers.py",
            "node_modules/x/numbers.py",
            "build/lib/pkg/numbers.py",
        ),
    )
    assert iter_source_files(_dir(tmp_path), include=["numbers.py"]).files == ["pkg/numbers.py"]
    assert iter_source_files(_dir(tmp_path), include=["**/numbers.py"]).files == ["pkg/numbers.py"]
    named = iter_source_files(_dir(tmp_path), include=[".venv/**", "build"])
    assert [f for f in named.files if f.endswith("numbers.py")] == [
        ".venv/lib/python3.11/site-packages/sympy/numbers.py",
        "build/lib/pkg/numbers.py",
    ]
