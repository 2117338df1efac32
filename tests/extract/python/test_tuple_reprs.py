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
