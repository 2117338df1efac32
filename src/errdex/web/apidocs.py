"""``/api/docs``: the API reference as a page of our own, drawn from ``/openapi.json``.

FastAPI's Swagger UI loads its script and stylesheet from a CDN: unpinned, unchecked,
unreachable offline, and a script no page of this site may run (every page sends
``script-src 'none'``). This page renders the same OpenAPI document on the server,
under the same policy as every other page; tools read ``/openapi.json`` itself.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Operation", "Param", "Schema", "reference"]

_METHODS = ("get", "post", "put", "patch", "delete")
_CONSTRAINTS = (
    ("minLength", "length ≥ {}"),
    ("maxLength", "length ≤ {}"),
    ("minimum", "≥ {}"),
    ("maximum", "≤ {}"),
    ("pattern", "matches {}"),
)


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    where: str
    type: str
    required: bool
    description: str
    default: str | None


@dataclass(slots=True)
class Operation:
    method: str
    path: str
    anchor: str
    summary: str
    description: str
    tags: list[str]
    params: list[Param] = field(default_factory=list)
    body: str | None = None
    example: str | None = None
    responses: list[tuple[str, str, str | None]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Schema:
    name: str
    description: str
    fields: list[Param]


def type_of(schema: dict[str, Any]) -> str:
    """A schema in a few words: ``SearchHitModel``, ``list of string``, ``integer, ≥ 1``."""
    if "$ref" in schema:
        return str(schema["$ref"]).rsplit("/", 1)[-1]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return " or ".join(type_of(s) for s in schema[key])
    kind = schema.get("type", "any")
    if kind == "array":
        text = f"list of {type_of(schema.get('items', {}))}"
    elif kind == "object" and isinstance(schema.get("additionalProperties"), dict):
        text = f"map to {type_of(schema['additionalProperties'])}"
    else:
        text = str(kind)
    limits = [form.format(schema[key]) for key, form in _CONSTRAINTS if key in schema]
    return ", ".join([text, *limits])


def _param(raw: dict[str, Any]) -> Param:
    schema = raw.get("schema", {})
    default = schema.get("default")
    return Param(
        name=str(raw["name"]),
        where=str(raw.get("in", "")),
        type=type_of(schema),
        required=bool(raw.get("required")),
        description=str(raw.get("description") or schema.get("description") or ""),
        default=None if default is None else json.dumps(default),
    )


def _example(site: str, method: str, path: str, body: dict[str, Any] | None) -> str:
    if body is None:
        return f"curl -s '{site}{path}'"
    data = json.dumps({"text": "ValueError: speed must be >= 0, got -5", "top": 3})
    return (
        f"curl -s -X {method.upper()} '{site}{path}' "
        f"-H 'content-type: application/json' -d '{data}'"
    )


def reference(openapi: dict[str, Any], site: str) -> tuple[list[Operation], list[Schema]]:
    """The operations in document order, and the schemas they name; ``site`` (scheme
    and host) starts the examples' URLs."""
    operations = []
    for path, item in openapi.get("paths", {}).items():
        for method in _METHODS:
            raw = item.get(method)
            if raw is None:
                continue
            content = (raw.get("requestBody") or {}).get("content", {})
            body = content.get("application/json", {}).get("schema")
            operations.append(
                Operation(
                    method=method.upper(),
                    path=path,
                    anchor=str(raw.get("operationId") or f"{method}-{path}"),
                    summary=str(raw.get("summary") or ""),
                    description=str(raw.get("description") or ""),
                    tags=[str(t) for t in raw.get("tags", [])],
                    params=[_param(p) for p in raw.get("parameters", [])],
                    body=type_of(body) if body else None,
                    example=_example(site, method, path, body),
                    responses=[
                        (str(code), str(r.get("description") or ""), _response_type(r))
                        for code, r in raw.get("responses", {}).items()
                    ],
                )
            )
    schemas = [
        Schema(
            name=name,
            description=str(schema.get("description") or ""),
            fields=[
                Param(
                    name=key,
                    where="",
                    type=type_of(prop),
                    required=key in schema.get("required", []),
                    description=str(prop.get("description") or ""),
                    default=None if "default" not in prop else json.dumps(prop["default"]),
                )
                for key, prop in schema.get("properties", {}).items()
            ],
        )
        for name, schema in sorted(openapi.get("components", {}).get("schemas", {}).items())
    ]
    return operations, schemas


def _response_type(response: dict[str, Any]) -> str | None:
    for media, content in (response.get("content") or {}).items():
        schema = content.get("schema")
        if schema:
            return f"{media}: {type_of(schema)}"
        return str(media)
    return None
