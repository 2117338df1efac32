"""Chained errors, produced by running real code: the error asked about is the last printed.

A cause (``raise … from err``) or a context ("During handling…") may fully match a
catalogued site of its own; it informs, but the final error's site, pointed at by its
innermost frame, comes first even when its message is a pure hole.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from errdex.match import match
from errdex.match.api import answers

from .conftest import build_package

CORE = '''\
class GraphError(Exception):
    """Base class for graph errors."""


def node_index(graph, node):
    if node not in graph:
        raise KeyError(f"node {node!r} is not among the {len(graph)} nodes of the graph")
    return graph[node]


def lookup(graph, key):
    try:
        return node_index(graph, key)
    except KeyError as err:
        raise KeyError(key) from err


def parse_weight(text):
    if not text.isdigit():
        raise ValueError(f"weight must be a whole number of grams, got {text!r}")
    return int(text)


def convert(text, where):
    try:
        return parse_weight(text)
    except ValueError as err:
        new_message = f"{where}: {err}"
        raise type(err)(new_message) from err


def load(graph, key):
    try:
        return node_index(graph, key)
    except KeyError:
        raise GraphError(f"cannot load graph {key!r}")
'''


def line_of(needle: str) -> int:
    return next(n for n, text in enumerate(CORE.splitlines(), 1) if needle in text)


@pytest.fixture
def chained(tmp_path: Path) -> Path:
    return build_package(tmp_path, "chaingraph", {"core.py": CORE})


def run(db: Path, call: str) -> str:
    """The chained traceback Python prints when ``call`` fails for real."""
    script = f"import sys; sys.path.insert(0, {str(db.parent / 'src')!r})\n"
    script += f"from chaingraph.core import *\n{call}\n"
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1, done.stderr
    return done.stderr


def test_a_pure_hole_reraise_wins_over_its_fully_matching_cause(chained: Path) -> None:
    tb = run(chained, "lookup({}, 'alpha')")
    assert "direct cause of the following exception" in tb
    found = match(tb, db=chained)
    assert found[0].lineNumber == line_of("raise KeyError(key) from err")
    assert found[0].confidence >= 0.9
    # the cause's site, whose message matches fully, is still offered, below and said so
    cause = next(c for c in found if c.lineNumber == line_of("is not among the"))
    assert cause.confidence < found[0].confidence
    assert any("chained cause" in r for r in cause.reasons)


def test_type_of_err_reraised_with_a_new_message_wins_over_its_cause(chained: Path) -> None:
    tb = run(chained, "convert('abc', 'edge 1-2')")
    assert "ValueError: edge 1-2: weight must be" in tb
    found = match(tb, db=chained)
    assert found[0].lineNumber == line_of("raise type(err)(new_message) from err")
    assert found[0].confidence > 0.5
    assert found[1].lineNumber == line_of("weight must be a whole number")


def test_an_error_raised_while_handling_another_matches_the_last_one(chained: Path) -> None:
    tb = run(chained, "load({}, 'g')")
    assert "During handling of the above exception" in tb
    (answer,) = answers(tb, db=chained)  # the chain is kept whole: one answer
    assert answer.error_class == "chaingraph.core.GraphError"
    assert answer.candidates[0].lineNumber == line_of("cannot load graph")
    assert list(answer.candidates[0].holes.values()) == ["'g'"]


def test_a_cause_alone_still_points_somewhere_when_the_final_error_is_not_catalogued(
    chained: Path,
) -> None:
    tb = run(
        chained,
        textwrap.dedent(
            """\
            try:
                node_index({}, 'z')
            except KeyError as err:
                raise RuntimeError('the app gave up') from err
            """
        ),
    )
    found = match(tb, db=chained)
    assert found[0].lineNumber == line_of("is not among the")
    assert any("chained cause" in r for r in found[0].reasons)
