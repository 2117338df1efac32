"""errdex.match() and the match/explain commands, end to end on a real catalogue and real tracebacks."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errdex import cli
from errdex.match import match
from errdex.match.api import index_path
from errdex.match.commands import EXIT_NO_ERROR, EXIT_NO_MATCH
from errdex.store import SqliteStore
from errdex.template import MessageTemplate

from .conftest import line_of


def real_traceback(root: Path, call: str) -> str:
    """Run the catalogued package for real and return the traceback Python prints."""
    script = f"import sys; sys.path.insert(0, {str(root / 'src')!r})\nfrom tinygraph.graph import *\n{call}\n"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1, done.stderr
    return done.stderr


def test_real_traceback_lands_on_its_raise_line(catalogue: Path) -> None:
    root = catalogue.parent
    tb = real_traceback(root, "add_edge({1: []}, 1, 9)")
    found = match(tb, db=catalogue)
    assert found[0].filePath == "src/tinygraph/graph.py"
    assert found[0].lineNumber == line_of('raise NodeNotFound(f"Node {v}')
    assert found[0].holes == {"v": "9"}
    assert found[0].confidence >= 0.9
    assert found[0].errorMessage == "Node {v} is not in the graph."
    assert all(c.confidence <= 1 - found[0].confidence + 1e-9 for c in found[1:])
    # the index was saved beside the store and is reused
    assert (index_path(catalogue) / "meta.json").exists()


def test_chained_traceback_matches_the_final_error(catalogue: Path) -> None:
    tb = real_traceback(
        catalogue.parent,
        "try:\n    {}['x']\nexcept KeyError:\n    shortest_path({}, 1, 2, method='bfs')",
    )
    found = match(tb, db=catalogue)
    assert found[0].lineNumber == line_of("{method} is not a valid")
    assert found[0].holes == {"method": "bfs"}


def test_cli_match_json_and_exit_codes(catalogue: Path) -> None:
    runner = CliRunner()
    ok = runner.invoke(
        cli.main,
        [
            "match",
            "--db",
            str(catalogue),
            "--json",
            "ValueError: weight must be non-negative, got -2",
        ],
    )
    assert ok.exit_code == 0, ok.output
    data = json.loads(ok.output)
    assert list(data[0]) == [
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
    assert data[0]["holes"] == {"weight": "-2"}
    assert data[0]["error"] == 0
    assert data[0]["pasted"] == "ValueError: weight must be non-negative, got -2"
    none = runner.invoke(
        cli.main, ["match", "--db", str(catalogue), "--json", "OSError: disk full"]
    )
    assert none.exit_code == EXIT_NO_MATCH and json.loads(none.stdout) == []
    empty = runner.invoke(cli.main, ["match", "--db", str(catalogue), "--json", "-"], input="")
    assert empty.exit_code == EXIT_NO_ERROR and "no error found" in empty.output
    binary = runner.invoke(
        cli.main, ["match", "--db", str(catalogue), "-"], input=bytes(range(256)) * 10
    )
    assert binary.exit_code in (EXIT_NO_ERROR, EXIT_NO_MATCH)
    missing = runner.invoke(cli.main, ["match", "--db", str(catalogue.parent / "nope.db"), "x"])
    assert missing.exit_code == 2 and "errdex scan" in missing.output


def test_cli_explain_renders_the_record(catalogue: Path) -> None:
    tb = real_traceback(catalogue.parent, "add_edge({1: []}, 1, 1, weight=-3)")
    result = CliRunner().invoke(cli.main, ["explain", "--db", str(catalogue), "-"], input=tb)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "weight must be non-negative, got {weight!r}" in out
    assert "{weight} = -3" in out
    assert f"Thrown at src/tinygraph/graph.py:{line_of('weight must be non-negative')}" in out
    assert "https://github.com/example/tinygraph/blob/" in out
    assert "weight < 0" in out  # the condition


def test_bad_input_answers_in_bounded_time(catalogue: Path) -> None:
    with SqliteStore(catalogue) as store:
        from errdex.match.api import match_errors
        from errdex.match.paste import parse_paste

        started = time.perf_counter()
        huge = "ValueError: " + "a" * (50 * 1024 * 1024)
        assert match_errors(parse_paste(huge), store) == []
        # a message crafted against backtracking regexes: many almost-matches
        evil = "ValueError: " + "Node " * 20000 + " is not in the graph" * 2000
        match_errors(parse_paste(evil), store)
        assert time.perf_counter() - started < 30  # a safety bound, not a speed goal


@st.composite
def rendered(draw: st.DrawFn) -> tuple[str, str, list[str]]:
    from .conftest import GRAPH

    templates = {
        "Node {u} is not in the graph.": ("NodeNotFound", 1),
        "weight must be non-negative, got {weight!r}": ("ValueError", 1),
        "{method} is not a valid choice for an algorithm.": ("ValueError", 1),
    }
    assert all(t.split("{")[0] in GRAPH or t.startswith("{") for t in templates)
    display = draw(st.sampled_from(sorted(templates)))
    cls, holes = templates[display]
    values = [
        draw(
            st.text(
                st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")),
                min_size=1,
                max_size=12,
            )
        )
        for _ in range(holes)
    ]
    return cls, display, values


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(case=rendered())
def test_a_rendered_template_comes_back_as_its_own_record_with_its_values(
    catalogue: Path, case: tuple[str, str, list[str]]
) -> None:
    cls, display, values = case
    with SqliteStore(catalogue) as store:
        env = next(e for e in store.iter_envelopes() if e["record"]["errorMessage"] == display)
    template = MessageTemplate.from_json(env["evidence"]["site"]["template"])
    message = template.render(values)
    found = match(f"{cls}: {message}", db=catalogue, top=10)
    mine = [c for c in found if c.id == env["record"]["id"]]
    assert mine, (message, [c.errorMessage for c in found])
    assert list(mine[0].holes.values()) == values


def test_python_api_is_reexported() -> None:
    import errdex.match as m

    assert callable(m.match) and m.Candidate.__name__ == "Candidate"
    assert callable(m.answers) and m.Answer.__name__ == "Answer"
    assert textwrap.dedent("x") == "x"


def test_a_bare_message_without_class_still_matches(catalogue: Path) -> None:
    found = match("weight must be non-negative, got 0.5", db=catalogue)
    assert found and found[0].lineNumber == line_of("weight must be non-negative")
    assert found[0].holes == {"weight": "0.5"}


def readme_python_api() -> str:
    """The README's Python API example, exactly as printed."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme.split("## Python API", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


