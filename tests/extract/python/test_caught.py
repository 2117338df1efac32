"""Raises a handler of the same function catches and hides are no sites; the ones a
caller may still see (re-raised, read, shown as context, maybe caught) stay."""

from __future__ import annotations

import textwrap

from errdex.extract.python import extract_python

CODE = """\
class Error(Exception):
    pass


def group_index(name):
    try:
        index = int(name)
        if index < 0:
            raise ValueError
    except ValueError:
        raise Error("bad character in group name %r" % name) from None
    return index


def swallowed(v):
    try:
        if v.startswith("$"):
            raise ValueError
        v = int(v)
    except ValueError:
        v = v.replace("$$", "$")
    return v


def shown_as_context(v):
    try:
        raise ValueError("not a number")
    except ValueError:
        raise Error("bad")


def reraised(v):
    try:
        raise ValueError("kept")
    except ValueError:
        if v:
            raise
        return None


def read(v, log):
    try:
        raise ValueError("read")
    except ValueError as exc:
        log(exc)


def other_first(v):
    try:
        raise KeyError("after an unrelated handler")
    except ValueError:
        pass
    except KeyError:
        pass


def maybe_first(v):
    try:
        raise KeyError("after a handler that may catch it")
    except LookupError:
        log(v)
    except KeyError:
        pass


def defined_inside(v):
    try:
        def inner():
            raise ValueError("raised when inner runs")
        return inner
    except ValueError:
        pass
"""


def _messages() -> set[str]:
    return {s.template.display for s in extract_python(textwrap.dedent(CODE), "m.py", module="m")}


def test_a_raise_its_own_handler_hides_is_no_site() -> None:
    found = _messages()
    # re._parser's ``raise ValueError`` turned into ``error(...) from None``, and one
    # swallowed: neither is ever seen, not even as context
    assert "ValueError" not in found
    assert any(m.startswith("bad character in group name") for m in found)
    assert "'after an unrelated handler'" not in found  # a KeyError prints its repr


def test_a_raise_a_caller_may_still_see_stays() -> None:
    found = _messages()
    assert {
        "not a number",  # the traceback shows it as the context of Error("bad")
        "kept",  # re-raised
        "read",  # the handler passes it on
        "'after a handler that may catch it'",  # LookupError's handler comes first
        "raised when inner runs",  # the try does not run inner's body
    } <= found
