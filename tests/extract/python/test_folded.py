"""A hole whose value is a constant of the code (a literal bound once, at the module's
top level or in a class body) is the text Python prints there: argparse's ``'nargs
must be %r to supply const' % OPTIONAL`` prints ``nargs must be '?' to supply const``
(blind review of stop 35). Each folded template is checked against the real ``str()``."""

from __future__ import annotations

import pytest

from ._fixture import raised, templates_at

CODE = """\
OPTIONAL = '?'
RATE = 0.5
LIMIT = -3
NOTHING = None


class Action:
    KIND = 'store'

    def check(self, n):
        if n == 1:
            raise ValueError('nargs must be %r to supply const' % OPTIONAL)
        if n == 2:
            raise ValueError('nargs must be %r, not %s' % (OPTIONAL, RATE))
        if n == 3:
            raise ValueError(f'nargs {OPTIONAL!r} at rate {RATE:.2f}')
        if n == 4:
            raise ValueError('limit {} is {!r}'.format(LIMIT, OPTIONAL))
        if n == 5:
            raise ValueError('kind %r in class' % self.KIND)
        if n == 6:
            raise ValueError(f'kind {Action.KIND!r} by name')
        if n == 7:
            raise ValueError('repr ' + repr(OPTIONAL) + ' and ' + str(NOTHING))
        if n == 8:
            raise ValueError('%(value)r is the value' % {'value': OPTIONAL})
"""

FOLDED = {
    "nargs must be %r to supply const": ("Action().check(1)", "nargs must be '?' to supply const"),
    "nargs must be %r, not %s": ("Action().check(2)", "nargs must be '?', not 0.5"),
    "f'nargs {": ("Action().check(3)", "nargs '?' at rate 0.50"),
    "limit {} is": ("Action().check(4)", "limit -3 is '?'"),
    "in class' % self.KIND": ("Action().check(5)", "kind 'store' in class"),
    "by name')": ("Action().check(6)", "kind 'store' by name"),
    "repr(OPTIONAL)": ("Action().check(7)", "repr '?' and None"),
    "is the value' %": ("Action().check(8)", "'?' is the value"),
}


@pytest.mark.parametrize("source", list(FOLDED))
def test_constant_holes_are_the_printed_text(source: str) -> None:
    call, printed = FOLDED[source]
    assert str(raised(CODE, call)) == printed
    found = templates_at(CODE, source)
    assert list(found) == [printed]
    assert not found[printed].holes


NOT_CONSTANT = """\
MODE = 'r'
LATER = 'a'
GLOB = 'g'


def by_parameter(MODE):
    raise ValueError('mode %r' % MODE)


def read_later():
    raise ValueError('later %r' % LATER)


LATER = 'b'


def set_glob():
    global GLOB
    GLOB = 'x'


def read_glob():
    raise ValueError(f'glob {GLOB!r}')


def by_loop(items):
    for MODE in items:
        pass
    raise ValueError('mode {!r}'.format(MODE))


class Stored:
    KIND = 'x'

    def __init__(self):
        self.KIND = 'y'

    def f(self):
        raise ValueError('stored %r' % self.KIND)


class Base:
    KIND = 'x'

    def f(self):
        raise ValueError('based %r' % self.KIND)


class Derived(Base):
    KIND = 'z'


def shadowed():
    repr = str
    raise ValueError('shadow ' + repr(MODE))
"""


@pytest.mark.parametrize(
    ("source", "call", "printed"),
    [
        ("'mode %r' % MODE", "by_parameter('w')", "mode 'w'"),
        ("'later %r'", "read_later()", "later 'b'"),
        ("f'glob", "set_glob(); read_glob()", "glob 'x'"),
        ("'mode {!r}'", "by_loop(['w'])", "mode 'w'"),
        ("'stored %r'", "Stored().f()", "stored 'y'"),
        ("'based %r'", "Derived().f()", "based 'z'"),
        ("'shadow '", "shadowed()", "shadow r"),
    ],
)
def test_values_that_may_change_stay_holes(source: str, call: str, printed: str) -> None:
    """A parameter, a name bound again or declared ``global``, a loop variable, a class
    attribute an ``__init__`` or a subclass sets again, a shadowed ``repr``: the value is
    not the one the walk saw, so the hole stays (and matches what is printed)."""
    assert str(raised(NOT_CONSTANT, call)) == printed
    (template,) = templates_at(NOT_CONSTANT, source).values()
    assert template.holes
    assert template.match(printed) is not None


LOOPS = """\
def attempts(limit):
    n = 0
    while True:
        if n >= limit:
            raise ValueError(f'gave up after {n} attempts')
        n += 1


def flags(values):
    missing = 0
    for v in values:
        if v:
            raise ValueError('missing 0x%x' % missing)
        missing |= 4


def once():
    name = '__main__'
    raise ValueError("can't find %r module" % name)
"""


def test_a_local_changed_in_a_loop_stays_a_hole() -> None:
    """``n = 0`` then ``n += 1`` later in the loop (networkx's swap, enum's flags): the
    raise may see another value; a local bound once (runpy's ``main_name``) is text."""
    assert str(raised(LOOPS, "attempts(2)")) == "gave up after 2 attempts"
    (template,) = templates_at(LOOPS, "gave up after").values()
    assert template.display == "gave up after {n} attempts"
    assert str(raised(LOOPS, "flags([0, 1])")) == "missing 0x4"
    (template,) = templates_at(LOOPS, "missing 0x").values()
    assert template.display == "missing 0x%x"
    assert str(raised(LOOPS, "once()")) == "can't find '__main__' module"
    assert list(templates_at(LOOPS, "can't find")) == ["can't find '__main__' module"]


DEFAULTED = """\
def pick(method=None):
    if method is None:
        method = 'mehlhorn'
    raise ValueError(f'{method} is not a valid choice')
"""


def test_a_parameter_given_a_default_in_the_body_stays_a_hole() -> None:
    """networkx's ``steiner_tree``: ``method`` is the caller's unless it was None."""
    assert str(raised(DEFAULTED, "pick('x')")) == "x is not a valid choice"
    (template,) = templates_at(DEFAULTED, "not a valid choice").values()
    assert template.display == "{method} is not a valid choice"


def test_self_attribute_in_a_cython_method_leaves_the_file_readable() -> None:
    """A ``.pyx`` method's function is Cython's node (a ``CFuncDefNode`` has no ``args``;
    a ``DefNode``'s are a list): ``self.freq`` stays a hole, and the file is read (pandas
    2.2.3's sas.pyx, sparse.pyx and four tslibs files were skipped whole on main)."""
    from errdex.extract.cython import extract_cython

    pyx = (
        "cdef class P:\n"
        "    cdef int freq\n\n"
        "    cdef check(self):\n"
        '        raise ValueError(f"bad {self.freq}")\n\n'
        "    def run(self):\n"
        '        raise ValueError(f"bad run {self.freq}")\n'
    )
    found = {s.line: s.template.display for s in extract_cython(pyx, "pkg/m.pyx")}
    assert found == {5: "bad {self.freq}", 8: "bad run {self.freq}"}
