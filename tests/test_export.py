"""``errdex export --schema2-strict``: only records a strict schema-2 consumer accepts."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from errdex.export import StrictFilter, strict_problem
from tests.test_cli import REPO, SHA, export, flat, make_package, ok

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def strict_validator() -> jsonschema.Draft202012Validator:
    """schema/record-v2.json as the published schema 2 reads it: a commit and a permalink always."""
    schema = json.loads((ROOT / "schema" / "record-v2.json").read_text(encoding="utf-8"))
    for key, pattern in (("analyzedSha", "^[0-9a-f]{40}$"), ("githubUrl", "^https?://")):
        schema["properties"][key] = {"type": "string", "pattern": pattern}
    return jsonschema.Draft202012Validator(schema)


@pytest.fixture
def mixed_db(tmp_path: Path) -> Path:
    """One repository scanned at a commit, one read from plain files (no commit, no link)."""
    db = tmp_path / "mixed.db"
    ok("scan", make_package(tmp_path / "pinned"), "--repo", REPO, "--sha", SHA, "--db", db)
    ok("scan", make_package(tmp_path / "loose"), "--repo", "other/loose", "--db", db)
    return db


def test_strict_export_leaves_out_records_without_a_commit(
    mixed_db: Path, tmp_path: Path, strict_validator: jsonschema.Draft202012Validator
) -> None:
    everything = export(mixed_db)
    loose = [e for e in everything if e["record"]["repo"] == "other/loose"]
    assert loose and all(e["record"]["analyzedSha"] is None for e in loose)
    # the lax export is not valid strict schema 2: that is what the flag is for
    assert any(list(strict_validator.iter_errors(e["record"])) for e in everything)

    out = tmp_path / "strict.jsonl"
    result = ok("export", "--db", mixed_db, "--jsonl", out, "--schema2-strict")
    kept = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert kept and len(kept) == len(everything) - len(loose)
    assert {e["record"]["repo"] for e in kept} == {REPO}
    for envelope in kept:
        errors = [e.message for e in strict_validator.iter_errors(envelope["record"])]
        assert errors == [], (envelope["record"]["id"], errors)
    message = flat(result.stderr)
    assert f"wrote {len(kept)} records to {out}" in message
    assert f"left out {len(loose)} record(s) that strict schema 2 rejects" in message
    reason = "analyzedSha is not a commit (no commit: the files are not in a git work tree)"
    assert f"{len(loose)} × other/loose: {reason}" in message


def test_strict_export_to_stdout_still_reports_what_it_left_out(mixed_db: Path) -> None:
    result = ok("export", "--db", mixed_db, "--jsonl", "-", "--schema2-strict")
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert lines and all(e["record"]["analyzedSha"] == SHA for e in lines)
    assert "left out" in flat(result.stderr)


def test_lax_export_is_unchanged(mixed_db: Path) -> None:
    result = ok("export", "--db", mixed_db, "--jsonl", "-")
    assert "left out" not in result.stderr
    repos = {json.loads(line)["record"]["repo"] for line in result.stdout.splitlines()}
    assert repos == {REPO, "other/loose"}


def _pinned(db: Path) -> dict[str, Any]:
    return next(e for e in export(db) if e["record"]["repo"] == REPO)


def test_each_kind_of_problem_is_named(mixed_db: Path) -> None:
    good = _pinned(mixed_db)
    assert strict_problem(good) is None

    no_link = copy.deepcopy(good)
    no_link["record"]["githubUrl"] = None
    assert strict_problem(no_link) == "githubUrl is null (no permalink could be built)"

    short = copy.deepcopy(good)
    short["record"]["analyzedSha"] = SHA[:12]
    short["evidence"]["source"]["commitNote"] = "pinned to a tag: its commit is not known"
    assert strict_problem(short) == (
        "analyzedSha is not a commit (pinned to a tag: its commit is not known)"
    )

    extra = copy.deepcopy(good)
    extra["record"]["confidence"] = 1
    problem = strict_problem(extra)
    assert problem is not None and problem.startswith("fails schema 2 at confidence")

    bad_slug = copy.deepcopy(good)
    bad_slug["record"]["slug"] = "Not A Slug"
    problem = strict_problem(bad_slug)
    assert problem is not None and problem.startswith("fails schema 2 at slug")

    assert strict_problem({"evidence": {}}) == "no record object"


def test_filter_counts_by_reason(mixed_db: Path) -> None:
    good = _pinned(mixed_db)
    no_link = copy.deepcopy(good)
    no_link["record"]["githubUrl"] = None
    keep = StrictFilter()
    passed = list(keep([good, no_link, no_link, {"evidence": {}}]))
    assert passed == [good]
    assert keep.total == 3
    assert keep.summary() == [
        "left out 3 record(s) that strict schema 2 rejects:",
        f"  2 × {REPO}: githubUrl is null (no permalink could be built)",
        "  1 × no record object",
    ]
    assert StrictFilter().summary() == []
