"""Which frame of a live traceback is the true raise site, and what kind of line it is.

Kept apart from the collector so it can be tested without a virtualenv or a test run:
the site is the innermost frame whose file lies inside one of the library's installed
top-level directories (or the standard library), never in a nested site-packages.
"""

from __future__ import annotations

import ast
import functools
import os
from collections.abc import Iterable, Sequence

__all__ = ["Frame", "describe_line", "first_raise", "is_under", "pick_site", "test_dirs"]

Frame = tuple[str, int, str]  # absolute filename, line, function name; innermost first

_INSTALLED = frozenset({"site-packages", "dist-packages"})


def _inside(path: str, root: str) -> bool:
    """``path`` lies under ``root`` and not in an installed tree nested inside it."""
    prefix = os.path.join(root, "")
    if not path.startswith(prefix):
        return False
    return not _INSTALLED.intersection(path[len(prefix) :].split(os.sep)[:-1])


def pick_site(
    frames: Iterable[Frame], roots: Sequence[str], base: str, excluded: Sequence[str] = ()
) -> tuple[str, int, str, str] | None:
    """(path relative to ``base``, line, function, absolute path) of the innermost frame in ``roots``.

    ``frames`` run innermost first; pseudo files (``<string>``, ``<frozen …>``) never count,
    nor files under ``excluded``: test directories that live inside a root (the standard
    library's ``test/``, a package's installed ``tests/``) are the tests' code, not sites.
    """
    real_roots = [os.path.realpath(r) for r in roots]
    real_excluded = [os.path.realpath(r) for r in excluded]
    real_base = os.path.join(os.path.realpath(base), "")
    for filename, line, function in frames:
        if not os.path.isabs(filename):
            continue
        path = os.path.realpath(filename)
        if is_under(path, real_excluded):
            continue
        if any(path == r or _inside(path, r) for r in real_roots):
            rel = path[len(real_base) :] if path.startswith(real_base) else path
            return rel.replace(os.sep, "/"), line, function, path
    return None


def is_under(path: str, dirs: Sequence[str]) -> bool:
    """``path`` is one of ``dirs`` or lies below one (both already resolved)."""
    return any(path == d or path.startswith(os.path.join(d, "")) for d in dirs)


#: Directory names that hold a package's own tests (CPython's ``Lib/test``,
#: ``Lib/idlelib/idle_test``, an installed ``sklearn/utils/tests``).
TEST_DIR_NAMES = frozenset({"test", "tests", "idle_test"})


def test_dirs(root: str) -> list[str]:
    """The test directories below ``root`` (not inside an installed tree), outermost only."""
    found: list[str] = []
    for path, dirs, _files in os.walk(root):
        if _INSTALLED.intersection(dirs):
            dirs[:] = [d for d in dirs if d not in _INSTALLED]
        tests = sorted(d for d in dirs if d in TEST_DIR_NAMES)
        found += [os.path.join(path, d) for d in tests]
        dirs[:] = [d for d in dirs if d not in TEST_DIR_NAMES and d != "__pycache__"]
    return found


def first_raise(
    origin: Frame, printed: tuple[str, int, str, str], roots: Sequence[str], base: str
) -> tuple[str, int, str, str] | str | None:
    """Where the exception was first raised, when the printed traceback hides it.

    ``origin`` is the frame of the exception's first raise (the plugin's trace), ``printed``
    the site :func:`pick_site` read off the printed traceback. The origin's site when it
    lies inside ``roots`` and is not ``printed`` (a library that rewrote the traceback before
    re-raising: jinja2's ``raise rewrite_traceback_stack(...)``); ``"generated_code"`` when
    it was raised in code with no file (a compiled template); None when the printed site
    stands (the same frame, or a raise outside the library that the library passed on).
    """
    if not os.path.isabs(origin[0]):
        return "generated_code"
    found = pick_site([origin], roots, base)
    if found is None or found[:2] == printed[:2]:
        return None
    return found


@functools.lru_cache(maxsize=512)
def _tree(path: str) -> tuple[ast.Module | None, tuple[str, ...]]:
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError):
        return None, ()
    try:
        return ast.parse(text), tuple(text.splitlines())
    except (SyntaxError, ValueError):
        return None, tuple(text.splitlines())


def _style(node: ast.Raise) -> str:
    """How the ``raise`` writes its message (the categories of networkx.jsonl)."""
    exc = node.exc
    if exc is None:
        return "reraise"
    if not isinstance(exc, ast.Call):
        # ``raise FrozenInstanceError`` names a class; ``raise error`` an instance
        named = exc.attr if isinstance(exc, ast.Attribute) else getattr(exc, "id", "")
        return "class_no_args" if named[:1].isupper() else "prebuilt_exception"
    func = exc.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    if name[:1].islower():
        return "helper_call"  # raise self.make_error(...), raise _error(...)
    if not exc.args and not exc.keywords:
        return "class_no_args"
    first = exc.args[0] if exc.args else exc.keywords[0].value
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return "literal"
    if isinstance(first, ast.JoinedStr):
        return "fstring"
    if isinstance(first, ast.BinOp) or (
        isinstance(first, ast.Call)
        and isinstance(first.func, ast.Attribute)
        and first.func.attr == "format"
    ):
        return "formatted"
    if isinstance(first, ast.Call):
        return "helper_call"
    return "variable"


def _called(node: ast.AST) -> str:
    func = getattr(node, "func", None)
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def describe_line(path: str, line: int) -> dict[str, object]:
    """``site_kind``, ``raise_style``, ``is_python_raise`` and the text of ``path``:``line``.

    A fresh dict each call (callers update it); the reading is cached per line, as a suite's
    tens of thousands of captures fall on a few thousand lines of large files.
    """
    return dict(_described(path, line))


@functools.lru_cache(maxsize=65536)
def _described(path: str, line: int) -> dict[str, object]:
    tree, lines = _tree(path)
    source_line = lines[line - 1] if 0 < line <= len(lines) else ""
    found: dict[str, object] = {
        "source_line": source_line,
        "raise_source": None,
        "is_python_raise": False,
        "site_kind": "implicit",
        "raise_style": None,
    }
    if tree is None:
        return found
    spanning = [
        node
        for node in ast.walk(tree)
        if isinstance(node, (ast.Raise, ast.Assert, ast.Call))
        and node.lineno <= line <= (node.end_lineno or node.lineno)
    ]
    # a raise statement wins over the calls inside it; among equals, the narrowest
    spanning.sort(
        key=lambda n: (
            not isinstance(n, ast.Raise),
            not isinstance(n, ast.Assert),
            (n.end_lineno or n.lineno) - n.lineno,
        )
    )
    best = spanning[0] if spanning else None
    if isinstance(best, ast.Raise):
        found.update(
            is_python_raise=True,
            site_kind="raise",
            raise_style=_style(best),
            raise_source="\n".join(lines[best.lineno - 1 : best.end_lineno]),
        )
    elif isinstance(best, ast.Assert):
        found["site_kind"] = "assert"
    elif any(_called(n) in ("warn", "warn_explicit") for n in spanning):
        found.update(site_kind="warn_call", is_python_raise=True)
    return found
