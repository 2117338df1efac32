"""``errdex verify --db postgresql://…`` as well as a file: the reproducers are stored
through the same Store interface on either backend."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from errdex.cli import main
from errdex.store import open_store
from tests.store.conftest import db  # noqa: F401  # the two-backend fixture

from .conftest import REPO, write_box


def test_verify_stores_reproducers_on_either_backend(tmp_path: Path, db: str) -> None:  # noqa: F811
    root = write_box(tmp_path)
    runner = CliRunner()
    scanned = runner.invoke(main, ["scan", str(root), "--repo", REPO, "--db", db, "--no-progress"])
    assert scanned.exit_code == 0, scanned.output
    result = runner.invoke(
        main,
        [
            *("verify", REPO, "--db", db, "--path", str(root)),
            *("--tests", str(root / "tests"), "--no-progress", "--no-cache"),
        ],
    )
    assert result.exit_code == 0, result.output
    with open_store(db) as store:
        raised = {
            e["record"]["lineNumber"]: e["evidence"]["reproducer"]["raised"]
            for e in store.iter_envelopes(REPO)
            if "reproducer" in e["evidence"]
        }
    assert raised[10] == "ValueError: x must be non-negative, got -1"
    assert raised[18] == "BoxError: cannot hold 9 items"


def test_verify_of_an_unreachable_server_is_a_clear_error() -> None:
    result = CliRunner().invoke(
        main, ["verify", "--all", "--db", "postgresql://nobody@127.0.0.1:1/none"]
    )
    assert result.exit_code == 2
    assert "cannot connect" in " ".join(result.output.split())
