"""A raise a handler of the same function certainly catches and turns into another
exception stays a site (a traceback prints it as cause or context) and carries where the
handler raises, the class and message raised there, and how the two are linked."""

from __future__ import annotations

import textwrap
from typing import Any

from errdex.extract.python import extract_python

CODE = """\
class Error(Exception):
    pass


def urlencode(query):
    try:
        if len(query) and not isinstance(query[0], tuple):
            raise TypeError
    except TypeError as err:
        raise TypeError("not a valid non-string sequence "
                        "or mapping object") from err


def as_context(v):
    try:
        raise KeyError("missing")
    except KeyError:
        raise Error("bad")


def hidden(v):
    try:
        raise KeyError("hidden")
    except KeyError:
        raise Error("shown alone") from None


def sometimes(v):
    try:
        raise KeyError("maybe converted")
    except KeyError:
        if v:
            return None
        raise Error("only when v is false")


def maybe_caught(v):
    try:
        raise KeyError("maybe caught first")
    except LookupError:
        log(v)
    except KeyError:
        raise Error("after")


def from_other(v, other):
    try:
        raise KeyError("replaced as cause")
    except KeyError:
        raise Error("from another") from other
"""


def _by_message() -> dict[str, Any]:
    sites = extract_python(textwrap.dedent(CODE), "m.py", module="m")
    return {s.template.display or s.error_class: s for s in sites}


def test_a_raise_its_handler_converts_records_what_the_caller_gets() -> None:
    found = _by_message()
    bare = found["TypeError"]  # urllib.parse.urlencode's ``raise TypeError``
    assert bare.line == 8
    assert bare.conversion == {
        "line": 10,
        "handlerLine": 9,
        "class": "TypeError",
        "qualifiedClass": "builtins.TypeError",
        "message": "not a valid non-string sequence or mapping object",
        "link": "cause",
    }
    assert bare.evidence()["conversion"]["line"] == 10
    context = found["'missing'"].conversion
    assert context is not None
    assert (context["class"], context["message"], context["link"]) == ("Error", "bad", "context")


def test_no_conversion_is_said_where_it_is_not_certain() -> None:
    found = _by_message()
    assert "'hidden'" not in found  # from None: no site at all (caught.py)
    for message in ("'maybe converted'", "'maybe caught first'", "'replaced as cause'"):
        assert found[message].conversion is None, message
        assert "conversion" not in found[message].evidence()
    # the converting raises themselves are plain sites
    assert found["not a valid non-string sequence or mapping object"].conversion is None
