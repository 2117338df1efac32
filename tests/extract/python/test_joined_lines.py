"""A ``__str__`` that appends its lines and joins them (PyYAML's ``MarkedYAMLError``):
the templates are what ``str()`` prints, one per way the appends can go, each checked
against ``str()`` of the exception the fixture really raises."""

from __future__ import annotations

import textwrap

from errdex.extract.python import extract_python

from ._fixture import raised

MARKED = """\
class Mark:
    def __init__(self, line):
        self.line = line

    def __str__(self):
        return "  in line %d" % (self.line + 1)


class MarkedError(Exception):
    def __init__(self, context=None, context_mark=None, problem=None, problem_mark=None,
                 note=None):
        self.context = context
        self.context_mark = context_mark
        self.problem = problem
        self.problem_mark = problem_mark
        self.note = note

    def __str__(self):
        lines = []
        if self.context is not None:
            lines.append(self.context)
        if self.context_mark is not None and (self.problem is None
                or self.problem_mark is None):
            lines.append(str(self.context_mark))
        if self.problem is not None:
            lines.append(self.problem)
        if self.problem_mark is not None:
            lines.append(str(self.problem_mark))
        if self.note is not None:
            lines.append(self.note)
        return '\\n'.join(lines)


def no_context(mark):
    raise MarkedError(None, None, "expected a node, but found %r" % "x", mark)


def with_context(start, mark):
    raise MarkedError("while parsing a block", start, "expected <end>", mark)
"""


def _templates(code: str, source: str) -> list[str]:
    line = next(i for i, text in enumerate(code.splitlines(), 1) if source in text)
    found = extract_python(textwrap.dedent(code), "m.py", module="m")
    return [s.template.display for s in found if s.line == line]


def _fits(code: str, source: str, message: str) -> bool:
    line = next(i for i, text in enumerate(code.splitlines(), 1) if source in text)
    found = extract_python(textwrap.dedent(code), "m.py", module="m")
    return any(s.template.match(message) is not None for s in found if s.line == line)


def test_lines_left_out_by_a_none_argument_are_not_in_the_template() -> None:
    shown = _templates(MARKED, "raise MarkedError(None, None")
    # the mark's line printed when ``mark`` is not None, shown as the raise passes it
    # %r % "x" of a literal is the text it prints (test_folded)
    assert shown == ["expected a node, but found 'x'[\n{mark}]"]
    assert not any("None" in t for t in shown)  # context None: no line, no "None"
    assert _fits(MARKED, "raise MarkedError(None, None", str(raised(MARKED, "no_context(Mark(2))")))
    assert _fits(MARKED, "raise MarkedError(None, None", str(raised(MARKED, "no_context(None)")))


def test_a_mark_that_may_be_none_gives_each_way_the_lines_join() -> None:
    shown = _templates(MARKED, 'raise MarkedError("while parsing')
    assert "while parsing a block\n[{start}\n]expected <end>\n{mark}" in shown
    assert "while parsing a block\n[{start}\n]expected <end>" in shown
    for call in ("with_context(Mark(0), Mark(3))", "with_context(None, None)",
                 "with_context(Mark(1), None)"):  # fmt: skip
        message = str(raised(MARKED, call))
        assert _fits(MARKED, 'raise MarkedError("while parsing', message), (call, message)
