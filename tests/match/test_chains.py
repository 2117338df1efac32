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
from errdex.match.api import answers, clues_from, index_for
from errdex.match.paste import parse_paste
from errdex.match.rank import rank
from errdex.store import SqliteStore

from .conftest import build_package, report_of_pytest

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

#: Re-raises of core's errors whose message is the cause's, word for word.
WRAP = """\
from chaingraph.core import GraphError, parse_weight


class WeightError(GraphError, ValueError):
    pass


def weight_of(text):
    try:
        return parse_weight(text)
    except ValueError as err:
        raise WeightError(str(err)) from err


def retyped(text):
    try:
        return parse_weight(text)
    except ValueError as err:
        raise type(err)(*err.args) from err
"""


def line_of(needle: str, module: str = CORE) -> int:
    return next(n for n, text in enumerate(module.splitlines(), 1) if needle in text)


@pytest.fixture
def chained(tmp_path: Path) -> Path:
    return build_package(tmp_path, "chaingraph", {"core.py": CORE, "wrap.py": WRAP})


def run(db: Path, call: str) -> str:
    """The chained traceback Python prints when ``call`` fails for real."""
    script = f"import sys; sys.path.insert(0, {str(db.parent / 'src')!r})\n"
    script += f"from chaingraph.core import *\nfrom chaingraph.wrap import *\n{call}\n"
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


@pytest.mark.parametrize(
    ("call", "raise_line"),
    [
        ("weight_of('abc')", "raise WeightError(str(err)) from err"),
        ("retyped('abc')", "raise type(err)(*err.args) from err"),
    ],
)
def test_a_cause_whose_message_fits_the_final_one_is_ruled_out_as_its_site(
    chained: Path, call: str, raise_line: str
) -> None:
    tb = run(chained, call)
    (answer,) = answers(tb, db=chained)
    best, *others = answer.candidates
    assert (best.filePath, best.lineNumber) == ("src/chaingraph/wrap.py", line_of(raise_line, WRAP))
    assert not best.ruledOut
    # the final message is the cause's word for word, and the cause's site fits it in
    # full; but the final traceback ends on a raise of its own: that site did not raise it
    cause = next(c for c in others if c.filePath == "src/chaingraph/core.py")
    assert cause.lineNumber == line_of("weight must be a whole")
    assert cause.ruledOut
    assert any("a raise of this error there" in r for r in cause.reasons)
    assert cause.confidence < 0.2


def pytest_output(db: Path, tmp_path: Path, call: str, style: str, test: str = "test_it") -> str:
    """pytest's report of a test that makes ``call``, in ``--tb=style``."""
    tests = tmp_path / "test_chained.py"
    tests.write_text(f"from chaingraph.wrap import *\n\ndef {test}():\n    {call}\n")
    out = report_of_pytest(tests, db.parent / "src", f"--tb={style}")
    assert "1 failed" in out, out
    return out


@pytest.mark.parametrize("style", ["long", "short", "auto", "native"])
def test_pytest_chained_reports_answer_the_final_error_and_rule_its_cause_out(
    chained: Path, tmp_path: Path, style: str
) -> None:
    out = pytest_output(chained, tmp_path, "weight_of('abc')", style)
    assert "direct cause of the following exception" in out
    first = answers(out, db=chained)[0]
    assert first.error_class is not None and first.error_class.endswith("WeightError")
    best, *others = first.candidates
    assert best.lineNumber == line_of("raise WeightError(str(err)) from err", WRAP)
    cause = next(c for c in others if c.filePath == "src/chaingraph/core.py")
    assert cause.lineNumber == line_of("weight must be a whole") and cause.ruledOut


def test_a_summary_cut_inside_the_class_name_is_not_a_last_error_of_its_own(
    chained: Path, tmp_path: Path
) -> None:
    test = "test_weights_refused_with_their_own_cause"
    out = pytest_output(chained, tmp_path, "weight_of('abc')", "short", test)
    summary = next(line for line in out.splitlines() if line.startswith("FAILED "))
    assert summary.endswith("...") and ": weight" not in summary  # cut inside the class
    (answer,) = answers(out, db=chained)  # the chain alone: the summary repeats it
    assert answer.error_class is not None and answer.error_class.endswith("WeightError")
    assert answer.candidates[0].lineNumber == line_of("raise WeightError(str(err))", WRAP)
    # ranked as one paste (as the benchmarks do), the cause does not become the answer
    ranked = rank(clues_from(parse_paste(out)), index_for(SqliteStore(chained)))
    assert ranked[0].pinned


def test_a_cause_alone_is_not_likelier_than_not_when_the_final_traceback_is_whole(
    chained: Path,
) -> None:
    # the final error was raised in the script (not catalogued), at its innermost frame:
    # never at the cause's site, which the answer still names, below even odds
    tb = run(
        chained,
        "try:\n    node_index({}, 'q')\nexcept KeyError:\n    raise RuntimeError('gave up')",
    )
    assert "During handling of the above exception" in tb
    (answer,) = answers(tb, db=chained)
    assert answer.candidates[0].lineNumber == line_of("is not among the")
    assert any("chained cause" in r for r in answer.candidates[0].reasons)
    assert answer.candidates[0].confidence < 0.5
