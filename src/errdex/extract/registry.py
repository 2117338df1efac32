"""The one place a language's extractor is registered.

Each entry names the file suffixes a language owns, the module that reads them and the
file names its test suites use. The module is imported only when a file of its language
is met, so a scan of pure Python never loads a C grammar. A module registered here
exposes ``extract(text, file_path, lines) -> list[ErrorSite]`` and raises
:class:`ExtractError` (or ``SyntaxError``) for a file its parser cannot read.

Adding a language is one entry below and one module under ``errdex/extract/``: the scan,
the store and the site pick it up without change.
"""

from __future__ import annotations

import fnmatch
import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the matcher asks which language a path is without loading extractors
    from errdex.extract.site import ErrorSite

__all__ = [
    "EXTRACTORS",
    "ExtractError",
    "ExtractFn",
    "Extractor",
    "declared_test_files",
    "extractor_for",
    "is_test_file",
    "languages",
    "load_extractor",
    "source_suffixes",
]

ExtractFn = Callable[[str, str, list[str]], "list[ErrorSite]"]


class ExtractError(ValueError):
    """A file its language's parser cannot read; the scan skips it with this message."""


@dataclass(frozen=True, slots=True)
class Extractor:
    """One language: what files it reads, and how its test files are named."""

    language: str
    suffixes: tuple[str, ...]
    #: The module with ``extract(text, file_path, lines)``; imported on first use.
    module: str
    #: Words without which a file holds no site (a cheap skip before parsing); empty:
    #: always parse.
    keywords: tuple[str, ...] = ()
    #: ``fnmatch`` patterns of test file names (left out of a scan by default).
    test_names: tuple[str, ...] = ()
    #: Whether the static analyst (which reads Python) gathers evidence for its records.
    analysed: bool = False
    #: ``module:function`` naming, of the listed files (relative to a root), those that
    #: other files declare test code (Rust's ``#[cfg(test)] mod tests;``); empty: none.
    declared_tests: str = ""


_JS_SUFFIXES = (".js", ".mjs", ".cjs", ".jsx")
_TS_SUFFIXES = (".ts", ".tsx", ".mts", ".cts")
_JS_KEYWORDS = ("throw", "console", "reject", "tatus", "Error")


def _js_test_names(suffixes: tuple[str, ...]) -> tuple[str, ...]:
    """``*.test.js``, ``*.spec.ts``, ``*_test.js``, ...: Jest's, Mocha's and Vitest's names."""
    return tuple(f"*{mark}{s}" for s in suffixes for mark in (".test", ".spec", "_test"))


#: What every C/C++ site's call holds (``errdex.extract.c``): the C API's ``PyErr_``/``PyArg_``,
#: ``throw``, pybind11's and nanobind's helpers, and status constructors.
C_KEYWORDS = (
    "PyErr_",
    "PyArg_",
    "throw",
    "pybind11_fail",
    "set_error",
    "raise",
    "Error(",
    *("InvalidArgument", "FailedPrecondition", "Unimplemented", "Internal(", "NotFound"),
    *("OutOfRange", "ResourceExhausted", "Unavailable", "AlreadyExists", "PermissionDenied"),
    *("Aborted(", "DataLoss", "DeadlineExceeded", "Unauthenticated", "Cancelled(", "Unknown("),
)

EXTRACTORS: tuple[Extractor, ...] = (
    Extractor(
        "python",
        (".py",),
        "errdex.extract.python",
        keywords=("raise", "warn", "assert", "yield"),
        test_names=("test_*.py", "*_test.py", "conftest.py"),
        analysed=True,
    ),
    Extractor(
        "cython",
        (".pyx", ".pxd", ".pxi", ".pyx.in", ".pxd.in", ".pxi.in"),
        "errdex.extract.cython",
        # "def ": a Python-visible function's generated argument errors (cython/arguments)
        keywords=("raise", "warn", "assert", "PyErr_", "def "),
        test_names=("test_*.pyx", "*_test.pyx", "test_*.pyx.in"),
    ),
    Extractor(
        "java",
        (".java",),
        "errdex.extract.java",
        keywords=("throw", "assert", "requireNonNull", "check", "error", "warn", "severe", "fatal"),
        test_names=("*Test.java", "*Tests.java"),
    ),
    Extractor(
        "javascript",
        _JS_SUFFIXES,
        "errdex.extract.javascript",
        keywords=_JS_KEYWORDS,
        test_names=_js_test_names(_JS_SUFFIXES),
    ),
    Extractor(
        "typescript",
        _TS_SUFFIXES,
        "errdex.extract.javascript",
        keywords=_JS_KEYWORDS,
        test_names=_js_test_names(_TS_SUFFIXES),
    ),
    Extractor("c", (".c", ".h"), "errdex.extract.c", keywords=C_KEYWORDS),
    Extractor(
        "cpp", (".cc", ".cpp", ".cxx", ".hpp", ".hh"), "errdex.extract.c", keywords=C_KEYWORDS
    ),
    Extractor(
        "go",
        (".go",),
        "errdex.extract.go",
        keywords=("Error", "errors", "panic", "Fatal", "Panic"),
        test_names=("*_test.go",),
    ),
    Extractor(
        "rust",
        (".rs",),
        "errdex.extract.rust",
        keywords=("!", "expect", "Error", "error", "context"),
        test_names=(),
        declared_tests="errdex.extract.rust.test_modules:declared_test_files",
    ),
)


def languages() -> tuple[str, ...]:
    return tuple(e.language for e in EXTRACTORS)


def _chosen(only: Sequence[str] | None) -> tuple[Extractor, ...]:
    if only is None:
        return EXTRACTORS
    unknown = sorted(set(only) - set(languages()))
    if unknown:
        raise ValueError(
            f"unknown language {', '.join(unknown)}; errdex reads {', '.join(languages())}"
        )
    return tuple(e for e in EXTRACTORS if e.language in only)


def source_suffixes(only: Sequence[str] | None = None) -> tuple[str, ...]:
    """Every suffix a scan lists (of the languages in ``only``, or all)."""
    return tuple(dict.fromkeys(s for e in _chosen(only) for s in e.suffixes))


@cache
def _by_suffix() -> tuple[tuple[str, Extractor], ...]:
    pairs = [(s, e) for e in EXTRACTORS for s in e.suffixes]
    return tuple(sorted(pairs, key=lambda p: -len(p[0])))  # ``.pyx.in`` before ``.in``


def extractor_for(path: str) -> Extractor | None:
    """The extractor of ``path`` by its longest registered suffix, or None."""
    for suffix, extractor in _by_suffix():
        if path.endswith(suffix):
            return extractor
    return None


def is_test_file(name: str) -> bool:
    """Whether a file name is a test file by its own language's convention."""
    extractor = extractor_for(name)
    if extractor is None:
        return False
    return any(fnmatch.fnmatchcase(name, p) for p in extractor.test_names)


def declared_test_files(root: Path, files: list[str]) -> set[str]:
    """The listed files that another file declares test code, by each language's rule
    (a language without one, none); only the languages with files listed are loaded."""
    found: set[str] = set()
    for extractor in EXTRACTORS:
        mine = [f for f in files if f.endswith(extractor.suffixes)]
        if extractor.declared_tests and mine:
            module, _, name = extractor.declared_tests.partition(":")
            rule: Callable[[Path, list[str]], set[str]] = getattr(
                importlib.import_module(module), name
            )
            found |= rule(root, mine)
    return found


@cache
def load_extractor(module: str) -> ExtractFn:
    """The ``extract`` function of a registered module (imported once per process)."""
    fn: ExtractFn = importlib.import_module(module).extract
    return fn
