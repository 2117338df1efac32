"""Entry points and prose the last blind review found missing or misleading, on CPython
3.11's own code (read by hand there): argparse's ``ArgumentError`` surfaces from
``parse_args`` as ``SystemExit``; ``re.compile`` reaches ``re._parser``'s errors (not only
``re.Scanner``); ``loop.sock_sendfile`` reaches the Unix loop's override; ``_pyio`` is not
the code ``io`` runs."""

from __future__ import annotations

from typing import Any

import pytest

from .stdlib_items import ON_311, Item, stdlib_items

pytestmark = ON_311


@pytest.fixture(scope="module")
def items() -> list[Item]:
    return stdlib_items("argparse.py", "re/*.py", "asyncio/*.py", "_pyio.py")


def _site(items: list[Item], qualname: str, message: str) -> Item:
    found = [
        (r, e)
        for r, e in items
        if e["site"]["qualname"] == qualname and r["errorMessage"].startswith(message)
    ]
    assert found, (qualname, message)
    return found[0]


def _handler(record: dict[str, Any], evidence: dict[str, Any]) -> str:
    """The handler shown, else the scaffold verify runs a reproducer in (its call reads
    names it does not bind, so it is not shown)."""
    if record["tryCatchPattern"] is not None:
        return str(record["tryCatchPattern"])
    return str(evidence["provenance"]["tryCatchPattern"]["scaffold"])


def test_argparse_invalid_choice_surfaces_from_parse_args_as_system_exit(
    items: list[Item],
) -> None:
    record, evidence = _site(
        items,
        "argparse.ArgumentParser._check_value",
        "[argument %(argument_name)s: ]invalid choice",
    )
    entries = {e["qualname"]: e for e in evidence["entryPoints"]}
    assert entries["argparse.ArgumentParser.parse_args"]["surfacesAs"] == "SystemExit"
    assert "see `SystemExit`, not `ArgumentError`" in record["solutions"][0]
    assert "except SystemExit as exc:" in _handler(record, evidence)


def test_re_compile_reaches_the_parsers_errors(items: list[Item]) -> None:
    _, evidence = _site(items, "re._parser._parse", "global flags not at the start")
    names = [e["qualname"] for e in evidence["entryPoints"]]
    # re.compile, re.match, re.sub … all reach it five calls away; among those equally
    # near, the ones these files call (argparse calls re.match and re.sub) are shown
    assert names == ["re.Scanner.__init__", "re.match", "re.sub"], names
    assert [e["depth"] for e in evidence["entryPoints"]] == [3, 5, 5]


def test_sock_sendfile_reaches_the_unix_loops_override(items: list[Item]) -> None:
    _, evidence = _site(
        items, "asyncio.unix_events._UnixSelectorEventLoop._sock_sendfile_native", "not a regular"
    )
    names = [e["qualname"] for e in evidence["entryPoints"]]
    assert "asyncio.base_events.BaseEventLoop.sock_sendfile" in names, names
    record, evidence = _site(
        items, "asyncio.unix_events._UnixSelectorEventLoop._sock_sendfile_native", "not a regular"
    )
    assert record["solutions"][0].startswith(
        "Pass `fallback=True` to `BaseEventLoop.sock_sendfile()`"
    )
    assert "fallback=False" in _handler(record, evidence)


def test_pyio_says_the_c_io_runs_instead(items: list[Item]) -> None:
    record, _ = _site(items, "_pyio.BufferedRWPair.__init__", '"writer" argument')
    assert "`import io` gives the C code" in record["documentation"]
    assert record["tryCatchPattern"] is None  # no public import path to call it through
