"""``POST /api/match`` and the match page against the matcher's contract (``errdex.match``).

The API must give exactly what ``errdex.match.match`` gives (the answer of
``errdex match --json``), and the page must show the same candidates, ranked, with the
hole values and the reasons.
"""

from __future__ import annotations

import httpx

from errdex.web.views import record_path

from .conftest import Site
from .dom import parse
from .test_browser import real_traceback

CANDIDATE_KEYS = [
    "id",
    "repo",
    "filePath",
    "lineNumber",
    "errorClass",
    "errorMessage",
    "confidence",
    "holes",
    "reasons",
    "error",
    "pasted",
    "group",
    "groupSize",
    "ruledOut",
    "groupReason",
]


def test_api_match_answers_as_the_matcher_does(client: httpx.Client, site: Site) -> None:
    from errdex.match import match as match_paste

    text = real_traceback(site)
    response = client.post("/api/match", json={"text": text, "top": 3})
    assert response.status_code == 200
    candidates = response.json()
    assert candidates == [c.to_json() for c in match_paste(text, site.db, top=3)]
    best = candidates[0]
    record = site.record(site.acme, "widgets/core.py", 13)
    assert list(best) == CANDIDATE_KEYS
    assert (best["id"], best["lineNumber"], best["errorClass"]) == (record["id"], 13, "ValueError")
    assert best["holes"] == {"speed": "-5"}
    assert best["reasons"] and 0 < best["confidence"] <= 1
    assert len(candidates) <= 3


def test_api_match_of_nothing_known(client: httpx.Client) -> None:
    response = client.post("/api/match", json={"text": "ZyzzyvaError: nothing like this exists"})
    assert response.status_code == 200 and response.json() == []


def test_match_page_shows_ranked_candidates(client: httpx.Client, site: Site) -> None:
    text = real_traceback(site)
    response = client.post("/match", data={"text": text})
    assert response.status_code == 200
    doc = parse(response.text)
    assert doc.find("textarea").text.strip() == text.strip()  # the paste stays, to edit
    items = doc.find("ol", class_="candidates").find_all("li")
    record = site.record(site.acme, "widgets/core.py", 13)
    first = items[0]
    link = first.find("a", class_="msg")
    assert link.attrs["href"] == record_path("acme/widgets", str(record["id"]), str(record["slug"]))
    assert link.text == "speed must be >= 0, got {speed}"
    assert "widgets/core.py:13" in first.words and "confidence" in first.words
    assert [dt.words for dt in first.find_all("dt")] == ["speed"]
    assert [dd.words for dd in first.find_all("dd")] == ["-5"]
    assert first.find("ul", class_="reasons").find_all("li")


#: A traceback whose innermost frame is a line of ``load()`` that raises nothing itself
#: (``return name``): spin()'s raise of this message would have printed its own frame.
BELOW_LOAD = """\
Traceback (most recent call last):
  File "/srv/app/main.py", line 3, in <module>
    load(widget)
  File "/srv/app/venv/lib/python3.11/site-packages/widgets/core.py", line 24, in load
    return name
ValueError: speed must be >= 0, got -5
"""


def test_match_page_says_why_a_site_the_traceback_rules_out_is_no_answer(
    client: httpx.Client, site: Site
) -> None:
    assert client.post("/api/match", json={"text": BELOW_LOAD}).json() == []
    doc = parse(client.post("/match", data={"text": BELOW_LOAD}).text)
    answer = doc.find("section", class_="answer")
    words = answer.words
    assert "Not catalogued: the traceback ends at core.py:24 in load()" in words
    ruled = answer.find("details", class_="folded")
    # the only list of sites is the folded one: nothing is offered as the answer
    assert len(answer.find_all("ol", class_="candidates")) == 1
    assert ruled.find("ol", class_="candidates") is not None
    assert "1 catalogued site(s) raising this message, ruled out by the traceback" in ruled.words
    record = site.record(site.acme, "widgets/core.py", 13)
    link = ruled.find("a", class_="msg")
    assert link.attrs["href"] == record_path("acme/widgets", str(record["id"]), str(record["slug"]))


def test_an_undecided_group_is_named_so_by_the_api_and_the_page(client: httpx.Client) -> None:
    """``KeyError: 'x'`` alone: the interpreter's lookups print it too, so load()'s
    ``raise KeyError(name)`` is answered as an undecided group, said so in both."""
    from errdex.match.rank_lone import UNDECIDED_REASON

    response = client.post("/api/match", json={"text": "KeyError: 'x'"})
    assert response.status_code == 200
    found = {(c["filePath"], c["group"], c["groupReason"]) for c in response.json()}
    assert ("widgets/core.py", 0, UNDECIDED_REASON) in found
    assert all(c["groupReason"] == UNDECIDED_REASON for c in response.json())
    page = parse(client.post("/match", data={"text": "KeyError: 'x'"}).text)
    said = page.find("p", class_="group").words
    assert said.startswith("Undecided: this KeyError is also raised by the interpreter")
    assert "widgets/core.py" in page.find("ol", class_="candidates").words
