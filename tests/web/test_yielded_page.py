"""A record of an exception a generator yields: its page introduces the line as where the
exception was made and yielded, not where it was thrown."""

from __future__ import annotations

from pathlib import Path

import httpx

from errdex.web.views import record_path

from ..analyze.test_yielded_prose import CODE  # the generator and its relay, ``raise error``
from .catalogue import ACME_SHA, scan_into, write_tree
from .conftest import LiveServer
from .dom import parse


def test_the_source_section_says_made_and_yielded(tmp_path: Path) -> None:
    db = tmp_path / "errdex.db"
    root = write_tree(tmp_path / "checks", {"checks.py": CODE})
    items = scan_into(db, root, "acme/checks", ACME_SHA)
    made = next(r for r, e in items if e["site"]["kind"] == "yield")
    thrown = next(r for r, e in items if e["site"]["kind"] == "raise")
    with LiveServer(db) as live, httpx.Client(base_url=live.url, timeout=30) as client:
        pages = {
            name: parse(client.get(record_path("acme/checks", r["id"], r["slug"])).text)
            for name, r in (("made", made), ("thrown", thrown))
        }
    source = pages["made"].find("section", id="source").words
    assert "Made and yielded at checks.py:7" in source, source
    assert "Thrown at" not in source
    assert "Thrown at checks.py:12" in pages["thrown"].find("section", id="source").words
