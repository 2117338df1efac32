"""``errdex match`` / ``errdex explain`` and ``errdex.match()`` on real pytest output, real
tracebacks and hostile text: one answer per failure, honest confidences, clean terminals."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

import errdex
from errdex import cli
from errdex.match.api import NOT_CATALOGUED, answers
from errdex.match.commands import EXIT_NO_ERROR, EXIT_NO_MATCH
from errdex.store import SqliteStore
from errdex.web import create_app

from .conftest import build_package, line_of

TESTS = """\
import sys
sys.path.insert(0, {src!r})
from tinygraph.graph import add_edge, shortest_path


def test_weight():
    add_edge({{1: []}}, 1, 1, weight=-3)


def test_path():
    shortest_path({{}}, 1, 2, method="bfs")


def test_node():
    add_edge({{1: []}}, 7, 1)
"""


def pytest_output(root: Path, *args: str, columns: int = 120) -> str:
    """Run a real pytest session over three failing tests of the catalogued package."""
    tests = root / "suite" / "test_graph.py"
    tests.parent.mkdir(exist_ok=True)
    tests.write_text(TESTS.format(src=str(root / "src")))
    # on CI (CI or BUILD_NUMBER set) pytest never cuts summary lines to the terminal's width
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "BUILD_NUMBER")}
    env["COLUMNS"] = str(columns)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args, str(tests)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tests.parent,
        env=env,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    return done.stdout


WEIGHT = ("weight must be non-negative", {"weight": "-3"})
PATH = ("{method} is not a valid", {"method": "bfs"})
NODE = ('raise NodeNotFound(f"Node {u}', {"u": "7"})


def best_per_error(found: list[dict[str, object]]) -> list[tuple[object, object, object]]:
    """(error, line, holes) of each answer's first candidate."""
    seen: dict[object, tuple[object, object, object]] = {}
    for c in found:
        seen.setdefault(c["error"], (c["error"], c["lineNumber"], c["holes"]))
    return list(seen.values())


def expected(*cases: tuple[str, dict[str, str]]) -> list[tuple[object, object, object]]:
    return [(i, line_of(needle), holes) for i, (needle, holes) in enumerate(cases)]


@pytest.mark.parametrize("tb", ["long", "short", "line", "native"])
def test_every_pytest_failure_gets_its_own_answer(catalogue: Path, tb: str) -> None:
    out = pytest_output(catalogue.parent, f"--tb={tb}")
    # the CLI
    result = CliRunner().invoke(
        cli.main, ["match", "--db", str(catalogue), "--json", "-"], input=out
    )
    assert result.exit_code == 0, result.output
    found = json.loads(result.stdout)
    want = expected(WEIGHT, PATH, NODE)
    assert best_per_error(found) == want
    # errdex.match()
    api = [c.to_json() for c in errdex.match(out, db=catalogue)]
    assert best_per_error(api) == want
    # the web API, in process
    with TestClient(create_app(catalogue, poll_seconds=0.2)) as client:
        response = client.post("/api/match", json={"text": out, "top": 5})
    assert response.status_code == 200
    assert best_per_error(response.json()) == want
    # explain: each failure's page in turn
    explained = CliRunner().invoke(cli.main, ["explain", "--db", str(catalogue), "-"], input=out)
    assert explained.exit_code == 0, explained.output
    for position, (_error, line, _holes) in enumerate(want, 1):
        assert f"{position}/3 " in explained.output
        assert f"Thrown at src/tinygraph/graph.py:{line}" in explained.output


def test_truncated_summary_lines_match_on_their_prefix(catalogue: Path) -> None:
    out = pytest_output(catalogue.parent, "--tb=no", columns=80)
    summaries = [line for line in out.splitlines() if line.startswith("FAILED")]
    assert len(summaries) == 3 and all(line.endswith("...") for line in summaries)
    found = errdex.match(out, db=catalogue)
    best: dict[int, set[int]] = {}  # each answer's lines at its top confidence (ties)
    for c in found:
        top = max(x.confidence for x in found if x.error == c.error)
        if c.confidence == top:
            best.setdefault(c.error, set()).add(c.lineNumber)
    assert sorted(best) == [0, 1, 2]
    assert line_of("weight must be non-negative") in best[0]
    assert line_of("{method} is not a valid") in best[1]
    assert line_of('raise NodeNotFound(f"Node {u}') in best[2]


