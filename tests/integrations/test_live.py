from __future__ import annotations

import importlib.util
import json
import traceback
from pathlib import Path
from types import ModuleType

import pytest

from errdex.integrations.live import (
    LiveAnswer,
    answers_for_exception,
    class_name,
    errors_from_exception,
)
from errdex.match.paste import PastedError, parse_paste
from errdex.store import StoreError
from tests.integrations.conftest import line_of


class LocalError(Exception):
    pass


def caught(fn: object) -> BaseException:
    try:
        fn()  # type: ignore[operator]
    except BaseException as exc:
        return exc
    raise AssertionError("did not raise")


def chained() -> None:
    def inner() -> None:
        raise KeyError("k")

    def middle() -> None:
        try:
            inner()
        except KeyError as error:
            raise LocalError("middle failed") from error

    try:
        middle()
    except LocalError:
        raise RuntimeError("while handling")  # noqa: B904 (the context is the point)


def _facts(errors: list[PastedError]) -> list[tuple[object, ...]]:
    """What both readings must agree on: class, message, relation, format, frames."""
    return [
        (
            e.error_class,
            e.message,
            e.relation,
            e.source_format,
            [(f.path, f.line, f.function) for f in e.frames],
        )
        for e in errors
    ]


def as_parsed(exc: BaseException) -> list[tuple[object, ...]]:
    return _facts(parse_paste("".join(traceback.format_exception(exc))))


def as_live(exc: BaseException) -> list[tuple[object, ...]]:
    return _facts(errors_from_exception(exc))


def test_a_chain_reads_as_its_printed_traceback_parses() -> None:
    exc = caught(chained)
    live = errors_from_exception(exc)
    assert [e.error_class for e in live] == ["KeyError", f"{__name__}.LocalError", "RuntimeError"]
    assert [e.relation for e in live] == ["cause", "context", None]
    assert as_live(exc) == as_parsed(exc)
    assert live[0].frames[-1].source == 'raise KeyError("k")'
    assert live[0].frames[-1].path == __file__


def test_suppressed_context_is_left_out() -> None:
    def fn() -> None:
        try:
            raise KeyError("hidden")
        except KeyError:
            raise ValueError("shown") from None

    exc = caught(fn)
    assert [(e.error_class, e.message) for e in errors_from_exception(exc)] == [
        ("ValueError", "shown")
    ]
    assert as_live(exc) == as_parsed(exc)


def test_a_cycle_in_the_chain_ends() -> None:
    first, second = ValueError("a"), TypeError("b")
    first.__context__, second.__context__ = second, first
    assert [e.message for e in errors_from_exception(first)] == ["b", "a"]


def test_notes_are_notes_not_message() -> None:
    def fn() -> None:
        error = ValueError("base message")
        error.add_note("first note")
        error.add_note("second\nnote")
        raise error

    (error,) = errors_from_exception(caught(fn))
    assert error.message == "base message"
    assert error.notes == ["first note", "second\nnote"]


def test_exception_groups_members_before_the_group() -> None:
    def fn() -> None:
        try:
            raise OSError("member with a traceback")
        except OSError as member:
            inner = ExceptionGroup("inner", [member])
        raise ExceptionGroup("many", [ValueError("v1"), inner])

    exc = caught(fn)
    live = errors_from_exception(exc)
    assert [(e.error_class, e.message) for e in live] == [
        ("ValueError", "v1"),
        ("OSError", "member with a traceback"),
        ("ExceptionGroup", "inner (1 sub-exception)"),
        ("ExceptionGroup", "many (2 sub-exceptions)"),
    ]
    assert {e.source_format for e in live} == {"exception-group"}
    assert live[1].frames and live[1].frames[-1].function == "fn"  # the member's own frames
    assert [e[:4] for e in as_live(exc)] == [e[:4] for e in as_parsed(exc)]


def test_class_names_as_traceback_prints_them() -> None:
    assert class_name(KeyError) == "KeyError"
    assert class_name(json.JSONDecodeError) == "json.decoder.JSONDecodeError"
    assert class_name(LocalError) == f"{__name__}.LocalError"
    main = type("MainError", (Exception,), {"__module__": "__main__"})
    assert class_name(main) == "MainError"
    exc = caught(lambda: json.loads("{"))
    assert as_live(exc)[-1][:2] == as_parsed(exc)[-1][:2]


def test_syntax_error_has_its_message_and_the_offending_line() -> None:
    exc = caught(lambda: compile("x = (1,\n", "mod.py", "exec"))
    (error,) = errors_from_exception(exc)
    assert error.source_format == "syntax-error"
    assert error.message == "'(' was never closed"
    assert (error.frames[-1].path, error.frames[-1].line, error.frames[-1].source) == (
        "mod.py",
        1,
        "x = (1,",
    )
    assert as_live(exc) == as_parsed(exc)


def test_a_failing_str_does_not_fail() -> None:
    class Rude(Exception):
        def __str__(self) -> str:
            raise RuntimeError("no")

    (error,) = errors_from_exception(caught(lambda: (_ for _ in ()).throw(Rude())))
    assert error.message == "<exception str() failed>"


