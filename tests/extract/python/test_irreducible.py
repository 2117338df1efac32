"""Single-hole templates that say they are irreducible, and only those: each fixture's
raise is run, and what ``str()`` prints is the one value the hole names."""

from __future__ import annotations

import textwrap

from errdex.extract.python import extract_python

from ._fixture import raised

CODE = """\
class BadStatusLine(Exception):
    pass


class Reader:
    def __init__(self, fp):
        self.fp = fp

    def status(self):
        line = str(self.fp.readline(65537), "iso-8859-1")
        if not line:
            raise BadStatusLine(line or "empty")
        raise BadStatusLine(line)


def first_error(errors):
    raise errors.pop()


def from_side_effect(effect):
    result = next(effect)
    raise result


def reply(dat):
    raise ValueError(dat[-1].decode("utf-8", "replace"))


def truncated(kind, name):
    raise ValueError(("invalid %s %r" % (kind, name))[:256])
"""


def _notes() -> dict[str, list[str]]:
    found = extract_python(textwrap.dedent(CODE), "m.py", module="m")
    lines = CODE.splitlines()
    return {lines[s.line - 1].strip(): list(s.notes) for s in found}


def _irreducible(notes: list[str]) -> list[str]:
    return [n for n in notes if n.startswith("irreducible")]


def test_an_exception_handed_back_at_run_time_is_irreducible_once() -> None:
    notes = _notes()
    for raise_line in ("raise errors.pop()", "raise result"):
        (said,) = _irreducible(notes[raise_line])
        assert "made elsewhere at run time" in said
    stored = KeyError("stored")
    assert str(raised(CODE, "first_error([KeyError('stored')])")) == str(stored)


def test_decoded_text_read_at_run_time_is_irreducible() -> None:
    notes = _notes()
    (said,) = _irreducible(notes["raise BadStatusLine(line)"])
    assert "text read at run time (`self.fp.readline`)" in said
    (said,) = _irreducible(notes['raise ValueError(dat[-1].decode("utf-8", "replace"))'])
    assert "`dat[-1].decode" in said
    exc = raised(CODE, "import io; Reader(io.BytesIO(b'HTTP/9 x\\r\\n')).status()")
    assert str(exc) == "HTTP/9 x\r\n"  # the line read, nothing added
    assert str(raised(CODE, "reply([b'NO', b'bad'])")) == "bad"


def test_a_slice_of_formatted_text_is_not_one_value() -> None:
    notes = _notes()
    assert _irreducible(notes['raise ValueError(("invalid %s %r" % (kind, name))[:256])']) == []
    assert str(raised(CODE, "truncated('enum', 'X')")) == "invalid enum 'X'"
