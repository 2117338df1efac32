"""Errors that report data from outside the program (a server's reply, a file's lines, a
directory's entries) take no caller's-mistake family, so their records keep the catch
advice: ``http.client``'s ``LineTooLong`` on ``len(line) > _MAXLINE`` was
``out-of-range`` with "errdex found no fix", ``ftplib``'s ``error_proto`` on ``left < 0``
(``left = resp.find('(')``) too, and ``mailbox.NotEmptyError`` ("Folder not empty") was
``empty-input`` (blind review 2026-12-06, record 05)."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import Item, one_file_items

WIRE = """
import os

_MAXLINE = 65536
_MAXCOUNT = 5


class HeaderError(Exception):
    pass


class error_proto(Exception):
    pass


class NotEmptyError(Exception):
    pass


def parse_headers(fp):
    line = fp.readline(_MAXLINE + 1)
    if len(line) > _MAXLINE:
        raise HeaderError("header line")
    return line


def parse229(resp):
    left = resp.find("(")
    if left < 0:
        raise error_proto(resp)
    return left


class Client:
    def challenge(self):
        self._count += 1
        if self._count > _MAXCOUNT:
            raise error_proto("too many challenges")

    def set_limit(self, n):
        if n < 0:
            raise error_proto("limit below zero")
        self._limit = n

    def remove_folder(self, path):
        "Delete the named folder, which must be empty."
        for entry in os.listdir(path):
            if len(entry) < 1 or entry[0] != ".":
                raise NotEmptyError("Folder contains message(s): %s" % path)

    def remove_other(self, name):
        raise NotEmptyError("Folder not empty: %s" % name)


def take(items, n):
    if len(items) < 1:
        raise ValueError("items must not be empty")
    if n > len(items):
        raise ValueError("n is too large")
    return items[:n]
"""


def _records(tmp_path: Path) -> dict[tuple[str, str], Item]:
    items = one_file_items(tmp_path, "wire.py", WIRE)
    return {(e["site"]["qualname"], r["errorMessage"] or ""): (r, e) for r, e in items}


def _get(records: dict[tuple[str, str], Item], qualname: str, message: str) -> dict[str, object]:
    found = [r for (q, m), (r, _) in records.items() if q == qualname and m.startswith(message)]
    assert found, (qualname, message)
    return found[0]


def test_a_line_read_from_a_file_is_no_out_of_range_argument(tmp_path: Path) -> None:
    record = _get(_records(tmp_path), "wire.parse_headers", "header line")
    assert record["backgroundTag"] is None
    solutions = record["solutions"]
    assert isinstance(solutions, list)
    assert str(solutions[0]).startswith("Catch `HeaderError`")


def test_a_value_derived_from_a_reply_is_no_out_of_range_argument(tmp_path: Path) -> None:
    assert _get(_records(tmp_path), "wire.parse229", "")["backgroundTag"] is None


def test_a_protocol_class_takes_no_family_from_a_bound_on_its_own_counter(
    tmp_path: Path,
) -> None:
    records = _records(tmp_path)
    assert _get(records, "wire.Client.challenge", "too many")["backgroundTag"] is None
    # the caller's own argument still is one
    assert _get(records, "wire.Client.set_limit", "limit below")["backgroundTag"] == "out-of-range"


def test_not_empty_is_no_empty_input(tmp_path: Path) -> None:
    records = _records(tmp_path)
    assert _get(records, "wire.Client.remove_folder", "Folder contains")["backgroundTag"] is None
    assert _get(records, "wire.Client.remove_other", "Folder not empty")["backgroundTag"] is None
    # "must not be empty" says the input was empty
    assert _get(records, "wire.take", "items must not")["backgroundTag"] == "empty-input"
    assert _get(records, "wire.take", "n is too large")["backgroundTag"] == "out-of-range"


def test_the_docstring_requirement_comes_before_the_catch(tmp_path: Path) -> None:
    # no caller's-mistake family, but the docstring says what prevents it
    record = _get(_records(tmp_path), "wire.Client.remove_folder", "Folder contains")
    solutions = [str(s) for s in record["solutions"]]  # type: ignore[attr-defined]
    assert solutions[0].startswith("The docstring of `Client.remove_folder()` states")
    assert solutions[1].startswith("Catch `NotEmptyError` around the call")
