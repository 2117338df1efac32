"""The answer model: what is normalised, what is refused, and the schema sent to servers."""

from __future__ import annotations

import json

import pytest

from errdex.analyze.llm.schema import (
    PROSE_FIELDS,
    AnswerInvalid,
    parse_answer,
    response_json_schema,
)
from errdex.record import BACKGROUND_TAGS

from .fake_server import valid_answer

PROMPT = "Statement: raise ValueError (builtins.ValueError)\n"


def test_valid_answer_parses_and_normalises() -> None:
    answer = valid_answer(PROMPT) | {
        "tags": ["Shape Mismatch", "shape_mismatch", "numpy"],
        "handlingStrategy": "Type Guard",
        "validationCode": "null",
        "typeGuard": "",
        "backgroundTag": "Invalid Value",
    }
    prose = parse_answer(json.dumps(answer))
    assert prose.tags == ["shape-mismatch", "numpy"]
    assert prose.handlingStrategy == "type-guard"
    assert prose.validationCode is None and prose.typeGuard is None
    assert prose.backgroundTag == "invalid-value"


def test_fenced_json_and_surrounding_prose_are_read() -> None:
    text = "Here you go:\n```json\n" + json.dumps(valid_answer(PROMPT)) + "\n```"
    assert parse_answer(text).documentation.startswith("ValueError")
    assert parse_answer("Sure! " + json.dumps(valid_answer(PROMPT)) + " Done.").solutions


def test_code_fences_inside_code_fields_are_removed() -> None:
    answer = valid_answer(PROMPT) | {"typeGuard": "```python\nisinstance(x, int)\n```"}
    assert parse_answer(answer).typeGuard == "isinstance(x, int)"


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"documentation": ""}, "documentation"),
        ({"solutions": []}, "solutions"),
        ({"solutions": ["fix it", "  "]}, "solutions"),
        ({"backgroundTag": "cosmic-rays"}, "backgroundTag"),
        ({"handlingStrategy": "pray"}, "handlingStrategy"),
    ],
)
def test_schema_violations_name_the_field(change: dict[str, object], expected: str) -> None:
    with pytest.raises(AnswerInvalid) as info:
        parse_answer(valid_answer(PROMPT) | change)
    assert any(error.startswith(expected) for error in info.value.errors), info.value.errors


def test_missing_required_field_and_bad_json_are_refused() -> None:
    answer = valid_answer(PROMPT)
    del answer["triggerScenarios"]
    with pytest.raises(AnswerInvalid, match="triggerScenarios"):
        parse_answer(answer)
    with pytest.raises(AnswerInvalid, match="not valid JSON"):
        parse_answer('{"documentation": "cut off')
    with pytest.raises(AnswerInvalid, match="JSON object"):
        parse_answer("[1, 2]")


def test_response_schema_requires_every_field_and_lists_the_enums() -> None:
    schema = response_json_schema()
    assert schema["required"] == list(PROSE_FIELDS)
    assert schema["additionalProperties"] is False
    assert set(schema["properties"]) == set(PROSE_FIELDS)
    assert schema["properties"]["backgroundTag"]["enum"] == [*BACKGROUND_TAGS, None]
    assert None in schema["properties"]["handlingStrategy"]["enum"]


def test_overlong_lists_are_cut_not_refused() -> None:
    answer = valid_answer(PROMPT) | {
        "solutions": [f"fix {n}" for n in range(12)],
        "tags": [f"tag {n}" for n in range(12)],
    }
    prose = parse_answer(answer)
    assert len(prose.solutions) == 8 and prose.tags[-1] == "tag-7"


def test_code_keeps_its_relative_indentation() -> None:
    answer = valid_answer(PROMPT) | {"validationCode": "    a = 1\n    if a:\n        b = 2\n"}
    assert parse_answer(answer).validationCode == "a = 1\nif a:\n    b = 2"
    text = valid_answer(PROMPT) | {"documentation": "  Means this.  "}
    assert parse_answer(text).documentation == "Means this."
