"""``Error: message`` pasted alone: the first line Node prints for JavaScript's base ``Error``
finds its throw site, while prose of that shape that fits nothing is still no error."""

from __future__ import annotations

import textwrap
from pathlib import Path

from errdex.match.api import NO_ERROR, answers
from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.store import SqliteStore

SHA = "0123456789abcdef0123456789abcdef01234567"

APPLICATION = textwrap.dedent(
    """\
    'use strict';

    exports.render = function render(name, view, done) {
      if (!view.path) {
        var dirs = 'directory "' + view.root + '"';
        var err = new Error('Failed to lookup view "' + name + '" in views ' + dirs);
        err.view = view;
        return done(err);
      }
      done(null, view.path);
    };
    """
)


def _catalogue(root: Path) -> Path:
    (root / "lib").mkdir(parents=True)
    (root / "lib" / "application.js").write_text(APPLICATION)
    checkout = open_source(str(root), repo="expressjs/express", sha=SHA)
    result = scan_checkout(checkout, repo="expressjs/express")
    db = root.parent / "errdex.db"
    with SqliteStore(db) as store:
        store_scan(store, checkout, "expressjs/express", result, "2026-12-06T00:00:00.000Z")
    return db


def test_a_base_error_line_alone_finds_its_throw_site(tmp_path: Path) -> None:
    db = _catalogue(tmp_path / "express")
    pasted = 'Error: Failed to lookup view "missing.html" in views directory "/srv/app/views"'
    (answer,) = answers(pasted, db)
    assert answer.candidates, answer.status
    best = answer.candidates[0]
    assert (best.filePath, best.errorClass) == ("lib/application.js", "Error")
    assert best.lineNumber in (6, 8)  # the throw, or the callback it is handed to
    # the template fits the message after the class (not 72% of the whole line, fuzzily)
    assert best.holes == {"name": "missing.html", "view.root": "/srv/app/views"}
    assert best.confidence >= 0.9 and answer.error_class == "Error"


def test_prose_of_the_same_shape_that_fits_nothing_is_still_no_error(tmp_path: Path) -> None:
    db = _catalogue(tmp_path / "express")
    (answer,) = answers("Error: could not connect to the build server", db)
    assert answer.status == NO_ERROR and not answer.candidates
