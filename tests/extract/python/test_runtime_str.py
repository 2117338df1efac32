"""Templates as the runtime prints them: each site's template must match ``str()`` of the
exception that its raise really raises (the fixture's functions are run to get it)."""

from __future__ import annotations

import textwrap
from typing import Any

from errdex.extract.python import extract_python

from ._fixture import raised as _raised

GROUPS = """\
class Collector:
    def __init__(self):
        self.errors = []

    def finalize(self, msg):
        if self.errors:
            raise ExceptionGroup(msg, self.errors)


def two(msg):
    raise ExceptionGroup(msg, [ValueError("a"), KeyError("b")])


def one():
    raise BaseExceptionGroup("one failed", [ValueError("a")])
"""


def _sites(code: str) -> dict[int, Any]:
    return {s.line: s for s in extract_python(textwrap.dedent(code), "m.py", module="m")}


def _prints(site: Any, exc: BaseException) -> bool:
    return site.template.match(str(exc)) is not None


def test_exception_groups_print_their_count_of_sub_exceptions() -> None:
    sites = _sites(GROUPS)
    collector = _raised(
        GROUPS, "c = Collector(); c.errors = [ValueError('x')]; c.finalize('data was invalid')"
    )
    many = _raised(
        GROUPS, "c = Collector(); c.errors = [ValueError(), KeyError()]; c.finalize('m')"
    )
    assert str(collector) == "data was invalid (1 sub-exception)"
    assert _prints(sites[7], collector) and _prints(sites[7], many)
    assert sites[7].template.match("('data was invalid', [ValueError('x')])") is None
    assert sites[11].template.display == "{msg} (2 sub-exceptions)"
    assert _prints(sites[11], _raised(GROUPS, "two('both')"))
    assert sites[15].template.display == "one failed (1 sub-exception)"


CHOOSES_AT_RUN_TIME = """\
from gettext import gettext as _


def _name_of(argument):
    return getattr(argument, "name", None)


class ArgumentError(Exception):
    def __init__(self, argument, message):
        self.argument_name = _name_of(argument)
        self.message = message

    def __str__(self):
        if self.argument_name is None:
            format = '%(message)s'
        else:
            format = _('argument %(argument_name)s: %(message)s')
        return format % dict(message=self.message, argument_name=self.argument_name)


class Named:
    name = "--count"


def check(argument, value):
    msg = _('invalid int value: %(value)r')
    raise ArgumentError(argument, msg % dict(value=value))
"""


def test_a_str_that_picks_its_format_at_run_time_gives_each_format() -> None:
    """argparse's ``ArgumentError.__str__``: with or without ``argument NAME: `` first."""
    line = (
        CHOOSES_AT_RUN_TIME.splitlines().index(
            "    raise ArgumentError(argument, msg % dict(value=value))"
        )
        + 1
    )
    site = next(
        s for s in extract_python(CHOOSES_AT_RUN_TIME, "m.py", module="m") if s.line == line
    )
    named = str(_raised(CHOOSES_AT_RUN_TIME, "check(Named(), 'ten')"))
    bare = str(_raised(CHOOSES_AT_RUN_TIME, "check(None, 'ten')"))
    assert named == "argument --count: invalid int value: 'ten'"
    assert bare == "invalid int value: 'ten'"
    templates = {
        s.template.display: s.template
        for s in extract_python(CHOOSES_AT_RUN_TIME, "m.py", module="m")
        if s.line == line
    }
    # the two formats are one template whose prefix is optional (``template.fold_optional``)
    assert set(templates) == {"[argument %(argument_name)s: ]invalid int value: %(value)r"}
    (template,) = templates.values()
    assert template.match(named) == {"argument_name": "--count", "value": "'ten'"}
    assert template.match(bare) == {"value": "'ten'"}
    assert site.error_class == "ArgumentError"


SINGLE_VALUES = """\
class Registry:
    def __init__(self):
        self.items = {}
        self.reason = None

    def get(self, key):
        try:
            return self.items[key]
        except KeyError:
            raise KeyError(key) from None

    def fail(self):
        raise RuntimeError(self.reason)

    def wrap(self, e):
        raise ValueError(str(e))

    def built(self, key):
        raise ValueError(describe(key))
"""


def test_single_value_messages_say_when_they_are_irreducible() -> None:
    sites = _sites(SINGLE_VALUES)
    for line, value in ((10, "key"), (13, "self.reason"), (16, "str(e)")):
        notes = sites[line].notes
        assert any(n.startswith("irreducible:") and f"`{value}`" in n for n in notes), notes
    # a value some call builds could be read further: not irreducible
    assert not any(n.startswith("irreducible") for n in sites[19].notes)
    assert str(_raised(SINGLE_VALUES, "Registry().get('a')")) == "'a'"
    assert sites[10].template.match("'a'") is not None


