"""The handling strategy: checked before the call where the condition reads only what the
caller passed, caught where it reads what the call met (CPython 3.11's sources, read by
hand)."""

from __future__ import annotations

import pytest

from .installed import installed_items
from .stdlib_items import ON_311, Item, stdlib_items

pytestmark = ON_311


@pytest.fixture(scope="module")
def items() -> list[Item]:
    return stdlib_items("xml/dom/minidom.py", "wave.py", "ftplib.py", "queue.py")


def _strategy(items: list[Item], path: str, line: int) -> str | None:
    (record,) = [r for r, _ in items if r["filePath"] == path and r["lineNumber"] == line]
    return record["handlingStrategy"]


def test_an_argument_out_of_the_objects_bounds_is_checked_first(items: list[Item]) -> None:
    """``Text.splitText(offset)`` raises ``IndexSizeErr`` when ``offset < 0 or offset >
    len(self.data)`` (minidom.py:1100-1101); ``Wave_read.setpos(pos)`` raises ``Error``
    when ``pos < 0 or pos > self._nframes`` (wave.py:348-349)."""
    assert _strategy(items, "Lib/xml/dom/minidom.py", 1101) == "validation"
    assert _strategy(items, "Lib/wave.py", 349) == "validation"


def test_what_the_call_met_is_still_caught(items: list[Item]) -> None:
    """``ftplib.parse229(resp, peer)`` tests ``left = resp.find('(')``, read from the
    server's reply (ftplib.py:859-860); ``Queue.put`` tests ``self._qsize() >=
    self.maxsize``, which other threads change (queue.py:136-137)."""
    assert _strategy(items, "Lib/ftplib.py", 860) == "try-catch"
    assert _strategy(items, "Lib/queue.py", 137) == "try-catch"


def test_what_an_argument_holds_from_outside_is_still_caught() -> None:
    """``requests``' ``resolve_redirects(resp, …)`` raises ``TooManyRedirects`` when
    ``len(resp.history) >= self.max_redirects``: the history is the server's redirects,
    not a value the caller wrote."""
    items = installed_items("requests", "psf/requests")
    (record,) = [r for r, _ in items if r["errorClass"] == "TooManyRedirects"]
    assert record["handlingStrategy"] == "try-catch"
