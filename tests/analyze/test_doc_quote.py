"""Which docstring text documentation quotes (blind review 2026-12-06: the first line
where a later sentence names the error, a doctest dump, a cut at "(cf.", a private
helper's summary)."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.doc_quote import docstring_quote, split_sentences
from errdex.scan import scan_checkout
from errdex.source import open_source

EXCEPTION = """Return the exception that was set on this future.

        The exception (or None if no exception was set) is returned only if
        the future is done.  If the future has been cancelled, raises
        CancelledError.  If the future isn't done yet, raises
        InvalidStateError.
        """

READ_LONG4 = r"""
    >>> import io
    >>> read_long4(io.BytesIO(b"\x02\x00\x00\x00\xff\x00"))
    255
    >>> read_long4(io.BytesIO(b"\x02\x00\x00\x00\xff\x7f"))
    32767
    """

OVERVIEW = """Parse a list of string representing the response to LIST OVERVIEW.FMT
    and return a list of header/metadata names.
    Raises NNTPDataError if the response is not compliant
    (cf. RFC 3977, section 8.4)."""

CREATE_TMP = "Create a file in the tmp subdirectory and open and return it."

FIND_MODULE = """**DEPRECATED**

    Search for a module.

    If path is omitted or None, search for a built-in, frozen or special
    module and continue search in sys.path.
    """


def _quote(
    doc: str, cls: str | None, *, tested: tuple[str, ...] = (), private: bool = False
) -> str | None:
    return docstring_quote(doc, error_class=cls, tested=tested, name="f", cls="", private=private)


def test_the_sentence_naming_the_class_is_quoted() -> None:
    assert _quote(EXCEPTION, "CancelledError") == (
        "Return the exception that was set on this future. … If the future has been "
        "cancelled, raises CancelledError."
    )


def test_no_doctest_is_quoted() -> None:
    assert _quote(READ_LONG4, "ValueError") is None


def test_a_sentence_does_not_end_inside_parentheses() -> None:
    assert split_sentences("Raises X if not compliant (cf. RFC 3977, section 8.4). Then.") == [
        "Raises X if not compliant (cf. RFC 3977, section 8.4).",
        "Then.",
    ]
    quoted = _quote(OVERVIEW, "NNTPDataError", private=True)
    assert (
        quoted
        == "Raises NNTPDataError if the response is not compliant (cf. RFC 3977, section 8.4)."
    )


def test_a_private_helper_summary_is_not_quoted() -> None:
    assert _quote(CREATE_TMP, "ExternalClashError", private=True) is None
    assert _quote(CREATE_TMP, "ExternalClashError") == CREATE_TMP


def test_a_marker_line_is_followed_by_the_next_paragraph() -> None:
    assert _quote(FIND_MODULE, "ImportError") == "**DEPRECATED** Search for a module."


def test_a_sentence_naming_a_tested_parameter() -> None:
    doc = """assert the mock has been called with the specified calls.

    If `any_order` is False (the default) then the calls must be
    sequential. There can be extra calls before or after the
    specified calls."""
    assert _quote(doc, "AssertionError", tested=("any_order",)) == (
        "assert the mock has been called with the specified calls. … If `any_order` is "
        "False (the default) then the calls must be sequential. There can be extra calls "
        "before or after the specified calls."
    )


def test_the_sentence_run_goes_on_to_its_paragraph_end() -> None:
    """``copyreg.remove_extension``: the quote cut "For testing only." (paired blind
    review, stop 36); a next sentence naming another class is that raise's, not this."""
    doc = "Unregister an extension code.  For testing only."
    assert _quote(doc, "ValueError", tested=("code",)) == doc.replace("  ", " ")
    sample = "Choose k elements. Repeated elements can be given. For example:\n\n  sample(x, 2)"
    assert _quote(sample, "ValueError") == "Choose k elements. Repeated elements can be given."
    assert _quote(EXCEPTION, "CancelledError") == (
        "Return the exception that was set on this future. … If the future has been "
        "cancelled, raises CancelledError."
    )


