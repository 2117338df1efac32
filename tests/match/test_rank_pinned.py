"""The innermost frame's own raise site outranks a site that only the message and an outer
frame fit: the traceback itself says where the exception was raised.

The catalogue is scanned from real files and the traceback is printed by running them.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from errdex.match import match

from .conftest import build_package

ERRORS = """\
class EndError(Exception):
    pass
"""
CURSOR = """\
class Cursor:
    def advance(self, kind):
        raise self.handler.make(kind)
"""
PARSER = """\
from .errors import EndError
from .cursor import Cursor


class Handler:
    def make(self, kind):
        return kind("Unexpected end of input")


def parse(text):
    cursor = Cursor()
    cursor.handler = Handler()
    if not text:
        cursor.advance(EndError)
    if text == "?":
        raise EndError("Unexpected end of input")
"""


def test_innermost_site_wins_over_a_nearby_full_message_match(tmp_path: Path) -> None:
    db = build_package(
        tmp_path, "tokens", {"errors.py": ERRORS, "cursor.py": CURSOR, "parser.py": PARSER}
    )
    run = subprocess.run(
        [sys.executable, "-c", "from tokens.parser import parse; parse('')"],
        cwd=tmp_path / "src",
        capture_output=True,
        text=True,
    )
    traceback = run.stderr
    assert "tokens.errors.EndError: Unexpected end of input" in traceback
    assert 'cursor.py", line 3, in advance' in traceback
    best = next(c for c in match(traceback, db=db) if not c.folded)
    assert (best.filePath, best.lineNumber) == ("src/tokens/cursor.py", 3)
    assert "the innermost frame is src/tokens/cursor.py:3" in best.reasons
    # the message alone (no frames) still finds the site that writes it out
    alone = match("tokens.errors.EndError: Unexpected end of input", db=db)[0]
    assert (alone.filePath, alone.lineNumber) == ("src/tokens/parser.py", 16)