def load_core(root: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "tinyshapes_core", root / "src" / "tinyshapes" / "core.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_answers_name_the_raise_site(shapes: Path, shapes_db: Path) -> None:
    core = load_core(shapes)
    exc = caught(lambda: core.reshape(6, (4, 2)))
    (answer,) = answers_for_exception(exc, db=shapes_db)
    assert answer.status == "matched"
    best = answer.candidates[0]
    assert (best.filePath, best.lineNumber) == (
        "src/tinyshapes/core.py",
        line_of("raise ShapeError"),
    )
    assert best.holes == {"size": "6", "shape": "(4, 2)"}
    assert isinstance(answer, LiveAnswer)
    assert answer.envelope is not None and answer.envelope["record"]["id"] == best.id
    assert answer.local_path == str(shapes / "src" / "tinyshapes" / "core.py")


def test_a_chain_is_one_answer_for_its_last_error(shapes: Path, shapes_db: Path) -> None:
    core = load_core(shapes)
    (answer,) = answers_for_exception(caught(lambda: core.wrapped(6, (4, 2))), db=shapes_db)
    assert answer.error_class == "RuntimeError"
    assert answer.candidates[0].lineNumber == line_of("raise RuntimeError")


def test_the_default_catalogue_comes_from_the_environment(
    shapes: Path, shapes_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    core = load_core(shapes)
    monkeypatch.setenv("ERRDEX_DB", str(shapes_db))
    (answer,) = answers_for_exception(caught(lambda: core.axis_of(2, 5)))
    assert answer.candidates[0].lineNumber == line_of("raise IndexError")


def test_no_catalogue_is_no_answer_and_creates_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = tmp_path / "sub" / "errdex.db"
    assert answers_for_exception(ValueError("x"), db=missing) == []
    assert not missing.exists() and not missing.parent.exists()
    monkeypatch.delenv("ERRDEX_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    assert answers_for_exception(ValueError("x")) == []
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("content", [b"", b"just some text, not sqlite"])
def test_a_file_that_is_no_catalogue_is_refused_untouched(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "errdex.db"
    path.write_bytes(content)
    with pytest.raises(StoreError):
        answers_for_exception(ValueError("x"), db=path)
    assert path.read_bytes() == content


def test_a_corrupt_sqlite_file_is_a_store_error(tmp_path: Path, shapes_db: Path) -> None:
    path = tmp_path / "errdex.db"
    path.write_bytes(shapes_db.read_bytes()[:100] + b"\xff" * 5000)
    with pytest.raises(StoreError):
        answers_for_exception(ValueError("x"), db=path)


def test_answering_loads_neither_pydantic_nor_sources_nor_rich(shapes: Path) -> None:
    """The hook's path (live, block, the store's reads, the index) stays light: it runs
    in a process that is failing and must print its block fast."""
    import subprocess
    import sys

    from tests.integrations.conftest import env_for

    code = (
        "import sys, errdex.integrations.live, errdex.integrations.block\n"
        "from errdex.match.index_file import cache_root\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('pydantic', 'rich', 'fastapi')"
        " or m.startswith(('errdex.source', 'errdex.record', 'errdex.scan', 'errdex.extract'))"
        " or m == 'errdex.match.paste')\n"
        "print(heavy, cache_root())\n"
        "from errdex.source.git import default_cache_dir\n"
        "assert cache_root() == default_cache_dir().parent\n"
    )
    env = env_for(shapes)
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"[] {shapes / 'xdg-cache' / 'errdex'}\n"


def test_without_building_the_index_an_unindexed_catalogue_says_so(
    tmp_path: Path, shapes: Path, shapes_db: Path
) -> None:
    from errdex.integrations.live import NoIndexYet, index_ready
    from errdex.store import SqliteStore

    fresh = tmp_path / "fresh.db"
    fresh.write_bytes(shapes_db.read_bytes())
    core = load_core(shapes)
    exc = caught(lambda: core.reshape(6, (4, 2)))
    with pytest.raises(NoIndexYet):
        answers_for_exception(exc, db=fresh, build_index=False)
    with SqliteStore(fresh) as store:
        assert not index_ready(store)
    (answer,) = answers_for_exception(exc, db=fresh)  # builds and saves it
    with SqliteStore(fresh) as store:
        assert index_ready(store)
    assert (
        answers_for_exception(exc, db=fresh, build_index=False)[0].candidates == answer.candidates
    )


@pytest.mark.parametrize(
    ("record_path", "installed"),
    [
        ("src/click/types.py", "/venv/lib/python3.11/site-packages/click/types.py"),
        ("Lib/json/decoder.py", "/usr/lib/python3.11/json/decoder.py"),
        ("tinyshapes/core.py", "/home/me/tinyshapes/core.py"),
    ],
)
def test_the_local_file_is_found_however_the_record_names_it(
    record_path: str, installed: str
) -> None:
    """The block's ``here`` line: the frame at the raise site's line in the installed file,
    whether the record names it as the repository lays it out (``src/``, ``Lib/``) or as
    it is imported."""
    from errdex.integrations.live import _local_path
    from errdex.match._paste_model import Frame

    frames = [Frame("/app/main.py", 3, "<module>", None), Frame(installed, 222, "fail", None)]
    error = PastedError(error_class="E", message="m", frames=frames)
    assert _local_path(record_path, 222, [error]) == installed
    assert _local_path(record_path, 221, [error]) is None  # another line: not this site
    assert _local_path("src/other/types.py", 222, [error]) is None
