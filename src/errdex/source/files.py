"""List the source files of a checkout, leaving out tests, docs, vendored code and junk.

One ``os.scandir`` walk with pruning (or the package's RECORD list), one
``git`` call for ignore rules, no per-file subprocess: a stdlib-sized tree
lists in well under a second.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from .checkout import Checkout
from .errors import SourceError
from .gitcmd import git_available, ignored_paths
from .globs import GlobSet

__all__ = [
    "DEFAULT_MAX_BYTES",
    "FileListing",
    "default_exclusion",
    "iter_source_files",
]

DEFAULT_MAX_BYTES = 5 * 1024 * 1024

# "source": real code that is just not the library (tests, docs, vendored
# copies); counted in FileListing.excluded. "noise": environments, build
# output and caches; not even walked.
Exclusion = Literal["source", "noise"]

_SOURCE_DIRS = frozenset(
    {
        "tests",
        "test",
        "__tests__",
        "__mocks__",
        "testing",
        "docs",
        "doc",
        "examples",
        "example",
        "benchmarks",
        "benchmark",
        "bench",
        "benches",  # Cargo's benchmarks
        "asv_bench",
        "testdata",  # Go's test inputs (the go tool ignores the folder)
    }
)
#: Folders holding a copy of another project (``pip/_vendor``, ``sklearn/externals``): left
#: out of a repository's checkout, where the copy is that project's code, but listed for
#: an installed distribution, where the copy is what runs and what its tracebacks name.
_VENDOR_DIRS = frozenset({"_vendor", "vendor", "vendored", "third_party", "externals"})
#: A folder named for the tests of what precedes: ``idlelib/idle_test``, ``unit_tests``.
_TEST_DIR_ENDINGS = ("_test", "_tests")
_NOISE_DIRS = frozenset(
    {
        "build",
        "dist",
        ".tox",
        ".nox",
        ".venv",
        "venv",
        "site-packages",
        "node_modules",
        "__pycache__",
        ".git",
        ".hg",
        ".svn",
        ".eggs",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
    }
)


def _dir_exclusion(name: str, vendored: bool = False) -> Exclusion | None:
    """``vendored``: a vendored copy is a source of its own (an installed distribution's)."""
    low = name.lower()
    if low in _NOISE_DIRS or low.endswith(".egg-info"):
        return "noise"
    if low in _SOURCE_DIRS or low.endswith(_TEST_DIR_ENDINGS):
        return "source"
    if low in _VENDOR_DIRS and not vendored:
        return "source"
    return None


def python_test_file(name: str) -> bool:
    """``test_*.py``, ``*_test.py`` and ``conftest.py``: the default test-file rule."""
    if name == "conftest.py" or (name.startswith("test_") and name.endswith(".py")):
        return True
    return name.endswith("_test.py")


def _file_exclusion(
    name: str, test_file: Callable[[str], bool] = python_test_file
) -> Exclusion | None:
    return "source" if test_file(name) else None


def _worst(a: Exclusion | None, b: Exclusion | None) -> Exclusion | None:
    if a == "noise" or b == "noise":
        return "noise"
    return a or b


def default_exclusion(rel: str) -> Exclusion | None:
    """Why ``rel`` is not a library source by default (ignoring git), or None."""
    parts = rel.split("/")
    cls: Exclusion | None = None
    for part in parts[:-1]:
        cls = _worst(cls, _dir_exclusion(part))
    return _worst(cls, _file_exclusion(parts[-1]))


@dataclass
class FileListing:
    """The files to scan, plus what was left out and why.

    ``skipped`` holds real sources that could not be used (the user should
    hear about them); ``excluded`` only counts files left out by default
    rules (tests, docs, vendored, git-ignored), which are not sources.
    """

    files: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    excluded: int = 0


def _oserror_text(exc: OSError) -> str:
    return f"unreadable: {(exc.strerror or str(exc)).lower()}"


def _kind_name(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "fifo"
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "device"
    if stat.S_ISDIR(mode):
        return "directory"
    return "special file"


class _Lister:
    """State of one listing run; methods decide per folder and per file."""

    def __init__(
        self,
        root: Path,
        include: Sequence[str],
        exclude: Sequence[str],
        suffixes: Sequence[str],
        max_bytes: int,
        test_file: Callable[[str], bool] = python_test_file,
    ) -> None:
        self.root = str(root)
        self.test_file = test_file
        self.root_real = os.path.realpath(root)
        self.include = GlobSet(include)
        self.exclude = GlobSet(exclude)
        self.suffixes = (suffixes,) if isinstance(suffixes, str) else tuple(suffixes)
        self.max_bytes = max_bytes
        self.ignored_files: frozenset[str] = frozenset()
        self.ignored_dirs: frozenset[str] = frozenset()
        self.out = FileListing()

    # -- decisions -------------------------------------------------------

    def _admit(self, rel: str, cls: Exclusion | None, *, is_dir: bool = False) -> bool:
        """Default rules, then ``include`` (re-admits and restricts), then ``exclude``."""
        admitted = self.include.matches(rel, is_dir=is_dir) if self.include else cls is None
        if not admitted:
            if cls == "source" and not is_dir:
                self.out.excluded += 1
            return False
        return not self.exclude.matches(rel, is_dir=is_dir)

    def _inside(self, real: str) -> bool:
        return real == self.root_real or real.startswith(self.root_real.rstrip(os.sep) + os.sep)

    def _symlink(self, rel: str, abs_path: str, cls: Exclusion | None) -> None:
        """Only links to files inside the root are harmless, and those are scanned at their target."""
        real = os.path.realpath(abs_path)
        target_is_dir = os.path.isdir(real)
        if not rel.endswith(self.suffixes) and not target_is_dir:
            return
        if not self._admit(rel, cls, is_dir=target_is_dir):
            return
        if not self._inside(real):
            self.out.skipped.append((rel, "symlink outside repository"))
        elif target_is_dir:
            return  # the folder is walked where it really is
        elif not os.path.exists(real):
            self.out.skipped.append((rel, "unreadable: broken symlink"))
        else:
            target = os.path.relpath(real, self.root_real).replace(os.sep, "/")
            self.out.skipped.append((rel, f"symlink to {target} (scanned there)"))

    def file(self, rel: str, abs_path: str, cls: Exclusion | None, *, maybe_link: bool) -> None:
        """Decide about one file-like entry (regular file, symlink, fifo, ...).

        ``maybe_link`` False says a non-source name need not be checked for
        being a link to a folder, saving a system call per file.
        """
        wanted = rel.endswith(self.suffixes)
        if wanted:
            cls = _worst(cls, _file_exclusion(rel.rsplit("/", 1)[-1], self.test_file))
            if rel in self.ignored_files:
                cls = _worst(cls, "noise")
            if cls == "noise" and not self.include:
                return  # cheap exit before any system call
        elif not maybe_link:
            return
        try:
            st = os.lstat(abs_path)
        except OSError as exc:
            if wanted and self._admit(rel, cls):
                self.out.skipped.append((rel, _oserror_text(exc)))
            return
        if stat.S_ISLNK(st.st_mode):
            self._symlink(rel, abs_path, cls)
            return
        if not wanted or not self._admit(rel, cls):
            return
        if not stat.S_ISREG(st.st_mode):
            kind = _kind_name(st.st_mode)
            self.out.skipped.append((rel, f"unreadable: not a regular file ({kind})"))
        elif st.st_size > self.max_bytes:
            self.out.skipped.append((rel, f"too large ({st.st_size} bytes)"))
        elif not os.access(abs_path, os.R_OK):
            self.out.skipped.append((rel, "unreadable: permission denied"))
        else:
            self.out.files.append(rel)

    def _dir_class(self, rel: str, name: str, inherited: Exclusion | None) -> Exclusion | None:
        cls = _worst(inherited, _dir_exclusion(name))
        if rel in self.ignored_dirs:
            cls = _worst(cls, "noise")
        return cls

    def _descend(self, rel: str, cls: Exclusion | None) -> bool:
        """Whether to walk into a folder: prune what can yield neither files nor counts."""
        if self.exclude.matches(rel, is_dir=True):
            return False
        if self.include:
            if _dir_exclusion(rel.rsplit("/", 1)[-1]) == "noise":
                # A virtualenv, build or cache folder holds other projects' files: an
                # include glob re-admits it only by naming it or a like folder above it
                # (``build/**``, ``.venv/**``), so that ``--include numbers.py`` does not
                # read site-packages' copies.
                parts = rel.split("/")
                named = ("/".join(parts[: k + 1]) for k in range(len(parts)))
                return any(
                    self.include.names_folder(folder)
                    for folder in named
                    if _dir_exclusion(folder.rsplit("/", 1)[-1]) == "noise"
                )
            # Only included paths can be listed; still walk test folders to count them.
            return self.include.may_match_below(rel) or cls == "source"
        return cls != "noise"

    # -- traversal -------------------------------------------------------

    def walk(self) -> None:
        """Walk the root depth-first with ``os.scandir``; never follow folder links."""
        stack: list[tuple[str, Exclusion | None]] = [("", None)]
        while stack:
            rel_dir, inherited = stack.pop()
            abs_dir = os.path.join(self.root, rel_dir) if rel_dir else self.root
            try:
                entries = list(os.scandir(abs_dir))
            except OSError as exc:
                if not rel_dir:
                    raise SourceError(f"cannot list {abs_dir}: {exc.strerror or exc}") from exc
                if inherited is None:
                    self.out.skipped.append((rel_dir + "/", _oserror_text(exc)))
                continue
            for entry in entries:
                name = entry.name
                if name == ".git":
                    continue
                rel = f"{rel_dir}/{name}" if rel_dir else name
                try:
                    is_dir = entry.is_dir(follow_symlinks=False)
                except OSError:
                    is_dir = False
                if is_dir:
                    cls = self._dir_class(rel, name, inherited)
                    if self._descend(rel, cls):
                        stack.append((rel, cls))
                else:
                    self.file(rel, entry.path, inherited, maybe_link=entry.is_symlink())

    def listed(self, files: Sequence[str], vendored: bool = False) -> None:
        """Filter an explicit file list (a package's RECORD) with the same rules
        (``vendored``: but for vendored copies, which an installed distribution runs)."""
        for raw in files:
            rel = raw.replace("\\", "/").removeprefix("./")
            parts = rel.split("/")
            if rel.startswith("/") or ".." in parts:
                self.out.skipped.append((rel, "path outside the package root"))
                continue
            cls: Exclusion | None = None
            for part in parts[:-1]:
                cls = _worst(cls, _dir_exclusion(part, vendored))
            self.file(rel, os.path.join(self.root, *parts), cls, maybe_link=False)


def iter_source_files(
    checkout: Checkout,
    *,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    suffixes: Sequence[str] = (".py",),
    max_bytes: int = DEFAULT_MAX_BYTES,
    test_file: Callable[[str], bool] = python_test_file,
    declared_tests: Callable[[Path, list[str]], set[str]] | None = None,
) -> FileListing:
    """List the files under ``checkout.root`` worth scanning, sorted.

    Default exclusions (test/doc/example/benchmark/vendored/build folders, vendored
    ones but in an installed distribution's files (``origin`` package, from its RECORD),
    ``test_*.py``, ``*_test.py``, ``conftest.py`` and git-ignored files) come
    first; ``include`` globs re-admit excluded paths and, when given, restrict
    the listing to what they match; ``exclude`` globs then drop more. Files
    that should have been scanned but cannot be (a symlink leaving the root,
    over ``max_bytes``, unreadable) are reported in ``skipped``. ``test_file`` says which
    file names are tests (by default Python's; a scan passes each language's own rule);
    ``declared_tests`` names the listed files that other files declare test code (Rust's
    ``#[cfg(test)] mod tests;``), left out too unless ``include`` is given.
    """
    root = checkout.root
    if not root.is_dir():
        raise SourceError(f"source root {root} is not a directory; was the checkout removed?")
    lister = _Lister(root, include, exclude, suffixes, max_bytes, test_file)
    if checkout.files is not None:
        lister.listed(checkout.files, vendored=checkout.origin == "package")
    else:
        ignored = ignored_paths(root) if git_available() else None
        if ignored is not None:
            lister.ignored_files, lister.ignored_dirs = ignored
        lister.walk()
    out = lister.out
    if declared_tests is not None and not include and out.files:
        dropped = declared_tests(root, out.files)
        out.files = [f for f in out.files if f not in dropped]
        out.excluded += len(dropped)
    out.files.sort()
    out.skipped.sort()
    return out
