"""Paste forms nobody tuned for, each printed by a real run of a catalogued package.

Notes (``add_note``), messages over many lines or starting with a newline, a warning whose
message holds a traceback, and JAX's filtering (its note, and no frame of the raising file):
each is read as Python printed it, and still finds its raise site.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from errdex.match.api import answers
from errdex.match.paste import parse_paste

from .conftest import build_package

OPS = """\
import traceback
import warnings


def reshape(shape):
    if len(shape) != 2:
        raise ValueError(f"invalid shape {shape}, expected a matrix")
    return shape


def train(step, loss, lr):
    raise RuntimeError(f"the run failed at step {step}:\\n  loss was {loss}\\n  lr was {lr}")


def components(graph):
    raise RuntimeError("\\nThe graph is not connected.\\nAdd edges between its components first.")


def run_callback(callback):
    try:
        callback()
    except Exception:
        warnings.warn("callback failed and was skipped:\\n" + traceback.format_exc(), RuntimeWarning)
"""

#: Filters a traceback as jax/_src/traceback_util.py does (JAX_TRACEBACK_FILTERING's
#: default outside IPython): the package's frames removed, JAX's note added.
BOUNDARY = """\
import os
import traceback
import types

_HERE = os.path.dirname(__file__)
_SIMPLIFIED = (
    "For simplicity, JAX has removed its internal frames from the traceback of the "
    "following exception. Set JAX_TRACEBACK_FILTERING=off to include these."
)


def api_boundary(fun):
    def reraise_with_filtered_traceback(*args):
        __tracebackhide__ = True
        try:
            return fun(*args)
        except Exception as e:
            kept = None
            for f, lineno in reversed(list(traceback.walk_tb(e.__traceback__))):
                if os.path.dirname(f.f_code.co_filename) != _HERE:
                    kept = types.TracebackType(kept, f, f.f_lasti, lineno)
            e.with_traceback(kept)
            e.add_note("--------------------\\n" + _SIMPLIFIED)
            raise

    return reraise_with_filtered_traceback
