"""The prose fields a model writes, as a pydantic model, and the JSON Schema sent with it.

A model's answer is untrusted input: it is parsed here, normalised where the fix is
mechanical (tag spelling, ``"null"`` for null) and rejected with readable errors
otherwise, so the repair round can quote them back to the model.
"""

from __future__ import annotations

import json
import re
import textwrap
from typing import Any, get_args

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from errdex.record import BACKGROUND_TAGS, HandlingStrategy

__all__ = [
    "CODE_FIELDS",
    "PROSE_FIELDS",
    "AnswerInvalid",
    "LlmProse",
    "parse_answer",
    "response_json_schema",
]

#: The schema-2 fields the model writes, in record order.
PROSE_FIELDS: tuple[str, ...] = (
    "documentation",
    "triggerScenarios",
    "commonSituations",
    "solutions",
    "exampleFix",
    "handlingStrategy",
    "validationCode",
    "typeGuard",
    "tryCatchPattern",
    "preventionTips",
    "tags",
    "backgroundTag",
)
#: Fields holding code, which must parse in the repository's language.
CODE_FIELDS: tuple[str, ...] = ("exampleFix", "validationCode", "typeGuard", "tryCatchPattern")

_STRATEGIES: tuple[str, ...] = get_args(HandlingStrategy)
_NULL_WORDS = frozenset({"", "null", "none", "n/a", "na", "nil", "-"})
_NON_KEBAB = re.compile(r"[^a-z0-9]+")
_FENCE = re.compile(r"^```[\w+-]*\n(.*?)\n?```\s*$", re.DOTALL)
_MAX_TEXT = 4000
_MAX_CODE = 4000
_MAX_ITEMS = 8


def _kebab(text: str) -> str:
    return _NON_KEBAB.sub("-", text.strip().lower()).strip("-")


