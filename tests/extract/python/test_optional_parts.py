"""Alternatives of one site that differ by a part printed on some ways only are one
template with that part optional (``template.fold_optional``, applied where the Python
extractor adds a site), checked against ``str()`` of what the stdlib really raises."""

from __future__ import annotations

import argparse
import optparse
import re

import pytest

from .test_stdlib_forms import sites_at


def _raised(call: object) -> str:
    with pytest.raises(Exception) as caught:
        call()  # type: ignore[operator]
    return str(caught.value)


def _parse(argv: list[str], setup: object) -> None:
    parser = argparse.ArgumentParser(exit_on_error=False)
    setup(parser)  # type: ignore[operator]
    parser.parse_args(argv)


def test_re_error_position_with_line_and_column_only_on_several_lines() -> None:
    (site,) = sites_at("re/_parser.py", 'raise source.error("missing :")')
    assert site.template.display == "missing : at position %d[ (line %d, column %d)]"
    one_line = _raised(lambda: re.compile("(?-i"))
    two_lines = _raised(lambda: re.compile("a\n(?-i"))
    assert (one_line, two_lines) == (
        "missing : at position 4",
        "missing : at position 6 (line 2, column 5)",
    )
    # the holes are named by their place in each format: ``%d`` 1 of ``'%s at position %d'``
    assert site.template.match(one_line) == {"1": "4"}
    assert site.template.match(two_lines) is not None
    assert site.template.match("missing : at position four") is None  # ``%d``: digits
    assert any("printed on some ways only" in n for n in site.notes)


def test_argparse_error_with_and_without_the_argument_name() -> None:
    # ``ArgumentError.__str__`` prints ``argument NAME: `` unless the action has no name,
    # which a subparsers action with no parsers (dest SUPPRESS, no choices) does not
    (site,) = sites_at("argparse.py", "invalid choice: %(value)r (choose from %(choices)s)", 1)
    assert site.template.display == (
        "[argument %(argument_name)s: ]invalid choice: %(value)r (choose from %(choices)s)"
    )
    named = _raised(lambda: _parse(["-x", "q"], lambda p: p.add_argument("-x", choices=["a"])))
    bare = _raised(lambda: _parse(["b"], lambda p: p.add_subparsers()))
    assert named == "argument -x: invalid choice: 'q' (choose from 'a')"
    assert bare == "invalid choice: 'b' (choose from )"
    assert site.template.match(named) is not None and site.template.match(bare) is not None


def test_argparse_type_error_prints_its_text_after_the_argument_name() -> None:
    # ``raise ArgumentError(action, str(err))``: the caught error's text, shown as the
    # raise passes it, in both forms (it was ``{msg}`` alone, marked irreducible)
    (site,) = sites_at("argparse.py", "msg = str(err)", 1)
    assert site.template.display == "[argument %(argument_name)s: ]{msg}"
    assert not any(n.startswith("irreducible") for n in site.notes)

    def spam(text: str) -> None:
        raise argparse.ArgumentTypeError("spam!")

    printed = _raised(lambda: _parse(["-x", "q"], lambda p: p.add_argument("-x", type=spam)))
    assert printed == "argument -x: spam!"
    assert site.template.match(printed) == {"argument_name": "-x", "msg": "spam!"}


def test_optparse_option_error_with_and_without_the_option() -> None:
    # ``OptionError(msg, self)`` prints ``option -x: `` unless ``str(option)`` is empty,
    # as it is while the first option string is being checked
    (site,) = sites_at("optparse.py", '"invalid option string %r: "', -1)
    assert site.template.display == (
        "[option %s: ]invalid option string %r: must be at least two characters long"
    )
    bare = _raised(lambda: optparse.Option("-"))
    named = _raised(lambda: optparse.Option("-x", "-"))
    assert bare == "invalid option string '-': must be at least two characters long"
    assert named == "option -x: invalid option string '-': must be at least two characters long"
    assert site.template.match(bare) is not None and site.template.match(named) is not None


TAGGED = """\
class TemplateError(Exception):
    def __init__(self, message, lineno, name=None):
        self.message = message
        self.lineno = lineno
        self.name = name

    def __str__(self):
        return "%s (line %s)" % (self.message, self.lineno)


def fail(name, template_name):
    raise TemplateError(f"Encountered unknown tag {name!r}.", 3, template_name)
"""


def test_a_hole_the_raise_passes_keeps_its_name_beside_a_parameter_of_that_name() -> None:
    # jinja2's ``TemplateSyntaxError(msg, lineno, name)``: ``{name!r}`` is the tag, not
    # the ``name`` parameter the raise fills with ``template_name``
    from ._fixture import raised, templates_at

    (display,) = templates_at(TAGGED, "raise TemplateError(")
    assert display == "Encountered unknown tag {name!r}. (line 3)"
    printed = str(raised(TAGGED, "fail('x', 'page.html')"))
    assert printed == "Encountered unknown tag 'x'. (line 3)"
    assert templates_at(TAGGED, "raise TemplateError(")[display].match(printed) is not None
