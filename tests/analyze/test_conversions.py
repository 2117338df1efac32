"""Where a handler turns a site's error into another before a caller sees it, the record
says so from its evidence: in the raising function itself, or in the handler around every
call of a private function (issue 10: errors converted before the user sees them)."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

CODE = textwrap.dedent(
    """\
    class InvalidFileException(ValueError):
        def __init__(self, message="Invalid file"):
            ValueError.__init__(self, message)


    class Parser:
        def parse(self, fp):
            try:
                return self._read_object(fp)
            except (OSError, IndexError,
                    ValueError):
                raise InvalidFileException()

        def _read_object(self, data):
            if len(data) != 4:
                raise InvalidFileException()
            return data


    def urlencode(query):
        try:
            if len(query) and not isinstance(query[0], tuple):
                raise TypeError
        except TypeError as err:
            raise TypeError("not a valid non-string sequence or mapping object") from err
        return query


    def _offset(text):
        if not text.isdigit():
            raise ValueError(f"Offset must be digits: {text}")
        return int(text)


    def parse_tz(std, dst):
        try:
            a = _offset(std)
        except ValueError as e:
            raise ValueError(f"Invalid STD offset in {std}") from e
        try:
            b = _offset(dst)
        except ValueError as e:
            raise ValueError(f"Invalid DST offset in {dst}") from e
        return a, b


    def _maybe(text):
        if not text:
            raise KeyError("empty")
        return text


    def lookup(text, quiet):
        try:
            return _maybe(text)
        except KeyError:
            if quiet:
                return None
            raise LookupError("nothing to look up")
    """
)


@pytest.fixture(scope="module")
def items(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[dict[str, Any], Any]]:
    root: Path = tmp_path_factory.mktemp("conv")
    (root / "conv.py").write_text(CODE)
    result = scan_checkout(open_source(str(root), repo="o/conv"), repo="o/conv")
    return {f"{r['errorMessage']}@{r['lineNumber']}": (r, e) for r, e in result.items}


def test_the_handler_of_the_raising_function_is_said(items: dict[str, Any]) -> None:
    record, evidence = items["TypeError (no message)@23"]
    assert evidence["conversion"]["where"] == "here"
    assert evidence["conversion"]["link"] == "cause"
    assert (
        "`urlencode` catches it at line 24 and raises `TypeError('not a valid non-string"
        " sequence or mapping object')` from it instead (line 25): a traceback shows this"
        " one only as the cause of that one"
    ) in record["documentation"]
    # the advice is about what the caller gets: the converted one
    (entry,) = evidence["entryPoints"]
    assert (entry["surfacesAs"], entry["convertedLine"]) == ("TypeError", 24)


def test_a_private_function_s_only_caller_converting_is_said_and_no_other(
    items: dict[str, Any],
) -> None:
    record, evidence = items["Invalid file@16"]
    conversion = evidence["conversion"]
    assert {k: conversion[k] for k in ("function", "line", "handlerLine", "link", "where")} == {
        "function": "conv.Parser.parse",
        "line": 12,
        "handlerLine": 10,
        "link": "context",
        "where": "caller",
    }
    assert (
        "Its only caller errdex resolved (it is private), `Parser.parse`, catches it at line"
        " 10 and raises `InvalidFileException('Invalid file')` instead while handling it"
        " (line 12): a traceback shows this one only as the context of that one"
    ) in record["documentation"]
    # and nothing where it is not certain:
    # two calls, two handlers: which message the caller gets depends on the call
    record, evidence = items["Offset must be digits: {text}@31"]
    assert "conversion" not in evidence
    assert "catches it at line" not in record["documentation"]
    # the handler may return None instead of raising
    record, evidence = items["'empty'@49"]
    assert "conversion" not in evidence
    assert "catches it at line" not in record["documentation"]


def test_a_conversion_further_up_through_private_callers_is_said(tmp_path: Path) -> None:
    """``_check`` lets it out unchanged to ``_read``, also private, whose only caller
    ``load`` converts it: the record names the way up and the conversion."""
    (tmp_path / "up.py").write_text(
        textwrap.dedent(
            """\
            def _check(n):
                if n < 0:
                    raise KeyError(n)
                return n


            def _read(n):
                return _check(n) + 1


            def load(n):
                try:
                    return _read(n)
                except KeyError as exc:
                    raise ValueError(f"bad {n}") from exc
            """
        )
    )
    result = scan_checkout(open_source(str(tmp_path), repo="o/up"), repo="o/up")
    ((record, evidence),) = [(r, e) for r, e in result.items if r["lineNumber"] == 3]
    assert evidence["conversion"]["via"] == ["up._read"]
    assert evidence["conversion"]["link"] == "cause"
    assert (
        "It is private, and every call of it errdex resolved goes through `_read` up to"
        " `load`, which catches it at line 14 and raises `ValueError('bad {n}')` from it"
        " instead (line 15)"
    ) in record["documentation"]


def test_the_advice_is_about_the_class_the_caller_gets(tmp_path: Path) -> None:
    """``distutils``' ``install_lib.finalize_options``: ``raise AssertionError`` caught
    by its own ``except`` and raised as ``DistutilsOptionError``; a caller of the function
    gets that one, and the advice catches that one."""
    (tmp_path / "opts.py").write_text(
        textwrap.dedent(
            """\
            class OptionError(Exception):
                pass


            def finalize(optimize):
                try:
                    optimize = int(optimize)
                    if optimize not in (0, 1, 2):
                        raise AssertionError
                except (ValueError, AssertionError):
                    raise OptionError("optimize must be 0, 1, or 2")
                return optimize


            def ensure(optimize):
                return finalize(optimize)
            """
        )
    )
    result = scan_checkout(open_source(str(tmp_path), repo="o/opts"), repo="o/opts")
    ((record, evidence),) = [(r, e) for r, e in result.items if r["lineNumber"] == 9]
    assert evidence["conversion"]["class"] == "OptionError"
    assert {e["qualname"]: e.get("surfacesAs") for e in evidence["entryPoints"]} == {
        "opts.finalize": "OptionError",
        "opts.ensure": "OptionError",
    }
    assert "see `OptionError`, not `AssertionError`" in " ".join(record["solutions"])