def test_confidences_are_sorted_and_sum_to_at_most_one(catalogue: Path) -> None:
    # "Node 5 is not in the graph." is raised verbatim at three sites
    for paste in (
        "NodeNotFound: Node 5 is not in the graph.",
        "ValueError: bfs is not a valid choice for an algorithm.",
        "weight must be non-negative, got 2",
        # a frame near several sites and a message none of them raise
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.11/site-packages/tinygraph/graph.py", line 16, in add_edge\n'
        "    graph[u].append(v)\n"
        "ValueError: something the catalogue never says\n",
    ):
        for answer in answers(paste, db=catalogue, top=10):
            confidences = [c.confidence for c in answer.candidates]
            assert confidences == sorted(confidences, reverse=True), paste
            assert sum(confidences) <= 1 + 1e-9, (paste, confidences)


def test_a_class_no_site_raises_is_not_catalogued(catalogue: Path) -> None:
    paste = "KeyError: 'Node 3 is not in the graph.'"
    (answer,) = answers(paste, db=catalogue)
    assert answer.status == NOT_CATALOGUED and answer.candidates == []
    result = CliRunner().invoke(cli.main, ["match", "--db", str(catalogue), paste])
    assert result.exit_code == EXIT_NO_MATCH
    assert "not catalogued" in result.output and "KeyError" in result.output


@pytest.mark.parametrize(
    "paste",
    [
        "The quick brown fox jumps over the lazy dog.",
        "Collecting numpy\n  Downloading numpy-1.26.4.tar.gz (15.8 MB)\n"
        "Successfully installed numpy-1.26.4\n",
        "def f(x):\n    return x + 1\n",
    ],
)
def test_a_paste_without_an_error_exits_3_and_says_so(catalogue: Path, paste: str) -> None:
    for verb in ("match", "explain"):
        result = CliRunner().invoke(cli.main, [verb, "--db", str(catalogue), "-"], input=paste)
        assert result.exit_code == EXIT_NO_ERROR, (verb, result.output)
        assert "no error found" in result.output


def test_a_warning_with_text_after_its_message_still_matches(catalogue: Path) -> None:
    root = catalogue.parent
    code = (
        "import warnings\n"
        "def check(x):\n"
        "    warnings.warn(f'{x} is deprecated since 2.0', DeprecationWarning)\n"
    )
    (root / "src" / "tinygraph" / "compat.py").write_text(code)
    from errdex.scan import scan_checkout, store_scan
    from errdex.source import open_source

    from .conftest import SHA

    checkout = open_source(str(root), repo="example/tinygraph", sha=SHA)
    result = scan_checkout(checkout, repo="example/tinygraph")
    with SqliteStore(catalogue) as store:
        store_scan(store, checkout, "example/tinygraph", result, "2026-11-30T00:00:00.000Z")
    paste = (
        "/venv/lib/python3.11/site-packages/tinygraph/compat.py:3: DeprecationWarning: "
        "frobnicate is deprecated since 2.0; use grind() instead\n"
        "  warnings.warn(f'{x} is deprecated since 2.0', DeprecationWarning)\n"
    )
    found = errdex.match(paste, db=catalogue)
    assert found and found[0].filePath == "src/tinygraph/compat.py"
    assert found[0].holes == {"x": "frobnicate"}


def test_low_candidates_are_folded_away_and_holes_are_named(catalogue: Path) -> None:
    tb = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys; sys.path.insert(0, {str(catalogue.parent / 'src')!r})\n"
            "from tinygraph.graph import add_edge\nadd_edge({1: []}, 1, 1, weight=-3)",
        ],
        capture_output=True,
        text=True,
        timeout=60,
    ).stderr
    found = errdex.match(tb, db=catalogue)
    assert any(c.folded for c in found)  # the other sites of the file, near the frame
    shown = CliRunner().invoke(cli.main, ["match", "--db", str(catalogue), "-"], input=tb)
    assert shown.exit_code == 0
    assert "{weight} = -3" in shown.output
    folded = sum(c.folded for c in found)
    assert f"{folded} more under 5% confidence" in shown.output
    every = CliRunner().invoke(cli.main, ["match", "--all", "--db", str(catalogue), "-"], input=tb)
    assert every.output.count("src/tinygraph/graph.py:") == len(found)


