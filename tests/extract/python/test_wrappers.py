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
    assert set(_templates(CONTEXT, "raise Invalid(\"path")) == {"path or url must be provided"}
    printed = str(_raised(CONTEXT, "check_hash({})"))
    templates = _templates(CONTEXT, "raise Invalid(\"At least")
    assert set(templates) == {"At least one hash must be provided"}
    assert templates["At least one hash must be provided"].match(printed) is not None
