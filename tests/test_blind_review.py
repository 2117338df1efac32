"""The paired draw of bench/blind_review.py: the same records judged in the baseline's
catalogue and the new one, blinded, and scored per side."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from blind_review import by_side, paired


def _envelope(n: int, words: str, ran_at: str = "2026-12-06T00:00:00Z") -> dict[str, Any]:
    record = {
        "id": f"id{n}",
        "repo": "python/cpython",
        "filePath": f"Lib/m{n}.py",
        "lineNumber": n,
        "errorClass": "ValueError",
        "documentation": words,
        "analyzedAt": ran_at,
    }
    return {"record": record, "evidence": {"verification": {"ranAt": ran_at}}}


def _write(path: Path, rows: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_a_changed_record_is_drawn_blinded_and_an_unchanged_one_once(tmp_path: Path) -> None:
    base = _write(tmp_path / "base.jsonl", [_envelope(1, "old"), _envelope(2, "same")])
    new_rows = [_envelope(1, "new", "2026-12-07T00:00:00Z"), _envelope(2, "same", "2026-12-07")]
    new = _write(tmp_path / "new.jsonl", new_rows)
    out = tmp_path / "draw"
    assert paired(base, new, out, n=2, seed=1) == {"differ": 1, "same": 1}
    key = json.loads((out / "key.json").read_text())
    changed = next(n for n, sides in key.items() if sides != {"": "both"})
    unchanged = next(n for n in key if n != changed)
    assert not (out / f"{unchanged}-a.json").exists()
    assert json.loads((out / f"{unchanged}.json").read_text())["record"]["documentation"] == "same"
    assert sorted(key[changed].values()) == ["base", "new"]
    for letter, side in key[changed].items():
        shown = json.loads((out / f"{changed}-{letter}.json").read_text())
        assert shown["record"]["documentation"] == ("new" if side == "new" else "old")
        assert "analyzedAt" not in shown["record"]  # nothing tells the sides apart but words


def test_each_side_is_scored_over_the_same_draw() -> None:
    key = {"00": {"": "both"}, "01": {"a": "new", "b": "base"}}

    def result(n: str, verdict: str, useful: int) -> dict[str, Any]:
        statement = {"field": "documentation", "text": "t", "verdict": verdict, "why": "w"}
        return {"n": n, "statements": [statement], "usefulness": useful, "vs_seed": "worse"}

    results = [result("00", "true", 3), result("01-a", "true", 5), result("01-b", "false", 1)]
    scores = by_side(results, key)
    assert scores["new"]["falsePer100"] == 0.0 and scores["new"]["usefulness"] == 4.0
    assert scores["base"]["falsePer100"] == 50.0 and scores["base"]["usefulness"] == 2.0