def test_file_and_line_stay_whole_on_an_80_column_terminal(tmp_path: Path) -> None:
    module = "algorithms/shortest_paths/weighted_bidirectional.py"
    deep = f"src/tinygraph/{module}"
    code = "def f(kind):\n    raise ValueError(f'{kind} is not a valid choice for an algorithm.')\n"
    db = build_package(tmp_path, "tinygraph", {module: code})
    env = {**os.environ, "COLUMNS": "80", "TERM": "dumb"}
    paste = "ValueError: bfs is not a valid choice for an algorithm."
    done = subprocess.run(
        [sys.executable, "-m", "errdex.cli", "match", "--db", str(db), paste],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    assert all(len(line) <= 80 for line in done.stdout.splitlines())
    assert f"{deep}:2" in done.stdout  # on one line, whole


def test_positional_holes_are_named_by_how_the_source_writes_them(tmp_path: Path) -> None:
    code = "def f(a, b):\n    raise ValueError('bad %s and %s here' % (a, b))\n"
    db = build_package(tmp_path, "pkg", {"m.py": code})
    (found,) = errdex.match("ValueError: bad x and y here", db=db)
    assert found.holes == {"%s#1": "x", "%s#2": "y"}


def test_the_match_page_answers_each_failure_names_holes_and_folds_the_rest(
    catalogue: Path,
) -> None:
    from tests.web.dom import parse

    out = pytest_output(catalogue.parent, "--tb=short")
    with TestClient(create_app(catalogue, poll_seconds=0.2)) as client:
        response = client.post("/match", data={"text": out})
    assert response.status_code == 200
    sections = parse(response.text).find_all("section", class_="answer")
    assert [s.find("h2").words for s in sections] == [
        "Error 1 of 3: ValueError: weight must be non-negative, got -3",
        "Error 2 of 3: ValueError: bfs is not a valid choice for an algorithm.",
        "Error 3 of 3: tinygraph.graph.NodeNotFound: Node 7 is not in the graph.",
    ]
    first = sections[0].find("ol", class_="candidates").find("li")
    assert [dt.words for dt in first.find_all("dt")] == ["weight"]
    assert [dd.words for dd in first.find_all("dd")] == ["-3"]
    for section in sections:
        shown = section.find("ol", class_="candidates")  # the first list: the unfolded one
        percents = [int(s.words.rstrip("%")) for s in shown.find_all("strong")]
        assert percents == sorted(percents, reverse=True) and all(p >= 5 for p in percents)
    assert any(s.find_all("details", class_="folded") for s in sections)


def test_prose_that_only_shares_a_word_with_a_template_is_no_error(tmp_path: Path) -> None:
    # the stdlib's tokenize raises '%s for %r': every sentence holding " for " fit it
    code = "def f(a, b):\n    raise ValueError('%s for %r' % (a, b))\n"
    db = build_package(tmp_path, "wordy", {"m.py": code})
    for prose in ("Thanks for the help", "I waited in the rain for an hour"):
        result = CliRunner().invoke(cli.main, ["match", "--db", str(db), prose])
        assert result.exit_code == EXIT_NO_ERROR, (prose, result.output)
    # a message that is mostly the template's own words still matches without a class
    message = "unexpected token 'x' in the options header for 'config.ini'"
    code = "def g(t, n):\n    raise ValueError(f'unexpected token {t!r} in the options header for {n!r}')\n"
    db2 = build_package(tmp_path / "again", "wordy2", {"n.py": code})
    result = CliRunner().invoke(cli.main, ["match", "--db", str(db2), message])
    assert result.exit_code == 0, result.output
