"""Exception classes that wrap a context around a message (packaging's
``PylockValidationError``/``DirectUrlValidationError``): each site's templates are exactly
what ``str()`` of the real exception prints, checked by running the fixture."""

from __future__ import annotations

import textwrap
from typing import Any

from errdex.extract.python import extract_python

CONTEXT = """\
class Invalid(Exception):
    context = None
    message = ""

    def __init__(self, cause, *, context=None):
        if isinstance(cause, Invalid):
            if cause.context:
                self.context = f"{context}.{cause.context}" if context else cause.context
            else:
                self.context = context
            self.message = cause.message
        else:
            self.context = context
            self.message = str(cause)

    def __str__(self):
        if self.context:
            return f"{self.message} in {self.context!r}"
        return self.message


def check_path(path, url):
    if not path and not url:
        raise Invalid("path or url must be provided")


def check_hash(hashes):
    if not hashes:
        raise Invalid("At least one hash must be provided", context=None)


def get_object(d, target, key):
    try:
        return target(d[key])
    except Exception as e:
        raise Invalid(e, context=key) from e


def get_items(d, target, key):
    result = []
    try:
        for item in d[key]:
            result.append(target(item))
    except Exception as e:
        raise Invalid(e, context=f"{key}[{len(result)}]") from e


def inner(value):
    if value < 0:
        raise Invalid("Negative", context="size")
    if value == 0:
        raise Invalid("Zero")
    raise ValueError(f"bad value {value}")
"""


def _templates(code: str, source: str) -> dict[str, Any]:
    """The templates of the line of ``code`` holding ``source``."""
    line = next(i for i, text in enumerate(code.splitlines(), 1) if source in text)
    found = extract_python(textwrap.dedent(code), "m.py", module="m")
    return {s.template.display: s.template for s in found if s.line == line}


def _raised(code: str, call: str) -> BaseException:
    scope: dict[str, Any] = {}
    exec(compile(textwrap.dedent(code), "m.py", "exec"), scope)
    try:
        exec(call, scope)
    except BaseException as exc:  # whatever it raises is what is checked
        return exc
    raise AssertionError(f"{call} raised nothing")


def test_a_context_left_none_never_prints() -> None:
    """pylock.py:267: ``if self.context:`` with the context None is false, so ``in 'None'``
    is no message this raise can print."""
    printed = str(_raised(CONTEXT, "check_path('', None)"))
    assert printed == "path or url must be provided"
    assert set(_templates(CONTEXT, 'raise Invalid("path')) == {"path or url must be provided"}
    printed = str(_raised(CONTEXT, "check_hash({})"))
    templates = _templates(CONTEXT, 'raise Invalid("At least')
    assert set(templates) == {"At least one hash must be provided"}
    assert templates["At least one hash must be provided"].match(printed) is not None


def test_a_wrapper_of_a_caught_error_prints_its_message_in_the_context() -> None:
    """``raise Invalid(e, context=key) from e``: ``__init__`` takes ``e``'s message (its own
    or, for one of its kind, its message and context) and ``__str__`` adds the context; every
    form the runtime prints must be matched, and the context must be in the template."""
    calls = {
        "get_object({'k': -1}, inner, 'k')": "Negative in 'k.size'",
        "get_object({'k': 0}, inner, 'k')": "Zero in 'k'",
        "get_object({'k': 5}, inner, 'k')": "bad value 5 in 'k'",
    }
    wrapped = _templates(CONTEXT, "raise Invalid(e, context=key)")
    assert wrapped and all(" in " in "".join(t.literals) for t in wrapped.values())
    for call, expected in calls.items():
        printed = str(_raised(CONTEXT, call))
        assert printed == expected
        assert any(t.match(printed) is not None for t in wrapped.values()), (printed, wrapped)
    items = _templates(CONTEXT, 'context=f"{key}[{len(result)}]"')
    assert items and not any(t.is_opaque for t in items.values())
    for value, expected in ((-1, "Negative in 'k[0].size'"), (3, "bad value 3 in 'k[0]'")):
        printed = str(_raised(CONTEXT, f"get_items({{'k': [{value}]}}, inner, 'k')"))
        assert printed == expected
        fits = [t for t in items.values() if t.match(printed) is not None]
        assert fits, (printed, items)
        # the wrapper's own context is literal text in every template that fits
        assert all("[" in "".join(t.literals) for t in fits)
