"""Raises entries in the three docstring styles, with the lines they start on."""

from __future__ import annotations

from errdex.analyze.docstrings import DocEntry, names_class, parse_raises, summary

GOOGLE = """Add an edge.

    Args:
        u: a node

    Raises:
        ValueError: If u is None
            or v is None.
        nx.NetworkXError: When the graph is frozen.

    Returns:
        None
    """

NUMPY = """Shortest path.

    Parameters
    ----------
    G : graph

    Raises
    ------
    NodeNotFound
        If `source` is not in `G`.
    TypeError, ValueError
        Bad arguments.

    See Also
    --------
    all_paths
    """

SPHINX = """Read a file.

    :param path: where
    :raises OSError: if the file
        cannot be read
    :raises: KeyError when the section is missing
    :raise ~pkg.errors.ParseError: on bad syntax
    :returns: the data
    """


def test_google_style() -> None:
    assert parse_raises(GOOGLE, 10) == [
        DocEntry("google", ("ValueError",), "If u is None or v is None.", 16),
        DocEntry("google", ("nx.NetworkXError",), "When the graph is frozen.", 18),
    ]


def test_numpy_style() -> None:
    assert parse_raises(NUMPY, 1) == [
        DocEntry("numpy", ("NodeNotFound",), "If `source` is not in `G`.", 9),
        DocEntry("numpy", ("TypeError", "ValueError"), "Bad arguments.", 11),
    ]


def test_sphinx_style() -> None:
    assert parse_raises(SPHINX, 1) == [
        DocEntry("sphinx", ("OSError",), "if the file cannot be read", 4),
        DocEntry("sphinx", ("KeyError",), "when the section is missing", 6),
        DocEntry("sphinx", ("pkg.errors.ParseError",), "on bad syntax", 7),
    ]


def test_names_class_compares_the_last_dotted_part() -> None:
    google = parse_raises(GOOGLE, 1)
    assert names_class(google[1], "NetworkXError")
    assert not names_class(google[1], "Error")
    sphinx = parse_raises(SPHINX, 1)
    assert names_class(sphinx[2], "ParseError")


def test_sentences_are_not_classes() -> None:
    doc = """Do it.

    Raises
    ------
    If anything goes wrong, an error.
    """
    assert parse_raises(doc, 1) == []
    assert parse_raises(None, 1) == []


def test_summary_is_the_first_paragraph() -> None:
    assert summary(NUMPY) == "Shortest path."
    assert summary("\n\n  Two\n  lines.\n\n  More.") == "Two lines."
    assert summary(None) is None
    deprecated = ".. deprecated:: 3.5\n\n   `f` is an alias of `g`.\n"
    assert summary(deprecated) == "`f` is an alias of `g`."


def test_what_a_docstring_says_of_one_parameter() -> None:
    from errdex.analyze.docstrings import param_doc

    numpy = """Build.

    Parameters
    ----------
    rows : int
        Number of rows;
        must be non-negative.
    cols : int

    Returns
    -------
    rows
        Not a parameter.
    """
    google = """Wait.

    Args:
        timeout (float): Seconds to wait. Must be positive.
        *args: passed on.

    Returns:
        timeout: not this one.
    """
    sphinx = """Send.

    :param int retries: how often to try,
        at least 1.
    :returns: the reply
    """
    assert param_doc(numpy, "rows") == "Number of rows; must be non-negative."
    assert param_doc(numpy, "cols") is None  # named, but it says nothing
    assert param_doc(google, "timeout") == "Seconds to wait. Must be positive."
    assert param_doc(google, "args") == "passed on."
    assert param_doc(sphinx, "retries") == "how often to try, at least 1."
    assert param_doc(sphinx, "reply") is None


def test_a_summary_that_says_only_the_name() -> None:
    """A private helper's "Construct a _Stream object" is not quoted as documentation
    (blind review 2026-12-06); a summary that says more is."""
    from errdex.analyze.docstrings import says_only_the_name

    assert says_only_the_name("Construct a _Stream object.", "__init__", "tarfile._Stream")
    assert says_only_the_name("Handles an error", "_raise_error", "_pydecimal.Context")
    assert says_only_the_name("Create read pipe transport", "_make_read_pipe_transport")
    assert not says_only_the_name("Read data from the stream until EOF.", "_read", "_Stream")
    assert not says_only_the_name("Hash", "")  # nothing names it
