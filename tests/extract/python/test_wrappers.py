"""Exception classes that wrap a context around a message (packaging's
``PylockValidationError``/``DirectUrlValidationError``): each site's templates are exactly
what ``str()`` of the real exception prints, checked by running the fixture."""

from __future__ import annotations

from ._fixture import raised, templates_at

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


def test_a_context_left_none_never_prints() -> None:
    """pylock.py:267: ``if self.context:`` with the context None is false, so ``in 'None'``
    is no message this raise can print."""
    printed = str(raised(CONTEXT, "check_path('', None)"))
    assert printed == "path or url must be provided"
    assert set(templates_at(CONTEXT, 'raise Invalid("path')) == {"path or url must be provided"}
    printed = str(raised(CONTEXT, "check_hash({})"))
    templates = templates_at(CONTEXT, 'raise Invalid("At least')
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
    wrapped = templates_at(CONTEXT, "raise Invalid(e, context=key)")
    assert wrapped and all(" in " in "".join(t.literals) for t in wrapped.values())
    for call, expected in calls.items():
        printed = str(raised(CONTEXT, call))
        assert printed == expected
        assert any(t.match(printed) is not None for t in wrapped.values()), (printed, wrapped)
    items = templates_at(CONTEXT, 'context=f"{key}[{len(result)}]"')
    assert items and not any(t.is_opaque for t in items.values())
    for value, expected in ((-1, "Negative in 'k[0].size'"), (3, "bad value 3 in 'k[0]'")):
        printed = str(raised(CONTEXT, f"get_items({{'k': [{value}]}}, inner, 'k')"))
        assert printed == expected
        fits = [t for t in items.values() if t.match(printed) is not None]
        assert fits, (printed, items)
        # the wrapper's own context is literal text in every template that fits
        assert all("[" in "".join(t.literals) for t in fits)
