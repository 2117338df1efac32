"""The page's and the API's account of a message the record cannot write as text: a raise
with no message (``str(e) == ''``) and a message that is one value errdex did not
resolve (blind review of stop 35: the class name read as the text, ``([\\s\\S]*?)`` as
a pattern that identifies the error)."""

from __future__ import annotations

from pathlib import Path

import httpx

from errdex.extract.template_notes import NO_MESSAGE, UNRESOLVED
from errdex.record import record_id, slugify
from errdex.web.views import api_path, record_path

from ..extract.python._fixture import raised
from .catalogue import ACME_SHA, scan_into, write_tree
from .conftest import LiveServer
from .dom import parse

CODE = """\
import os


def joined(x):
    return os.path.join(x, "y")


def check(x):
    if x is None:
        raise TypeError
    if isinstance(x, str):
        raise ValueError(joined(x))
    raise ValueError("x must be a string")
"""


def _run(x: object) -> BaseException:
    return raised(CODE, f"check({x!r})")


def test_no_message_and_unresolved_message(tmp_path: Path) -> None:
    assert str(_run(None)) == "" and type(_run(None)).__name__ == "TypeError"
    db = tmp_path / "errdex.db"
    root = write_tree(tmp_path / "checks", {"checks.py": CODE})
    items = scan_into(db, root, "acme/checks", ACME_SHA)
    bare = next(r for r, _ in items if r["lineNumber"] == 10)
    unresolved = next(r for r, _ in items if r["lineNumber"] == 12)
    worded = next(r for r, _ in items if r["lineNumber"] == 13)
    # the record: marked as no message, its id and slug still made from the class name
    assert bare["errorMessage"] == "TypeError (no message)"
    assert bare["messagePattern"] == "^$"
    assert bare["id"] == record_id("acme/checks", "TypeError", "checks.py")
    assert bare["slug"] == slugify("TypeError")
    with LiveServer(db) as live, httpx.Client(base_url=live.url, timeout=30) as client:
        envelopes = {
            r["lineNumber"]: client.get(api_path(r["id"])).json()
            for r in (bare, unresolved, worded)
        }
        pages = {
            r["lineNumber"]: parse(client.get(record_path("acme/checks", r["id"], r["slug"])).text)
            for r in (bare, unresolved, worded)
        }
    assert envelopes[10]["record"]["errorMessage"] == "TypeError (no message)"
    assert NO_MESSAGE in envelopes[10]["evidence"]["site"]["notes"]
    assert any(n.startswith(UNRESOLVED) for n in envelopes[12]["evidence"]["site"]["notes"])
    assert not any(n.startswith(UNRESOLVED) for n in envelopes[13]["evidence"]["site"]["notes"])
    message = {line: page.find("section", id="message").words for line, page in pages.items()}
    assert "raised with no message" in message[10] and "str(e) is empty" in message[10]
    assert not pages[10].find_all("pre", **{"class": "message"})
    assert pages[13].find_all("pre", **{"class": "message"})
    assert "did not resolve this message" in message[12]
    assert "did not resolve" not in message[13] and "no message" not in message[13]
    assert "x must be a string" in message[13]
