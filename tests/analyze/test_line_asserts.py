"""An assert whose message is the line number and line of the file read
(``lib2to3.pgen2.conv.Converter.parse_graminit_c``; run: a graminit.c whose first line
is "bad line" fails with ``AssertionError: (1, 'bad line\\n')``)."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import one_file_items

SOURCE = """
import re


class Converter:
    def parse(self, filename):
        f = open(filename)
        lineno, line = 1, next(f)
        assert line == '#include "grammar.h"\\n', (lineno, line)

    def check(self, text):
        lineno, line = 1, text
        assert re.match("x", line), (lineno, line)
"""


def test_the_line_of_the_file_read(tmp_path: Path) -> None:
    found = {r["lineNumber"]: r["solutions"] for r, _ in one_file_items(tmp_path, "m.py", SOURCE)}
    assert found[9][0].startswith(
        "Correct the line of the file passed as `filename` to `Converter.parse()` that the "
        "message shows (its number and text, `(lineno, line)`)"
    )
    assert not found[13][0].startswith("Correct the line")  # no file: text passed in


HIDDEN = """
class Reader:
    def load(self, filename, other):
        def inner(path):
            for lineno, line in enumerate(open(path)):
                assert line, (lineno, line)

        inner(filename)

    def check(self, filename, rows):
        for lineno, line in enumerate(rows):
            assert line.strip(), (lineno, line)


def parse_tail(filename):
    f = open(filename)
    lineno, line = 1, next(f)
    assert 0, (lineno, line)
"""


def test_only_a_file_parameter_the_test_reads_a_caller_passes(tmp_path: Path) -> None:
    """``inner``'s ``path`` is no parameter of a caller's; ``check`` reads ``rows``,
    not the file its ``filename`` names (re-reader rr3)."""
    found = {r["lineNumber"]: r["solutions"] for r, _ in one_file_items(tmp_path, "m.py", HIDDEN)}
    assert not any(text.startswith("Correct the line") for text in found[6])
    assert not any(text.startswith("Correct the line") for text in found[12])
    # ``assert 0`` reads nothing, but its message is the file's line
    assert found[18][0].startswith("Correct the line of the file passed as `filename`")
