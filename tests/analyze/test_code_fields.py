"""tryCatchPattern is written only when it is well formed (issue 10, item 4): it compiles,
catches a class it imports from a public path, and its call runs the body that raises."""

from __future__ import annotations

import ast
import shutil
import sysconfig
from pathlib import Path
from typing import Any

import pytest

from errdex.analyze.code_fields import is_scaffold, unbound_names, well_formed
from errdex.scan import scan_checkout
from errdex.source import open_source

PACKAGE = """\
import abc


def numbers(limit):
    if limit < 0:
        raise ValueError("limit must not be negative")
    yield from range(limit)


async def fetch(url):
    if not url:
        raise ValueError("an empty url cannot be fetched")
    return url


class Shape(abc.ABC):
    def __init__(self, sides):
        if sides < 3:
            raise ValueError("a shape needs at least three sides")
        self.sides = sides

    @abc.abstractmethod
    def area(self):
        ...


class Box:
    @property
    def size(self):
        if not self.ready:
            raise OSError("the box's device is not ready yet")
        return 1


def lookup(key):
    if key not in ("a", "b"):
        raise UnknownKeyError("no entry is known for that key")
    return key
"""

PRIVATE = """\
class TokenError(Exception):
    pass


def tokenize(text):
    if not text:
        raise TokenError("nothing to tokenize in the text")
    return text.split()
"""

Item = tuple[dict[str, Any], dict[str, Any]]


@pytest.fixture(scope="module")
def by_line(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, int], Item]:
    root = tmp_path_factory.mktemp("handlers")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text(PACKAGE)
    (root / "pkg" / "_tokens.py").write_text(PRIVATE)
    result = scan_checkout(open_source(str(root), repo="o/handlers"), repo="o/handlers")
    return {(r["filePath"], r["lineNumber"]): (r, e) for r, e in result.items}


def _written(record: dict[str, Any], evidence: dict[str, Any]) -> str | None:
    """The handler shown, or the scaffold verify runs a reproducer in (one whose call reads
    names it does not bind is not shown); a shown one runs alone."""
    pattern = record["tryCatchPattern"]
    if pattern is not None:
        assert not unbound_names(pattern), pattern
        return str(pattern)
    written = evidence.get("provenance", {}).get("tryCatchPattern", {})
    return written.get("scaffold")


def _pattern(by_line: dict[tuple[str, int], Item], path: str, line: int) -> str | None:
    pattern = _written(*by_line[(path, line)])
    assert pattern is None or well_formed(pattern), pattern
    return pattern


def test_a_generators_call_is_iterated(by_line: dict[tuple[str, int], Item]) -> None:
    pattern = _pattern(by_line, "pkg/__init__.py", 6)
    assert pattern is not None and "    list(numbers(limit))" in pattern


def test_a_coroutine_is_awaited(by_line: dict[tuple[str, int], Item]) -> None:
    pattern = _pattern(by_line, "pkg/__init__.py", 12)
    assert pattern is not None and "import asyncio" in pattern
    assert "    asyncio.run(fetch(url))" in pattern


def test_an_abstract_class_is_not_instantiated(by_line: dict[tuple[str, int], Item]) -> None:
    pattern = _pattern(by_line, "pkg/__init__.py", 19)
    assert pattern is None or "Shape(" not in pattern


def test_a_property_is_read_not_called(by_line: dict[tuple[str, int], Item]) -> None:
    pattern = _pattern(by_line, "pkg/__init__.py", 31)
    assert pattern is not None and "obj.size  # obj: a Box" in pattern
    assert "obj.size()" not in pattern


def test_a_class_that_is_not_imported_is_not_caught(
    by_line: dict[tuple[str, int], Item],
) -> None:
    assert _pattern(by_line, "pkg/__init__.py", 37) is None


def test_no_import_through_a_private_module(by_line: dict[tuple[str, int], Item]) -> None:
    assert _pattern(by_line, "pkg/_tokens.py", 7) is None


