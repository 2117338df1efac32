"""A raise converting the error of a call made with what the caller passed names that
value, not the function's private conditions (``argparse``'s metavar check; paired
blind review, stop 36)."""

from __future__ import annotations

import argparse
import shutil
import sysconfig
from pathlib import Path

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

from .stdlib_items import one_file_items

CONTAINER = """\
class Container:
    def _get_formatter(self):
        return self

    def _format_args(self, action, default):
        return action["metavar"] % ()

    def add_argument(self, *args, **kwargs):
        action = dict(**kwargs)
        if hasattr(self, "_get_formatter"):
            try:
                self._get_formatter()._format_args(action, None)
            except TypeError:
                raise ValueError("length of metavar tuple does not match nargs")
        return action

    def lookup(self, table, key):
        try:
            return int(table, key)
        except ValueError:
            raise ValueError("unknown key")
"""


def test_the_call_failed_for_what_was_passed(tmp_path: Path) -> None:
    items = one_file_items(tmp_path, "container.py", CONTAINER)
    found = {r["lineNumber"]: r for r, _ in items}
    trigger = found[14]["triggerScenarios"]
    assert trigger.startswith(
        "Triggered when the keyword arguments passed (`**kwargs`, made into `action`) make"
        " the call at line 12 raise `TypeError`."
    ), trigger
    assert "_get_formatter" not in trigger + found[14]["documentation"]
    # a public call with no private condition is said as before, by the statement
    assert found[21]["triggerScenarios"].startswith(
        "Triggered after `int(table, key)` raised `ValueError`"
    ), found[21]["triggerScenarios"]


MESSAGE = """\
class Message:
    def __init__(self):
        self._payload = None
        self._date = 0.0

    def attach(self, payload):
        if self._payload is not None:
            try:
                self._payload.append(payload)
            except AttributeError:
                raise TypeError("Attach is not valid on a non-multipart payload")

    def set_date(self, date):
        try:
            self._date = float(date)
        except ValueError:
            raise TypeError("can't convert to float: %s" % date) from None
"""


def test_a_private_store_is_said_by_the_value_it_stores(tmp_path: Path) -> None:
    """``mailbox.MaildirMessage.set_date``: ``self._date = float(date)`` said as
    ``float(date)``; ``email.message.Message.attach``: an ``AttributeError`` of
    ``self._payload.append`` is the receiver's, not the passed ``payload``'s."""
    items = one_file_items(tmp_path, "message.py", MESSAGE)
    found = {r["lineNumber"]: r["triggerScenarios"] for r, _ in items}
    assert found[17].startswith(
        "Triggered when what was passed as `date` makes `float(date)` raise `ValueError`."
    ), found[17]
    assert "what was passed as `payload`" not in found[11], found[11]


def test_argparse_metavar_tuple(tmp_path: Path) -> None:
    parser = argparse.ArgumentParser()
    with pytest.raises(ValueError, match="length of metavar tuple does not match nargs"):
        parser.add_argument("--x", nargs=2, metavar=("A", "B", "C"))
    shutil.copy(Path(sysconfig.get_paths()["stdlib"]) / "argparse.py", tmp_path)
    result = scan_checkout(open_source(str(tmp_path), repo="o/a"), repo="o/a")
    (record,) = [
        r
        for r, _ in result.items
        if r["errorMessage"] == "length of metavar tuple does not match nargs"
    ]
    assert (
        "the keyword arguments passed (`**kwargs`, made into `action`)"
        in (record["triggerScenarios"])
    )
    assert "_get_formatter" not in record["triggerScenarios"] + record["documentation"]


REBOUND = """\
def _split(text):
    return text.partition(":")


class P:
    _default = "x"

    def parse(self, data):
        data = self._default
        head = _split(data)
        try:
            self._convert(head)
        except TypeError:
            raise ValueError("bad data")

    def _convert(self, v):
        return int(v)
"""


def test_a_parameter_rebound_before_is_not_what_was_passed(tmp_path: Path) -> None:
    """``data = self._default`` before ``head = _split(data)``: the call fails for the
    object's default, not for what was passed (re-reader, stop 38)."""
    items = one_file_items(tmp_path, "reb.py", REBOUND)
    (record,) = [r for r, _ in items if r["lineNumber"] == 14]
    assert "what was passed as `data`" not in record["triggerScenarios"]
