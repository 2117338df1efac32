"""The docstring sentence quoted as a fix names the parameter or the tested condition."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import one_file_items

SOURCE = '''
import re

_embedded = re.compile("\\n[^ \\t]+:")


class ParseError(ValueError):
    pass


def encode(value, linesep="\\n"):
    """Encode a header value.

    Only certain character sets are readable in most email clients, and as header
    strings can only contain a subset of ASCII, care must be taken to convert them.
    """
    if _embedded.search(value):
        raise ParseError("header value appears to contain an embedded header")
    return value


def _entries(path):
    return [path]


def remove(name):
    """Remove a folder.

    A folder that holds messages must not be removed while a reader is open. The folder
    given by ``name`` must hold no messages.
    """
    path = "/tmp/" + name
    if _entries(path):
        raise ValueError("Folder contains messages: %s" % name)
    return path
'''


def test_a_sentence_on_neither_the_parameter_nor_the_condition(tmp_path: Path) -> None:
    """``email.header.Header.encode``: "Only certain character sets are readable in most
    email clients, and as header strings can only contain ... care must be taken"
    shares words with the message, but says nothing of the check (an embedded header in
    the value): quoted as what the call requires, it misled."""
    items = one_file_items(tmp_path, "m.py", SOURCE)
    by_message = {r["errorMessage"]: r["solutions"] for r, _ in items}
    encoded = by_message["header value appears to contain an embedded header"]
    assert not any("states what the call requires" in s for s in encoded)
    # of two requirement sentences, the one that names the parameter (``name``, as code:
    # plain "name" is an ordinary word)
    (first, *_) = by_message["Folder contains messages: %s"]
    assert first == (
        "The docstring of `remove()` states what the call requires: "
        "“The folder given by `name` must hold no messages”."
    )


def test_a_parameter_is_named_as_code_not_as_an_ordinary_word() -> None:
    """Re-read of the merged change (session 37): a parameter ``a`` matched the article
    "a", ``value`` the noun; such a sentence is no requirement on the parameter."""
    from errdex.analyze.stated_fixes import _requirement

    said = {"digits", "string", "must"}
    sentence = "The key must be a string of digits."
    assert _requirement(sentence, said, {"a"}, set()) is None
    assert _requirement("The value must be a string of digits.", said, {"value"}, set()) is None
    quoted = "The `value` must be a string of digits."
    assert _requirement(quoted, said, {"value"}, set()) == quoted
    assert _requirement("The timeout_s must be a string of digits.", said, {"timeout_s"}, set())
    # a name no generic noun (``HyperParser.set_index(index)``) is still named plainly
    index = "The index must be in the same statement."
    assert _requirement(index, {"index", "same", "statement"}, {"index"}, set()) == index
