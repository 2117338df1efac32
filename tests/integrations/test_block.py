from __future__ import annotations

import html
import json
import sqlite3
from pathlib import Path

import pytest

from errdex.integrations.block import render_html, render_text
from errdex.integrations.live import answers_for_exception
from errdex.match.api import Answer
from errdex.match.rank import Candidate
from tests.integrations.conftest import SHA, line_of
from tests.integrations.test_live import caught, load_core


@pytest.fixture
def answers(shapes: Path, shapes_db: Path, monkeypatch: pytest.MonkeyPatch) -> list[Answer]:
    monkeypatch.delenv("ERRDEX_SITE_URL", raising=False)
    core = load_core(shapes)
    return answers_for_exception(caught(lambda: core.reshape(6, (4, 2))), db=shapes_db)


def test_text_block_has_site_link_condition_values_fix_and_pointer(
    answers: list[Answer], shapes: Path
) -> None:
    text = render_text(answers, color=False)
    line = line_of("raise ShapeError")
    assert f"ShapeError raised at src/tinyshapes/core.py:{line}" in text
    assert f"example/tinyshapes src/tinyshapes/core.py:{line}" in text
    assert str(shapes / "src" / "tinyshapes" / "core.py") in text
    assert f"https://github.com/example/tinyshapes/blob/{SHA}/src/tinyshapes/core.py#L" in text
    assert "when   if total != size" in text
    assert "{size} = 6" in text and "{shape} = (4, 2)" in text
    record = answers[0].envelope["record"]  # type: ignore[attr-defined]
    assert record["solutions"] and f"fix    {record['solutions'][0][:40]}" in text
    assert (
        "more   errdex explain" in text
        and "ShapeError: cannot reshape array of size 6 into shape (4, 2)'" in text
    )
    assert "\x1b" not in text


def test_colour_only_when_asked(answers: list[Answer]) -> None:
    coloured = render_text(answers, color=True)
    assert "\x1b[1m" in coloured
    assert coloured.replace("\x1b[1m", "").replace("\x1b[2m", "").replace("\x1b[36m", "").replace(
        "\x1b[0m", ""
    ) == render_text(answers, color=False)


def test_the_site_url_points_at_the_page(
    answers: list[Answer], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ERRDEX_SITE_URL", "https://errors.example.org/")
    best = answers[0].candidates[0]
    slug = answers[0].envelope["record"]["slug"]  # type: ignore[attr-defined]
    url = f"https://errors.example.org/repos/example/tinyshapes/errors/{best.id}/{slug}"
    assert f"more   {url}" in render_text(answers, color=False)
    assert f'<a href="{url}"' in render_html(answers)


def test_nothing_matched_is_empty(shapes_db: Path) -> None:
    nothing = answers_for_exception(caught(lambda: 1 / 0), db=shapes_db)
    assert nothing and not nothing[0].candidates
    assert render_text(nothing, color=True) == "" == render_html(nothing)
    assert render_text([], color=False) == ""


def test_html_has_the_same_facts_escaped(answers: list[Answer]) -> None:
    page = render_html(answers)
    assert page.startswith('<div class="errdex-block">')
    assert "if total != size" in page and "<code>(4, 2)</code>" in page
    assert f'<a href="https://github.com/example/tinyshapes/blob/{SHA}/' in page


def hostile(tmp_path: Path, shapes_db: Path) -> Path:
    """The catalogue with scanned text an attacker wrote: escapes, markup, a fake link."""
    db = tmp_path / "hostile.db"
    db.write_bytes(shapes_db.read_bytes())
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT id, record, evidence FROM records").fetchall()
    for record_id, record_json, evidence_json in rows:
        record, evidence = json.loads(record_json), json.loads(evidence_json)
        record["solutions"][0] = "\x1b]0;pwned\x07<script>x</script> " + record["solutions"][0]
        record["githubUrl"] = record["githubUrl"].replace("https:", "javascript:")
        for guard in evidence["site"]["guards"]:
            guard["text"] += "\x1b[2J<b>"
        conn.execute(
            "UPDATE records SET record = ?, evidence = ? WHERE id = ?",
            (json.dumps(record), json.dumps(evidence), record_id),
        )
    conn.commit()
    conn.close()
    return db


def test_scanned_text_is_cleaned_and_escaped(tmp_path: Path, shapes: Path, shapes_db: Path) -> None:
    core = load_core(shapes)
    answers = answers_for_exception(
        caught(lambda: core.reshape(6, (4, 2))), db=hostile(tmp_path, shapes_db)
    )
    text = render_text(answers, color=False)
    assert "\x1b" not in text and "\x07" not in text
    assert "\\x1b]0;pwned\\x07" in text and "\\x1b[2J" in text
    assert "javascript:" not in text  # not a link it will print
    page = render_html(answers)
    assert "<script>" not in page and "<b>" not in page and "javascript:" not in page
    assert html.escape("<script>x</script>") in page


def test_a_plain_answer_renders_from_its_candidate() -> None:
    candidate = Candidate(
        id="0" * 16,
        repo="o/n",
        filePath="pkg/m.py",
        lineNumber=3,
        errorClass="ValueError",
        errorMessage="bad {x}",
        confidence=0.5,
        holes={"x": "1\x1b[31m"},
        reasons=[],
    )
    text = render_text([Answer(0, "ValueError", "bad 1", "matched", [candidate])], color=False)
    assert "ValueError raised at pkg/m.py:3" in text and "{x} = 1\\x1b[31m" in text
    assert "more   errdex explain 'ValueError: bad 1'" in text
