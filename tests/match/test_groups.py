"""A message raised verbatim at several sites: the answer is that group, named as such."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from click.testing import CliRunner

from errdex import cli
from errdex.match.api import answers
from errdex.web.models import MatchCandidate

from ..web.conftest import LiveServer
from .conftest import line_of

SITES = {
    line_of('raise NodeNotFound(f"Node {u}'),
    line_of('raise NodeNotFound(f"Node {v}'),
    line_of('raise NodeNotFound(f"Node {source}'),
}
PASTE = "tinygraph.graph.NodeNotFound: Node 7 is not in the graph."


def test_the_api_answers_with_the_whole_group_even_past_top(catalogue: Path) -> None:
    (answer,) = answers(PASTE, db=catalogue, top=1)
    assert {c.lineNumber for c in answer.group} == SITES  # top=1 does not cut a group
    assert all(c.groupSize == 3 and c.group == 0 for c in answer.group)
    shared = sum(c.confidence for c in answer.group)
    assert shared <= 1 + 1e-9
    assert max(c.confidence for c in answer.group) < 0.5  # no member is the answer alone
    group = answer.to_json()["group"]
    assert group["size"] == 3 and group["ids"] == [c.id for c in answer.group]
    assert abs(group["confidence"] - shared) < 1e-3


def test_a_frame_that_tells_them_apart_leaves_no_group(catalogue: Path) -> None:
    raise_line = line_of('raise NodeNotFound(f"Node {v}')
    tb = (
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.11/site-packages/tinygraph/graph.py", '
        f"line {raise_line}, in add_edge\n"
        '    raise NodeNotFound(f"Node {v} is not in the graph.")\n'
        f"{PASTE}\n"
    )
    (answer,) = answers(tb, db=catalogue)
    assert answer.group == []
    assert answer.candidates[0].lineNumber == raise_line
    assert answer.candidates[0].groupSize == 1 and answer.candidates[0].group is None
    assert answer.to_json()["group"] is None


def test_match_json_and_explain_name_the_group(catalogue: Path) -> None:
    runner = CliRunner()
    out = runner.invoke(cli.main, ["match", "--db", str(catalogue), "--json", "--top", "1", PASTE])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert {c["lineNumber"] for c in data} == SITES
    assert {(c["group"], c["groupSize"]) for c in data} == {(0, 3)}
    for candidate in data:  # the web API's model carries the same fields
        assert MatchCandidate.model_validate(candidate).groupSize == 3
    text = runner.invoke(cli.main, ["match", "--db", str(catalogue), PASTE])
    assert "One of 3 sites raising this message" in text.output
    explained = runner.invoke(cli.main, ["explain", "--db", str(catalogue), PASTE])
    assert explained.exit_code == 0, explained.output
    assert "One of 3 sites raising this message" in explained.output
    assert "The other sites of this group" in explained.output
    assert "Other candidates" not in explained.output


def test_the_web_api_and_page_name_the_group(catalogue: Path) -> None:
    with LiveServer(catalogue) as live, httpx.Client(base_url=live.url, timeout=30) as client:
        response = client.post("/api/match", json={"text": PASTE, "top": 1})
        assert response.status_code == 200, response.text
        data = response.json()
        assert {c["lineNumber"] for c in data} == SITES
        assert {(c["group"], c["groupSize"]) for c in data} == {(0, 3)}
        page = client.post("/match", data={"text": PASTE})
        assert page.status_code == 200
        assert "One of 3 sites raising this message" in page.text
