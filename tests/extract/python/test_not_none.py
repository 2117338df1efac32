"""``if self.option is not None:`` in ``__str__``, with ``self.option`` set from an
``__init__`` parameter: decided at the raise when the argument surely is not None
(:mod:`errdex.extract.python.not_none`), both forms when it may be; each checked against
``str()`` of what the fixture really raises."""

from __future__ import annotations

from ._fixture import raised, templates_at

CODE = """\
class OptErr(Exception):
    def __init__(self, msg, option=None):
        self.msg = msg
        self.option = option

    def __str__(self):
        if self.option is not None:
            return "option %s: %s" % (self.option, self.msg)
        return self.msg


class Opt:
    def __str__(self):
        return "-x"

    def check(self):
        raise OptErr("bad", self)


def default():
    raise OptErr("bad")


def joined(name):
    raise OptErr("bad", "-" + name)


def formatted(name):
    raise OptErr("bad", f"-{name}")


def built():
    raise OptErr("bad", Opt())


def given(o):
    raise OptErr("bad", o)
"""


def _only(source: str, call: str) -> str:
    (display,) = templates_at(CODE, source)
    printed = str(raised(CODE, call))
    assert templates_at(CODE, source)[display].match(printed) is not None, (display, printed)
    return display


def test_an_argument_that_is_surely_not_none_gives_the_prefixed_form_only() -> None:
    assert _only('raise OptErr("bad", self)', "Opt().check()") == "option %s: bad"
    assert _only('raise OptErr("bad", "-" + name)', "joined('y')") == "option -{name}: bad"
    assert _only('raise OptErr("bad", f"-{name}")', "formatted('y')") == "option -{name}: bad"
    assert _only('raise OptErr("bad", Opt())', "built()") == "option %s: bad"


def test_none_or_a_value_not_known_keep_their_forms() -> None:
    assert _only('raise OptErr("bad")', "default()") == "bad"
    (display,) = templates_at(CODE, 'raise OptErr("bad", o)')
    assert display == "[option %s: ]bad"
    template = templates_at(CODE, 'raise OptErr("bad", o)')[display]
    assert template.match(str(raised(CODE, "given(None)"))) is not None
    assert template.match(str(raised(CODE, "given('-z')"))) is not None
