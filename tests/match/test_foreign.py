"""Other languages' trace parsers: registered in one place, tried before Python's."""

from __future__ import annotations

import pytest

from errdex.match import foreign
from errdex.match._paste_model import Frame, PastedError
from errdex.match.api import errors_in


def parse(text: str) -> list[PastedError]:
    """A toy runtime whose traces start with ``TOY PANIC:``."""
    if not text.startswith("TOY PANIC: "):
        return []
    first, *rest = text.splitlines()
    frames = [
        Frame(
            path=line.split(":")[0].strip(),
            line=int(line.split(":")[1]),
            function=None,
            source=None,
        )
        for line in rest
    ]
    return [PastedError(error_class="ToyError", message=first[len("TOY PANIC: ") :], frames=frames)]


def test_a_registered_parser_answers_its_own_traces_first(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(foreign, "TRACE_PARSERS", (__name__,))
    (error,) = errors_in(b"TOY PANIC: the toy broke\n  lib/toy.toy:12\n")
    assert (error.error_class, error.message) == ("ToyError", "the toy broke")
    assert [(f.path, f.line) for f in error.frames] == [("lib/toy.toy", 12)]
    python = (
        'Traceback (most recent call last):\n  File "m.py", line 1, in <module>\nValueError: bad\n'
    )
    (py_error,) = errors_in(python)
    assert (py_error.error_class, py_error.message) == ("ValueError", "bad")
