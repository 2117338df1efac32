"""``errdex analyze`` over a catalogue whose files hold a form feed, a vertical tab or a
``\\u2028``: the scan numbers lines as Python does (extract/source_lines.py), and the
analyst reads the windows the same way, so the file is not taken for one that changed
since the scan (a read-only review of session 42: every record of such a file was left
unanalysed as stale)."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.sites import SiteView
from errdex.store import SqliteStore

from .test_commands import flat, invoke

SOURCE = (
    "def first(x):\n"
    "    raise ValueError('marker one')\n"
    "\x0c\n"
    "# a comment with \x85 and \u2028 inside it\n"
    "def second(x):\n"
    "    raise KeyError('marker two')\n"
)


def test_a_form_feed_file_is_analysed_not_taken_for_changed(tmp_path: Path) -> None:
    root = tmp_path / "src" / "ffpkg"
    root.mkdir(parents=True)
    (root / "__init__.py").write_text("")
    (root / "m.py").write_text(SOURCE)
    db = tmp_path / "cat.db"
    result = invoke("scan", root.parent, "--repo", "o/ff", "--db", db, "--no-analyze")
    assert result.exit_code == 0, result.output
    result = invoke("analyze", "--db", db)
    assert result.exit_code == 0, result.output
    out = flat(result.output)
    assert "updated 2 of 2 records" in out, out
    assert "changed since the scan" not in out
    with SqliteStore(db) as store:
        envelopes = {e["record"]["lineNumber"]: e for e in store.iter_envelopes()}
    assert sorted(envelopes) == [2, 6]  # as ast numbers them
    for line, envelope in envelopes.items():
        assert envelope["evidence"]["analysis"] == "static"
        window = SiteView(
            0, envelope["record"], envelope["evidence"], "", "", "raise", None, None
        ).window()
        assert window is not None
        lines, at = window
        assert lines[at].lstrip().startswith("raise"), (line, lines[at])