def test_a_class_sentence_about_another_raise_is_not_quoted() -> None:
    """``mock.create_autospec``: its docstring's RuntimeError sentence is about argument
    misspellings a helper checks, not the async-function raise."""
    doc = """Create a mock object using another object as a spec.

    `create_autospec` will raise a `RuntimeError` if passed some common
    misspellings of the arguments autospec and spec_set."""
    context = {"instance", "true", "mocking", "async", "function"}
    quoted = docstring_quote(
        doc,
        error_class="RuntimeError",
        tested=(),
        name="create_autospec",
        cls="",
        private=False,
        context=context,
    )
    assert quoted == "Create a mock object using another object as a spec."
    cancelled = docstring_quote(
        EXCEPTION,
        error_class="CancelledError",
        tested=(),
        name="exception",
        cls="",
        private=False,
        context={"state", "cancelled"},
    )
    assert cancelled is not None and "raises CancelledError" in cancelled


def test_a_run_on_parameter_list_is_not_quoted_cut() -> None:
    """``uuid.UUID.__init__``: the Args-like run-on text naming ``fields`` is longer than
    a quote and would end mid-word."""
    doc = "Create a UUID.\n\n" + "Pass fields as " + "a tuple of six integers, " * 20 + "in order."
    quoted = docstring_quote(
        doc, error_class=None, tested=("fields",), name="f", cls="", private=True
    )
    assert quoted is None


AUTOSPEC = '''\
def create_autospec(spec, instance=False):
    """Create a mock object using another object as a spec.

    `create_autospec` will raise a `RuntimeError` if passed some common
    misspellings of the arguments autospec and spec_set.
    """
    if instance and callable(spec):
        raise RuntimeError("Instance can not be True when mocking a function spec")
    return spec
'''


def test_a_parameter_name_does_not_tie_a_class_sentence_to_the_raise(tmp_path: Path) -> None:
    (tmp_path / "autospec.py").write_text(AUTOSPEC)
    result = scan_checkout(open_source(str(tmp_path), repo="o/a"), repo="o/a")
    ((record, _),) = result.items
    assert "misspellings" not in record["documentation"]
    assert "“Create a mock object using another object as a spec”" in record["documentation"]


def test_a_run_stops_at_a_header_a_doctest_or_a_list() -> None:
    """A numpy header with no blank line before it, "For example" before a doctest and
    "Valid modes are" before a list were quoted as the sentence's run (re-reader,
    stop 38)."""
    numpy = "Open the archive.\n\nIf the name is missing, raises KeyError. It is then closed.\nReturns\n-------\nobj : thing\n"
    example = "Parse it. Raises ValueError on bad input. For example\n>>> parse('x')\nTraceback\n"
    bullets = 'Set the mode. Raises ValueError for a bad mode. Valid modes are\n- "r" to read\n- "w" to write\n'
    said = [
        docstring_quote(d, error_class=c, tested=[], name="f", cls="", private=False)
        for d, c in ((numpy, "KeyError"), (example, "ValueError"), (bullets, "ValueError"))
    ]
    assert said == [
        "Open the archive. … If the name is missing, raises KeyError. It is then closed.",
        "Parse it. Raises ValueError on bad input.",
        "Set the mode. Raises ValueError for a bad mode.",
    ]


def test_a_summary_does_not_end_on_a_list_s_lead_in() -> None:
    """nntplib's "Process a NEWGROUPS command.  Arguments:" over a list (stop 38)."""
    doc = "Process a NEWGROUPS command.  Arguments:\n- date: a date or datetime object\n"
    said = docstring_quote(
        doc, error_class=None, tested=[], name="newgroups", cls="NNTP", private=False
    )
    assert said == "Process a NEWGROUPS command."
