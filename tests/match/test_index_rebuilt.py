"""A catalogue removed and built again at the same path never answers from the old index."""

from __future__ import annotations

from pathlib import Path

from errdex.match import match
from errdex.match.api import index_path
from errdex.record import iso_now
from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.store import SqliteStore


def _catalogue(db: Path, root: Path, repo: str) -> None:
    checkout = open_source(str(root), repo=repo)
    result = scan_checkout(checkout, repo=repo, analyze=False)
    with SqliteStore(db) as store:
        store_scan(store, checkout, repo, result, iso_now())


def test_a_rebuilt_catalogue_is_answered_from_its_own_records(tmp_path: Path) -> None:
    for name in ("first", "second"):
        (tmp_path / name).mkdir()
        (tmp_path / name / f"{name}.py").write_text(
            "def run(x):\n    raise ValueError('the shared message of both packages')\n"
        )
    db = tmp_path / "errdex.db"
    _catalogue(db, tmp_path / "first", "o/first")
    paste = "ValueError: the shared message of both packages"
    assert match(paste, db=db)[0].filePath == "first.py"
    assert (index_path(db) / "meta.json").exists()  # saved beside it, and left there
    for leftover in tmp_path.glob("errdex.db*"):
        if leftover.is_file():
            leftover.unlink()
    _catalogue(db, tmp_path / "second", "o/second")
    (answer,) = match(paste, db=db)[:1]
    assert (answer.repo, answer.filePath) == ("o/second", "second.py")
