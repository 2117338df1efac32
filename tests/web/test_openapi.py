"""Schemathesis against ``/openapi.json`` on the live server: no 5xx, every answer as documented.

One test per operation (so one failing operation does not hide the others), each
drawing requests from the schema with Hypothesis.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from .conftest import LiveServer

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]
OPERATIONS = [
    "GET /api/errors/{record_id}",
    "GET /api/search",
    "GET /api/query",
    "POST /api/query",
    "POST /api/match",
    "GET /api/repos",
    "GET /api/repos/{owner}/{name}",
    "GET /datasets/{owner}/{name}.jsonl",
]


@pytest.fixture(scope="module")
def api_schema(server: LiveServer) -> schemathesis.BaseSchema:
    return schemathesis.openapi.from_url(f"{server.url}/openapi.json")


def test_every_operation_is_exercised(api_schema: schemathesis.BaseSchema) -> None:
    labels = [result.ok().label for result in api_schema.get_all_operations()]
    assert sorted(labels) == sorted(OPERATIONS)


@pytest.mark.parametrize("label", OPERATIONS)
def test_operation_answers_as_documented(api_schema: schemathesis.BaseSchema, label: str) -> None:
    operation = api_schema.find_operation_by_label(label)
    assert operation is not None

    @given(data=st.data())
    @settings(
        max_examples=60,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    def run(data: st.DataObject) -> None:
        case = data.draw(operation.as_strategy())
        case.call_and_validate(checks=CHECKS)

    run()