def test_a_multi_line_message_stays_in_its_comment(tmp_path: Path) -> None:
    """configparser's MissingSectionHeaderError message spans three lines."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    shutil.copy(stdlib / "configparser.py", tmp_path / "configparser.py")
    result = scan_checkout(open_source(str(tmp_path), repo="o/cp"), repo="o/cp")
    patterns = [p for r, e in result.items if (p := _written(r, e))]
    assert any("File contains no section headers. file:" in p for p in patterns)
    for pattern in patterns:
        ast.parse(pattern)
        assert well_formed(pattern), pattern


def test_well_formed_rejects_what_cannot_run() -> None:
    assert well_formed("try:\n    f()\nexcept ValueError:\n    ...")
    assert not well_formed("try:\n    f(\nexcept ValueError:\n    ...")
    assert not well_formed("try:\n    f()\nexcept UnknownFileError:\n    ...")
    assert well_formed("from m import E\n\ntry:\n    f()\nexcept E:\n    ...")


def test_a_class_read_from_an_attribute_is_not_imported_as_a_module(tmp_path: Path) -> None:
    """``unittest.case._BaseTestCaseContext._raiseFailure`` raises
    ``self.test_case.failureException``: there is no module ``self.test_case``."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    (tmp_path / "unittest").mkdir()
    shutil.copy(stdlib / "unittest" / "case.py", tmp_path / "unittest" / "case.py")
    result = scan_checkout(open_source(str(tmp_path), repo="o/ut"), repo="o/ut")
    patterns = [p for r, e in result.items if (p := _written(r, e))]
    assert patterns
    for pattern in patterns:
        assert "from self." not in pattern, pattern
        assert well_formed(pattern), pattern


def test_unbound_names_are_the_ones_a_lone_run_misses() -> None:
    assert unbound_names("try:\n    obj.seed(a=a)\nexcept ValueError as exc:\n    print(exc)") == {
        "obj",
        "a",
    }
    bound = "from m import f, E\n\nx = 1\ntry:\n    f(x)\nexcept E as exc:\n    print(exc)"
    assert unbound_names(bound) == set()


def test_a_parameter_named_like_a_builtin_is_no_binding() -> None:
    """``uu_decode(input)``, ``getfile(object)``: the parameter's name, not the builtin;
    ``format_exception(exc)`` before ``except … as exc`` is not bound by it."""
    snippet = (
        "from m import f\n\ntry:\n    f(input, exc)\nexcept ValueError as exc:\n    print(exc)"
    )
    assert unbound_names(snippet, frozenset({"input", "exc"})) == {"input", "exc"}
    assert unbound_names(snippet) == {"exc"}


def test_a_check_with_an_ellipsis_body_is_a_scaffold() -> None:
    """A validationCode whose body is `...` cannot run, so it is kept, not shown (issue 10)."""
    assert is_scaffold("if x < 0:\n    ...  # change the arguments before calling f(x)")
    assert is_scaffold("if x < 0:\n    ...")
    assert not is_scaffold("if x < 0:\n    x = 0")
    assert not is_scaffold("print('...')")
    assert not is_scaffold(None)


GUARDED = """\
strict = True


def named(content=None):
    if content is not None:
        if not isinstance(content, str):
            raise TypeError("the content must be a str")
    return content


def leveled(level):
    if not isinstance(level, int):
        if strict:
            raise TypeError("the level must be an int")
    return level


def located(thing):
    object = thing.get("object")
    if isinstance(thing, dict) and object is None:
        raise TypeError("no object is given in the dict")
    return object
"""


def test_a_type_guard_states_every_condition_on_the_way(tmp_path: Path) -> None:
    """``if not isinstance(content, str)`` alone is false: ``named(None)`` does not raise
    (``lib2to3.pytree.LeafPattern``, ``multiprocessing.connection.Listener``'s
    ``authkey is not None and not isinstance(authkey, bytes)``); one over a module flag
    is left out, as the flag is no argument a caller passes, and so is one over a local."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text(GUARDED)
    result = scan_checkout(open_source(str(tmp_path), repo="o/tg"), repo="o/tg")
    by_message = {r["errorMessage"]: r for r, _ in result.items}
    guard = by_message["the content must be a str"]["typeGuard"] or ""
    assert guard.splitlines()[1:] == [
        "if (content is not None) and (not isinstance(content, str)):",
        "    ...  # pass content as an instance of str",
    ], guard
    assert by_message["the level must be an int"]["typeGuard"] is None
    # ``object`` is the function's local there (``pydoc.render_doc``), not the builtin
    assert by_message["no object is given in the dict"]["typeGuard"] is None
