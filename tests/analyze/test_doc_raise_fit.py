"""A docstring's raise sentence is quoted for a raise only where it is about that raise
(read-only review, session 38: ``Reader.load``'s sentence about ``_parse``'s raise, and
a "never raises" sentence, were quoted as when it raises)."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.doc_raise_fit import meets, negated
from errdex.scan import scan_checkout
from errdex.source import open_source

LIBRARY = '''\
def _parse(text):
    if not text.strip():
        raise ValueError("empty document")
    return text


def _deep(text):
    if text is None:
        raise EOFError("nothing left")
    return text


class Reader:
    def __init__(self, text):
        self._text = text
        self._closed = False

    def close(self):
        self._closed = True

    def load(self):
        """Load the document.

        Raises ValueError if the document is empty.
        """
        if self._closed:
            raise ValueError("I/O operation on closed reader")
        return _parse(self._text)

    def reload(self):
        """Load it again.

        Raises ValueError if the reader is closed.
        """
        if self._closed:
            raise ValueError("I/O operation on closed reader")
        return _parse(self._text)

    def getchar(self):
        \"\"\"Get a char. Raise EOFError when the reader is at its end.\"\"\"
        if not self._text:
            self._fill()
            if self._closed:
                raise EOFError
        return self._text[0]

    def _fill(self):
        self._text = _deep(self._text)

    def peek(self):
        """Peek. Unlike read, this never raises ValueError when the reader is closed."""
        if self._closed and self._text is None:
            raise ValueError("nothing to peek")
        return self._text[:1]
'''


def _said(tmp_path: Path) -> dict[tuple[str, int], str]:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "core.py").write_text(LIBRARY)
    result = scan_checkout(open_source(str(tmp_path), repo="o/dr"), repo="o/dr")
    return {(r["errorMessage"], r["lineNumber"]): r["commonSituations"] for r, _ in result.items}


def test_a_sentence_about_a_callees_raise_is_not_quoted(tmp_path: Path) -> None:
    said = _said(tmp_path)
    load = said[("I/O operation on closed reader", 27)]
    assert "docstring" not in load and "document is empty" not in load
    # the same raise where the sentence's condition meets its guard (``self._closed``)
    assert said[("I/O operation on closed reader", 36)] == (
        "The docstring of `Reader.reload()` says: “Raises ValueError if the reader is closed”."
    )


def test_a_deeper_callees_raise_does_not_hide_the_functions_own(tmp_path: Path) -> None:
    """``Telnet.rawq_getchar``: "Raise EOFError when connection is closed" is its own."""
    said = _said(tmp_path)
    assert said[("EOFError (no message)", 44)].startswith(
        "The docstring of `Reader.getchar()` says:"
    )


def test_a_sentence_that_says_it_never_raises_is_not_quoted(tmp_path: Path) -> None:
    assert "never raises" not in _said(tmp_path)[("nothing to peek", 53)]


def test_denials_and_condition_words() -> None:
    assert negated("This function never raises ValueError, even if x is bad.")
    assert negated("ValueError is not raised when the reader is closed.")
    assert negated("It doesn't raise KeyError if the key is missing.")
    assert not negated("Raises KeyError if the key is not found.")
    assert not negated("If x is not a string, raises TypeError.")
    assert meets("Raises ValueError if the reader is closed", ["self._closed"])
    assert not meets("Raises ValueError if the document is empty", ["self._closed"])
    # ``typing.get_type_hints``: a plural in the guard meets the sentence's singular
    assert meets(
        "TypeError is raised if the argument is not of a type that can contain annotations",
        ["not isinstance(obj, _allowed_types)"],
    )