"""


def line_of(needle: str) -> int:
    return next(n for n, text in enumerate(OPS.splitlines(), 1) if needle in text)


@pytest.fixture
def forms(tmp_path: Path) -> Path:
    return build_package(tmp_path, "formlib", {"ops.py": OPS, "boundary.py": BOUNDARY})


def run(db: Path, code: str) -> str:
    """What Python prints on stderr when ``code`` runs against the package."""
    script = db.parent / "user.py"
    script.write_text(f"import sys\nsys.path.insert(0, {str(db.parent / 'src')!r})\n{code}")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    return done.stderr


def last_lines(tb: str, start: str) -> str:
    """The part of a traceback people paste alone: from its ``Class: message`` line on."""
    return tb[tb.index(start) :]


def test_a_note_is_not_part_of_the_message(forms: Path) -> None:
    tb = run(
        forms,
        "from formlib.ops import reshape\n"
        "try:\n    reshape((3,))\nexcept ValueError as e:\n"
        "    e.add_note('while reading layer 7 of model.ckpt')\n    raise\n",
    )
    assert tb.endswith("expected a matrix\nwhile reading layer 7 of model.ckpt\n")
    for paste in (tb, last_lines(tb, "ValueError:")):
        (answer,) = answers(paste, db=forms)
        best = answer.candidates[0]
        assert best.lineNumber == line_of("invalid shape {shape}")
        assert list(best.holes.values()) == ["(3,)"]
        assert any("read as notes" in r for r in best.reasons)
    # the message alone, with nothing but its text to go on, is as sure as without the note
    assert best.confidence >= 0.9


def test_a_message_over_many_lines_is_read_whole(forms: Path) -> None:
    tb = run(forms, "from formlib.ops import train\ntrain(41, 'nan', 0.001)\n")
    (error,) = parse_paste(tb)
    assert error.message == "the run failed at step 41:\n  loss was nan\n  lr was 0.001"
    (answer,) = answers(last_lines(tb, "RuntimeError:"), db=forms)
    assert answer.candidates[0].lineNumber == line_of("the run failed at step")
    assert list(answer.candidates[0].holes.values()) == ["41", "nan", "0.001"]


def test_a_message_that_begins_with_a_newline(forms: Path) -> None:
    tb = run(forms, "from formlib.ops import components\ncomponents({})\n")
    assert "RuntimeError: \nThe graph is not connected." in tb
    (error,) = parse_paste(tb)
    assert error.message == "\nThe graph is not connected.\nAdd edges between its components first."
    for paste in (tb, last_lines(tb, "RuntimeError:")):
        (answer,) = answers(paste, db=forms)
        assert answer.candidates[0].lineNumber == line_of("The graph is not connected")
        assert answer.candidates[0].confidence >= 0.9


def test_a_warning_whose_message_holds_a_traceback_is_one_warning(forms: Path) -> None:
    tb = run(forms, "from formlib.ops import run_callback\nrun_callback(lambda: {}['k'])\n")
    assert "RuntimeWarning: callback failed and was skipped:\nTraceback" in tb
    (error,) = parse_paste(tb)
    assert error.error_class == "RuntimeWarning"
    assert error.message.startswith("callback failed and was skipped:\nTraceback (most recent")
    assert error.message.endswith("KeyError: 'k'")
    (frame,) = error.frames
    assert frame.line == line_of("warnings.warn(") and frame.source is not None
    assert frame.source.startswith("warnings.warn(")
    (answer,) = answers(tb, db=forms)
    assert answer.candidates[0].lineNumber == line_of("warnings.warn(")


def test_a_traceback_printed_after_a_warning_without_code_line_stays_an_error() -> None:
    # ``python -c`` prints warnings with no code line: the traceback after is the crash
    code = "import warnings; warnings.warn('about to fail'); {}['k']"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    errors = parse_paste(done.stderr)
    assert [(e.error_class, e.message) for e in errors] == [
        ("UserWarning", "about to fail"),
        ("KeyError", "'k'"),
    ]


def test_jax_filtering_the_note_split_off_and_no_frame_of_the_raising_file(
    forms: Path,
) -> None:
    tb = run(
        forms,
        "from formlib.boundary import api_boundary\nfrom formlib.ops import reshape\n"
        "def user(s):\n    return api_boundary(reshape)(s)\nuser((1, 2, 3))\n",
    )
    assert "--------------------\nFor simplicity, JAX has removed its internal frames" in tb
    assert "ops.py" not in tb  # filtered: the raising file is not shown at all
    (error,) = parse_paste(tb)
    assert error.message == "invalid shape (1, 2, 3), expected a matrix"
    simplified = "For simplicity, JAX has removed its internal frames from the traceback of the "
    simplified += "following exception. Set JAX_TRACEBACK_FILTERING=off to include these."
    assert error.notes == ["--------------------\n" + simplified]  # the note as JAX adds it
    (answer,) = answers(tb, db=forms)
    assert answer.candidates[0].lineNumber == line_of("invalid shape {shape}")
    assert answer.candidates[0].confidence >= 0.9


def test_a_long_message_with_blank_and_class_like_lines_stays_one_message() -> None:
    code = (
        "rows = '\\n'.join(f'  row {i}: value out of range' for i in range(40))\n"
        "raise ValueError(f'validation failed for 40 rows:\\n{rows}\\n\\n"
        "KeyError: see the log\\nFix the input and retry.')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    (error,) = parse_paste(done.stderr)
    rows = "\n".join(f"  row {i}: value out of range" for i in range(40))
    expected = (
        f"validation failed for 40 rows:\n{rows}\n\nKeyError: see the log\nFix the input and retry."
    )
    assert (error.error_class, error.message) == ("ValueError", expected)
