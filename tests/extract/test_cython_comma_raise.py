"""``raise Class, message`` (Cython's Python 2 form) and casts inside f-string fields, as
lxml writes them: each message read as a template that fits what the raise prints."""

from __future__ import annotations

import re
import textwrap

from errdex.extract.cython import extract_cython
from errdex.extract.site import ErrorSite
from errdex.template import MessageTemplate

LXML = textwrap.dedent(
    """\
    cdef int _tagValidOrRaise(tag_utf) except -1:
        if not _pyXmlNameIsValid(tag_utf):
            raise ValueError(f"Invalid tag name {(<bytes>tag_utf).decode('utf8')!r}")
        return 0

    def ProcessingInstruction(target, text=None):
        target = _utf8(target)
        if target.lower() == b'xml':
            raise ValueError, f"Invalid PI name '{target}'"

    def tostring(element_or_tree):
        raise TypeError, f"Type '{python._fqtypename(element_or_tree).decode('utf8')}' cannot be serialized."

    def Entity(name):
        raise ValueError, "Invalid entity"

    def pair(a):
        raise KeyError, (a, 1)

    def nothing():
        raise ValueError, None

    def again(inst):
        raise ValueError, inst

    def formatted(a):
        raise ValueError, "bad %s" % a
    """
)


def _sites() -> dict[int, ErrorSite]:
    return {s.line: s for s in extract_cython(LXML, "lxml/etree.pyx")}


def _fits(template: MessageTemplate, message: str) -> bool:
    """The runtime message in full, as the matcher reads the pattern."""
    return re.fullmatch(template.pattern, message) is not None


def test_a_cast_inside_an_f_string_field_keeps_the_f_string_template() -> None:
    site = _sites()[3]
    assert site.template.display == "Invalid tag name {(<bytes>tag_utf).decode('utf8')!r}"
    assert site.style == "fstring"
    assert _fits(site.template, "Invalid tag name 'a b'")


def test_raise_class_comma_message_reads_the_message_as_a_call_would() -> None:
    sites = _sites()
    pi, typed, literal = sites[9], sites[12], sites[15]
    assert (pi.error_class, pi.style) == ("ValueError", "fstring")
    assert _fits(pi.template, "Invalid PI name 'b'xml''")
    assert _fits(typed.template, "Type 'int' cannot be serialized.")
    assert literal.template.display == "Invalid entity"
    assert (literal.error_class, literal.qualified_class) == ("ValueError", "builtins.ValueError")


def test_raise_class_comma_tuple_passes_its_items() -> None:
    """``raise E, (a, 1)`` is ``raise E(a, 1)``: the args tuple, not one value."""
    site = _sites()[18]
    assert site.error_class == "KeyError"
    assert not _fits(site.template, "x")


def test_raise_class_comma_none_is_the_class_alone() -> None:
    """Cython's ``__Pyx_Raise`` takes a value of None as no value: ``raise E, None``
    prints an empty message, not ``None``."""
    site = _sites()[21]
    assert site.error_class == "ValueError"
    assert site.template.display == ""
    assert not _fits(site.template, "None")


def test_raise_class_comma_name_is_not_read_as_a_message() -> None:
    """``raise E, inst`` re-raises ``inst`` when it is an E already: a value that is not
    text is not made the message of a call (the site is read as before), while a
    formatted string is."""
    again, formatted = _sites()[24], _sites()[27]
    assert again.template.display == "{inst}"
    assert again.style == "cython_syntax"
    assert formatted.template.display == "bad %s"
    assert _fits(formatted.template, "bad x")