def test_the_readme_python_api_example_runs_as_printed(
    catalogue: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from .conftest import GRAPH

    monkeypatch.chdir(catalogue.parent)  # the snippet names db="errdex.db"
    tb = real_traceback(catalogue.parent, "add_edge({1: []}, 1, 1, weight=-3)")
    namespace = {"source_text": GRAPH, "traceback_text": tb}
    exec(compile(readme_python_api(), "README.md", "exec"), namespace)
    out = capsys.readouterr().out
    line = line_of("weight must be non-negative")
    assert f"src/tinygraph/graph.py {line} {{'weight': '-3'}}" in out
    assert f"{line} ValueError weight must be non-negative, got {{weight!r}}" in out


def test_a_read_only_catalogue_keeps_its_index_in_the_cache(
    catalogue: Path, own_cache: Path
) -> None:
    from errdex.match.api import cached_index_path

    catalogue.chmod(0o444)
    try:
        found = match("ValueError: weight must be non-negative, got -2", db=str(catalogue))
        assert found[0].lineNumber == line_of("weight must be non-negative")
        assert not index_path(catalogue).exists()  # nothing written beside the catalogue
        with SqliteStore(catalogue) as store:
            version = store.data_version()
        saved = cached_index_path(catalogue, version)
        assert saved.is_relative_to(own_cache / "errdex") and (saved / "meta.json").exists()
    finally:
        catalogue.chmod(0o644)
