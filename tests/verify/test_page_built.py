"""A reproducer errdex built (no test holds the call as it ran): the page says it built it,
over real HTTP, from a real scan and verify."""

from __future__ import annotations

import httpx

from errdex.store import SqliteStore
from errdex.web.views import record_path
from tests.web.conftest import LiveServer
from tests.web.dom import parse

from .conftest import REPO, Tree
from .test_test_cases import _rescan

GAUGE = """\
def gauge(x):
    if x > 10:
        raise OverflowError(f"gauge tops out at 10, got {x}")
    return x


def dial():
    raise NotImplementedError("no dial yet")
"""

TEST_GAUGE = """\
from acme.gauge import gauge


def test_gauge():
    assert gauge(3) == 3
"""


def _meta(tree: Tree, live: LiveServer, line: int, path: str = "acme/gauge.py") -> str:
    with SqliteStore(tree.db) as store:
        (record,) = [
            e["record"]
            for e in store.iter_envelopes(REPO)
            if e["record"]["filePath"] == path and e["record"]["lineNumber"] == line
        ]
    url = record_path(record["repo"], record["id"], record["slug"])
    response = httpx.get(live.url + url, timeout=30)
    assert response.status_code == 200
    section = parse(response.text).find("section", id="reproduce")
    return str(section.find("p", class_="meta").words)


def test_a_built_call_is_said_built_not_cut_from_the_test(tree: Tree) -> None:
    (tree.root / "acme" / "gauge.py").write_text(GAUGE)
    (tree.root / "tests" / "test_gauge.py").write_text(TEST_GAUGE)
    _rescan(tree)
    assert tree.verify().exit_code == 0
    with LiveServer(tree.db) as live:
        guarded = _meta(tree, live, 3)  # test_gauge's gauge(3), with x made > 10
        plain = _meta(tree, live, 8)  # no test calls dial(): errdex's plain call
        cut = _meta(tree, live, 10, "acme/core.py")  # test_negative's own check(-1)
    assert guarded.startswith(
        "Built by errdex from the guard: tests/test_gauge.py::test_gauge ("
    ), guarded
    assert "(x=11 makes `x > 10` true)" in guarded and "Cut from" not in guarded
    assert plain.startswith("Built by errdex: errdex's plain call of `dial`"), plain
    assert "from the guard" not in plain
    assert cut.startswith("Cut from tests/test_core.py::test_negative, run on Python"), cut
