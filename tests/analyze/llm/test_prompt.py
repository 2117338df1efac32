"""The prompt carries the evidence, no positions, and hashes to the same key when code moves."""

from __future__ import annotations

import copy
from typing import Any

from errdex.analyze.llm.prompt import PROMPT_VERSION, RelatedError, build_prompt, repair_request
from errdex.store import SqliteStore

from .conftest import REPO


def envelope_at(store: SqliteStore, line: int) -> dict[str, Any]:
    return next(e for e in store.iter_envelopes(REPO) if e["record"]["lineNumber"] == line)


def test_prompt_shows_the_site_and_marks_the_statement(store: SqliteStore) -> None:
    prompt = build_prompt(envelope_at(store, 7))
    assert PROMPT_VERSION
    assert "Repository: acme/widgets" in prompt.user
    assert "Statement: raise ValueError" in prompt.user
    assert "speed must be >= 0, got {speed}" in prompt.user
    assert '>>         raise ValueError(f"speed must be >= 0, got {speed}")' in prompt.user
    assert "- if: speed < 0" in prompt.user
    assert prompt.language == "python"
    assert "Python" in prompt.system and "invalid-value" in prompt.system
    assert prompt.basis[:3] == ("sourceCode", "errorMessage", "site")


def test_a_yielded_exception_is_said_to_be_made_not_raised(store: SqliteStore) -> None:
    envelope = copy.deepcopy(envelope_at(store, 7))
    envelope["evidence"]["site"]["kind"] = "yield"
    text = build_prompt(envelope).user
    assert "Statement: yield ValueError" in text
    assert "made here and yielded by a generator, not raised at this line" in text
    assert "not raised at this line" not in build_prompt(envelope_at(store, 7)).user


def test_prompt_has_no_line_numbers_commit_or_url(store: SqliteStore) -> None:
    envelope = envelope_at(store, 55)
    text = build_prompt(envelope).user
    record = envelope["record"]
    assert record["analyzedSha"] not in text and "https://" not in text
    assert str(record["lineNumber"]) not in text


def test_moved_code_keeps_its_hash_changed_code_does_not(store: SqliteStore) -> None:
    envelope = envelope_at(store, 55)
    moved = copy.deepcopy(envelope)
    for key in ("lineNumber", "sourceCodeStart", "sourceCodeEnd"):
        moved["record"][key] += 10
    moved["evidence"]["site"]["endLine"] += 10
    for guard in moved["evidence"]["site"]["guards"]:
        guard["line"] += 10
    assert build_prompt(moved).content_hash == build_prompt(envelope).content_hash
    edited = copy.deepcopy(envelope)
    edited["record"]["sourceCode"] = edited["record"]["sourceCode"].replace("filler 3", "filler x")
    assert build_prompt(edited).content_hash != build_prompt(envelope).content_hash


def test_optional_evidence_joins_the_prompt_and_the_basis(store: SqliteStore) -> None:
    envelope = envelope_at(store, 7)
    for key in ("function", "raisesDoc", "classInfo", "tests", "observed", "entryPoints"):
        envelope["evidence"].pop(key, None)
    envelope["evidence"] |= {
        "function": {
            "qualname": "widgets.core.spin",
            "signature": "def spin(widget, speed)",
            "docstring": "Spin it.",
        },
        "tests": [
            {
                "name": "tests/test_core.py::test_negative",
                "kind": "pytest.raises",
                "match": "speed must",
                "snippet": "with pytest.raises(ValueError):\n    spin(w, -1)",
            }
        ],
        "observed": [{"message": "speed must be >= 0, got -1", "count": 3}],
        "entryPoints": [{"qualname": "widgets.run", "via": ["widgets.run", "widgets.core.spin"]}],
    }
    related = [RelatedError("TypeError", "widget must not be None", "widgets/core.py")]
    prompt = build_prompt(envelope, related)
    assert prompt.basis == (
        "sourceCode",
        "errorMessage",
        "site",
        "function",
        "tests",
        "observed",
        "entryPoints",
        "related",
    )
    for text in (
        "def spin(widget, speed)",
        "tests/test_core.py::test_negative (pytest.raises, match 'speed must')",
        '"speed must be >= 0, got -1" (seen 3 times)',
        "widgets.run (via widgets.run -> widgets.core.spin)",
        "TypeError: widget must not be None (widgets/core.py)",
    ):
        assert text in prompt.user
    assert prompt.content_hash != build_prompt(envelope_at(store, 7)).content_hash


def test_repair_request_lists_the_errors() -> None:
    text = repair_request(["documentation: Field required", "tags: bad"])
    assert "- documentation: Field required\n- tags: bad" in text
