"""``yield Error(…)``: an exception a generator makes and its consumer raises is a site of
kind ``yield`` when its class is certainly an exception; the message is read as a raise's
(jsonschema's ``_Error``: ten values handed to ``Exception.__init__``, then a ``__str__``
that prints ``self.message`` alone or followed by more lines)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from errdex.extract.python import extract_python

from ._fixture import package_on_disk, sites_by_line

CODE = textwrap.dedent(
    """\
    class Bad(ValueError):
        pass

    class Thing:
        pass

    def gen(x, instance):
        if x:
            yield ValueError(f"{instance!r} is not {x}")
        yield Bad("bad one")
        yield Thing("not an error")
        yield Unknown("not certain")
        yield from other()
        got = yield KeyError("sent")
        yield
    """
)


def test_a_yielded_exception_is_a_site_of_kind_yield() -> None:
    sites = {s.line: s for s in extract_python(CODE, "m.py", module="m")}
    assert sorted(sites) == [9, 10]
    first = sites[9]
    assert (first.kind, first.error_class, first.qualified_class) == (
        "yield",
        "ValueError",
        "builtins.ValueError",
    )
    assert first.template.display == "{instance!r} is not {x}"
    assert [g.text for g in first.guards] == ["x"]
    assert (first.function, first.qualname) == ("gen", "m.gen")
    assert (sites[10].kind, sites[10].qualified_class) == ("yield", "m.Bad")


#: jsonschema 4.26's ``exceptions._Error`` and a keyword function of ``_keywords.py``.
ERRORS = '''\
from textwrap import dedent

_unset = object()


class _Error(Exception):
    def __init__(self, message, validator=_unset, path=(), cause=None, context=(),
                 validator_value=_unset, instance=_unset, schema=_unset):
        super().__init__(message, validator, path, cause, context, validator_value,
                         instance, schema)
        self.message = message
        self.validator = validator
        self.validator_value = validator_value
        self.instance = instance
        self.schema = schema

    def __str__(self):
        essential_for_verbose = (
            self.validator, self.validator_value, self.instance, self.schema,
        )
        if any(m is _unset for m in essential_for_verbose):
            return self.message
        prefix = 16 * " "
        return dedent(
            f"""\\
            {self.message}

            Failed validating {self.validator!r} in schema:
            {prefix}{self.schema}
            """.rstrip(),
        )


class ValidationError(_Error):
    pass
'''

KEYWORDS = """\
from pkg.errors import ValidationError


def type(validator, types, instance, schema):
    if not any(validator.is_type(instance, type) for type in types):
        reprs = ", ".join(repr(type) for type in types)
        yield ValidationError(f"{instance!r} is not of type {reprs}")
"""


def test_a_class_of_the_repository_whose_str_prints_its_message(tmp_path: Path) -> None:
    with package_on_disk(tmp_path, "pkg", {"errors": ERRORS, "_keywords": KEYWORDS}) as root:
        (site,) = sites_by_line(root, "src/pkg/_keywords.py").values()
        from pkg.errors import ValidationError

        printed = str(ValidationError("3 is not of type 'string'"))
    assert (site.kind, site.error_class) == ("yield", "ValidationError")
    assert site.template.display == "{instance!r} is not of type {reprs}"
    assert site.template.match(printed) is not None


def test_the_same_class_raised_has_the_same_message(tmp_path: Path) -> None:
    """What the ``yield`` reads is what a ``raise`` reads: the base ``__init__`` given ten
    values does not stop the reading when the class's own ``__str__`` prints."""
    raising = KEYWORDS.replace("yield ValidationError", "raise ValidationError")
    with package_on_disk(tmp_path, "pkg", {"errors": ERRORS, "_keywords": raising}) as root:
        (site,) = sites_by_line(root, "src/pkg/_keywords.py").values()
    assert (site.kind, site.template.display) == ("raise", "{instance!r} is not of type {reprs}")


def test_a_message_of_values_alone_is_the_message_not_the_longer_form(tmp_path: Path) -> None:
    """``f"{instance!r} {message}"`` has no words of its own: ``__str__``'s ``return
    self.message`` prints it, and the other return is that value then more lines, so the
    value the raise passed is the message (not ``{self.message}`` followed by lines)."""
    values = KEYWORDS.replace(
        '        yield ValidationError(f"{instance!r} is not of type {reprs}")',
        '        message = "should be non-empty" if types else "is too short"\n'
        '        yield ValidationError(f"{instance!r} {message}")',
    )
    with package_on_disk(tmp_path, "pkg", {"errors": ERRORS, "_keywords": values}) as root:
        (site,) = sites_by_line(root, "src/pkg/_keywords.py").values()
    assert site.template.display == "{instance!r} {message}"
    assert any("longer form" in note for note in site.notes)
