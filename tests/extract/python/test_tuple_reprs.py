"""Tuple reprs as ``BaseException.__str__`` prints several arguments: a nested tuple is its
own repr, a number has no quotes, and ``n + 1`` is arithmetic, not concatenation."""

from __future__ import annotations

import io
import sysconfig
import textwrap
import tokenize
from pathlib import Path

import pytest

from errdex.extract.python import extract_python

from ._fixture import raised

STDLIB = Path(sysconfig.get_paths()["stdlib"])


def test_tokenize_eof_prints_the_position_tuple() -> None:
    text = (STDLIB / "tokenize.py").read_text()
    line = next(
        i
        for i, t in enumerate(text.splitlines(), 1)
        if 'raise TokenError("EOF in multi-line statement"' in t
    )
    (site,) = [s for s in extract_python(text, "tokenize.py") if s.line == line]
    assert site.template.display == "('EOF in multi-line statement', ({lnum}, 0))"
    with pytest.raises(tokenize.TokenError) as caught:
        list(tokenize.generate_tokens(io.StringIO("(\n").readline))
    assert str(caught.value) == "('EOF in multi-line statement', (2, 0))"
    assert site.template.match(str(caught.value)) is not None


COUNTER = """\
def count(lines):
    n = 0
    for line in lines:
        n += 1
    raise ValueError("too many lines", n, (n, "x"))
"""


def test_a_counter_is_a_number_not_text() -> None:
    (site,) = extract_python(textwrap.dedent(COUNTER), "m.py", module="m")
    assert site.template.display == "('too many lines', {n}, ({n}, 'x'))"
    assert site.template.match(str(raised(COUNTER, "count(['a', 'b'])"))) is not None


PASSED_ON = """\
def convert(exc):
    raise ConnectionResetError(*exc.args)


def assert_(cond, *args):
    if not cond:
        raise AssertionError(*args)
"""


def test_another_exceptions_args_passed_on_are_irreducible_a_parameters_are_not() -> None:
    sites = {s.line: s for s in extract_python(textwrap.dedent(PASSED_ON), "m.py", module="m")}
    assert any(n.startswith("irreducible:") and "`exc.args`" in n for n in sites[2].notes), sites[
        2
    ].notes
    real = raised(PASSED_ON, "convert(OSError(104, 'Connection reset by peer'))")
    assert str(real) == "[Errno 104] Connection reset by peer"
    assert sites[2].template.match(str(real)) is not None
    # ``*args`` of the function: its callers say what they pass
    assert not any(n.startswith("irreducible") for n in sites[7].notes)