WITH_CONTEXT = """\
class Invalid(Exception):
    context = None

    def __init__(self, cause, *, context=None):
        if isinstance(cause, Invalid):
            self.context = f"{context}.{cause.context}" if context else cause.context
            self.message = cause.message
        else:
            self.context = context
            self.message = str(cause)

    def __str__(self):
        if self.context:
            return f"{self.message} in {self.context!r}"
        return self.message


def check(name, i):
    raise Invalid(f"Invalid wheel filename {name!r}", context=f"wheels[{i}]")
"""


def test_an_f_string_in_str_reads_the_attributes_init_set() -> None:
    """packaging's ``PylockValidationError``: ``f"{self.message} in {self.context!r}"``."""
    templates = {
        s.template.display: s.template
        for s in extract_python(WITH_CONTEXT, "m.py", module="m")
        if s.line == 19
    }
    printed = str(_raised(WITH_CONTEXT, "check('x-1.0.whl', 0)"))
    assert printed == "Invalid wheel filename 'x-1.0.whl' in 'wheels[0]'"
    # ``if self.context:`` is decided: the context given is text, so the bare form never prints
    assert set(templates) == {"Invalid wheel filename {name!r} in 'wheels[{i}]'"}
    assert templates["Invalid wheel filename {name!r} in 'wheels[{i}]'"].match(printed)
    # wrapped once more, the context grows: this site's template with context no longer fits
    wrapped = printed.replace("'wheels", "'packages[0].wheels")
    assert templates["Invalid wheel filename {name!r} in 'wheels[{i}]'"].match(wrapped) is None


ON_A_PARAMETER = """\
class ParseError(Exception):
    pass


class Source:
    def __init__(self, text):
        self.text = text

    def error(self, msg, pos=0):
        return ParseError(f"{msg} at position {pos}")


def parse(source, depth):
    if depth > 3:
        raise source.error("too deeply nested", depth)
    return depth


class Other:
    def fail(self):
        return ValueError("other")


class Another:
    def fail(self):
        return KeyError("another")


def check(thing):
    raise thing.fail()
"""


def test_a_helper_on_a_parameter_only_one_class_defines_builds_the_message() -> None:
    """``raise source.error("…", pos)`` (the ``re`` parser's form): ``source`` is a parameter,
    and ``error`` a method of one class of the module only."""
    sites = _sites(ON_A_PARAMETER)
    nested = sites[15]
    assert nested.error_class == "ParseError"
    assert nested.template.display == "too deeply nested at position {pos}"
    printed = str(_raised(ON_A_PARAMETER, "parse(Source('x'), 5)"))
    assert nested.template.match(printed) is not None
    # two classes define ``fail``: which one ``thing`` is, the code does not say
    assert sites[30].error_class is None


TUPLES = """\
def outcome(kind, count):
    assert kind in ("ok", "fail"), ("unknown outcome", kind)
    if count < 0:
        raise ValueError("negative count", count, 3)
    raise RuntimeError("stopped", 2.5, None)
"""


def test_tuples_print_as_their_repr() -> None:
    sites = _sites(TUPLES)
    unknown = _raised(TUPLES, "outcome('maybe', 1)")
    assert str(unknown) == "('unknown outcome', 'maybe')"
    assert sites[2].template.display == "('unknown outcome', {kind})"
    assert _prints(sites[2], unknown)
    negative = _raised(TUPLES, "outcome('ok', -1)")
    assert _prints(sites[4], negative)
    assert sites[5].template.display == "('stopped', 2.5, None)"
    assert _prints(sites[5], _raised(TUPLES, "outcome('ok', 1)"))


DICTS = """\
class Invalid(Exception):
    pass


def load(data):
    errors = {}
    for key, value in data.items():
        if value is None:
            errors[key] = ["Missing data for required field."]
    if errors:
        raise Invalid(errors)
"""


def test_a_dict_given_as_the_message_prints_in_braces() -> None:
    site = _sites(DICTS)[11]
    printed = str(_raised(DICTS, "load({'age': None})"))
    assert printed == "{'age': ['Missing data for required field.']}"
    assert site.template.display == "{{…}}"
    assert _prints(site, _raised(DICTS, "load({'age': None})"))
    assert site.template.match("Missing data for required field.") is None


PLURALS = """\
from gettext import ngettext


def convert(value, nargs):
    if len(value) != nargs:
        raise ValueError(
            ngettext(
                "Takes {nargs} values but 1 was given.",
                "Takes {nargs} values but {len} were given.",
                len(value),
            ).format(nargs=nargs, len=len(value))
        )
"""


def test_ngettext_gives_its_singular_and_plural_texts() -> None:
    """click's ``BadParameter(ngettext(…).format(…))`` was one hole, tied with every other
    ``BadParameter``; untranslated, ngettext returns one of its two texts."""
    sites = extract_python(PLURALS, "m.py", module="m")
    assert [(s.line, s.template.display) for s in sites] == [
        (6, "Takes {nargs} values but 1 was given."),
        (6, "Takes {nargs} values but {len} were given."),
    ]
    singular, plural = sites
    assert _prints(singular, _raised(PLURALS, "convert([1], 2)"))
    assert _prints(plural, _raised(PLURALS, "convert([1, 2, 3], 2)"))