class LlmProse(BaseModel):
    """The answer: schema 2's prose fields, each checked the way schema 2 checks it."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    documentation: str = Field(min_length=1, max_length=_MAX_TEXT)
    triggerScenarios: str = Field(min_length=1, max_length=_MAX_TEXT)
    commonSituations: str = Field(min_length=1, max_length=_MAX_TEXT)
    solutions: list[str] = Field(min_length=1, max_length=_MAX_ITEMS)
    exampleFix: str | None = Field(default=None, max_length=_MAX_CODE)
    handlingStrategy: HandlingStrategy | None = None
    validationCode: str | None = Field(default=None, max_length=_MAX_CODE)
    typeGuard: str | None = Field(default=None, max_length=_MAX_CODE)
    tryCatchPattern: str | None = Field(default=None, max_length=_MAX_CODE)
    preventionTips: list[str] = Field(default_factory=list, max_length=_MAX_ITEMS)
    tags: list[str] = Field(default_factory=list, max_length=_MAX_ITEMS)
    backgroundTag: str | None = None

    @field_validator("documentation", "triggerScenarios", "commonSituations", mode="before")
    @classmethod
    def _strip(cls, value: Any) -> Any:
        return value.strip() if isinstance(value, str) else value

    @field_validator("exampleFix", "validationCode", "typeGuard", "tryCatchPattern", mode="before")
    @classmethod
    def _code(cls, value: Any) -> Any:
        """Code loses fences and common indentation, never relative indentation; models
        write ``"null"`` or ``""`` for "no code", which schema 2 wants as null."""
        if isinstance(value, str):
            value = textwrap.dedent(_strip_fence(value)).strip("\n").rstrip()
            if value.strip().lower() in _NULL_WORDS:
                return None
        return value

    @field_validator("solutions", "preventionTips", mode="before")
    @classmethod
    def _at_most(cls, value: Any) -> Any:
        """A ninth tip is not worth a repair round: keep the first eight."""
        return value[:_MAX_ITEMS] if isinstance(value, list) else value

    @field_validator("solutions", "preventionTips", mode="after")
    @classmethod
    def _non_empty_items(cls, value: list[str]) -> list[str]:
        items = [item.strip() for item in value]
        if any(not item for item in items):
            raise ValueError("every item must be a non-empty string")
        return items

    @field_validator("tags", mode="before")
    @classmethod
    def _kebab_tags(cls, value: Any) -> Any:
        """Tags are kebab-case in schema 2; ``"Shape Mismatch"`` is fixed, not refused."""
        if not isinstance(value, list):
            return value
        tags: list[Any] = []
        for item in value:  # non-strings are left for validation to refuse
            tag = _kebab(item) if isinstance(item, str) else item
            if tag and tag not in tags:
                tags.append(tag)
        return tags[:_MAX_ITEMS]

    @field_validator("handlingStrategy", "backgroundTag", mode="before")
    @classmethod
    def _kebab_enum(cls, value: Any) -> Any:
        if isinstance(value, str):
            return None if value.strip().lower() in _NULL_WORDS else _kebab(value)
        return value

    @field_validator("backgroundTag", mode="after")
    @classmethod
    def _declared_tag(cls, value: str | None) -> str | None:
        """``backgroundTag`` comes from a declared list, never free text."""
        if value is not None and value not in BACKGROUND_TAGS:
            raise ValueError(f"must be null or one of: {', '.join(BACKGROUND_TAGS)}")
        return value


class AnswerInvalid(ValueError):
    """The answer is not usable; ``errors`` are short lines to show the model."""

    def __init__(self, errors: list[str]) -> None:
        super().__init__("; ".join(errors))
        self.errors = errors


def _strip_fence(text: str) -> str:
    match = _FENCE.match(text.strip())
    return match.group(1) if match else text


def _json_object(raw: str) -> Any:
    """The JSON object in a reply, allowing a code fence or prose around it."""
    text = _strip_fence(raw.strip())
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        start, end = text.find("{"), text.rfind("}")
        if 0 <= start < end:
            try:
                return json.loads(text[start : end + 1])
            except json.JSONDecodeError:
                pass
        raise AnswerInvalid([f"the reply is not valid JSON: {exc.msg} at char {exc.pos}"]) from None


def parse_answer(raw: str | dict[str, Any]) -> LlmProse:
    """Validate a reply (JSON text or an already-decoded tool input) into :class:`LlmProse`."""
    data = _json_object(raw) if isinstance(raw, str) else raw
    if not isinstance(data, dict):
        raise AnswerInvalid([f"the reply must be a JSON object, not {type(data).__name__}"])
    try:
        return LlmProse.model_validate(data)
    except ValidationError as exc:
        errors = []
        for error in exc.errors(include_url=False):
            where = ".".join(str(part) for part in error["loc"]) or "(answer)"
            errors.append(f"{where}: {error['msg']}")
        raise AnswerInvalid(errors) from None


_DESCRIPTIONS: dict[str, str] = {
    "documentation": "What the error means, in 1-3 sentences.",
    "triggerScenarios": "The condition that fires it, in words, and the calls that lead there.",
    "commonSituations": "How people usually get there.",
    "solutions": "1-5 concrete fixes, most likely first.",
    "exampleFix": "'// before' then the failing code, '// after' then the fixed code; or null.",
    "handlingStrategy": "How a caller best handles it; null if none fits.",
    "validationCode": "Code that checks the inputs before the call; or null.",
    "typeGuard": "A type check that prevents the error; or null.",
    "tryCatchPattern": "Code that catches this error class and handles it; or null.",
    "preventionTips": "0-5 habits that avoid the error.",
    "tags": "2-6 kebab-case topic tags.",
    "backgroundTag": "The cross-library cause family; null if none fits.",
}


def response_json_schema() -> dict[str, Any]:
    """The JSON Schema for structured output: every key required, nullable where optional.

    Written by hand rather than exported from :class:`LlmProse` so that it stays within
    what OpenAI's strict mode, vLLM, llama.cpp and Anthropic tool input all accept.
    """
    text = {"type": "string"}
    code = {"type": ["string", "null"]}
    strings = {"type": "array", "items": {"type": "string"}}
    shapes: dict[str, dict[str, Any]] = {
        "documentation": text,
        "triggerScenarios": text,
        "commonSituations": text,
        "solutions": strings,
        "exampleFix": code,
        "handlingStrategy": {"type": ["string", "null"], "enum": [*_STRATEGIES, None]},
        "validationCode": code,
        "typeGuard": code,
        "tryCatchPattern": code,
        "preventionTips": strings,
        "tags": strings,
        "backgroundTag": {"type": ["string", "null"], "enum": [*BACKGROUND_TAGS, None]},
    }
    properties = {
        name: {**shapes[name], "description": _DESCRIPTIONS[name]} for name in PROSE_FIELDS
    }
    return {
        "type": "object",
        "properties": properties,
        "required": list(PROSE_FIELDS),
        "additionalProperties": False,
    }
