"""Messages built away from the raise: helpers, ``__init__`` chains across modules, ``__str__``.

Each fixture is a tiny package written to a temporary directory and read the way the
scan reads it (``reading_repository``); every expected message was checked against what
``str()`` of the real exception prints, by importing the fixture and raising it.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.extract.python import extract_python
from errdex.extract.python.project import reading_repository
from errdex.extract.site import ErrorSite

ERRORS = """\
class ToolError(Exception):
    pass


class ParseFailure(ValueError, ToolError):
    def __init__(self, line, col, message=None):
        self.line = line
        self.col = col
        if message is None:
            message = "parse failure"
        super().__init__(f"{message} at line {line} col {col}")


class BadDigit(ParseFailure):
    def __init__(self, line, col):
        message = "Bad digit"
        super().__init__(line, col, message=message)


class Unexpected(ParseFailure):
    def __init__(self, line, col, char):
        message = f"Unexpected {char!r}"
        super().__init__(line, col, message)


class Frozen(AttributeError):
    def __init__(self):
        msg = "this object is frozen"
        super().__init__(msg)
        self.msg = msg


class FrozenThing(Frozen):
    pass


class Missing(KeyError):
    def __init__(self, key):
        super().__init__(f"no entry {key}")


class Wrapped(ToolError):
    def __init__(self, reason):
        self.reason = reason
        super().__init__(reason)

    def __str__(self):
        return "<wrapped %s>" % self.reason


class Loud(ToolError):
    def __str__(self):
        return self.args[0].upper()


class NotCallable(TypeError):
    def __init__(self, msg, value):
        super(TypeError, self).__init__(msg, value)
        self.msg = msg
        self.value = value

    def __str__(self):
        return str(self.msg)


class Twice(ToolError):
    def __init__(self, *pos):
        ToolError.__init__(self, "")
        Exception.__init__(self, *pos)
"""

READER = """\
from .errors import BadDigit, ParseFailure, Unexpected


class Cursor(str):
    def error(self, exception=ParseFailure, *args, **kwargs):
        line, col = self.where()
        return exception(line, col, *args, **kwargs)

    def where(self):
        return 1, 0


class Reader:
    def __init__(self, text):
        self._cursor = Cursor(text)

    def error(self, exception=ParseFailure, *args, **kwargs):
        return self._cursor.error(exception, *args, **kwargs)

    def digit(self, c):
        if c == "x":
            raise self.error(BadDigit)
        if c == "y":
            raise self.error(Unexpected, c)
        raise self.error(ParseFailure, "stray text")
"""

FIELDS = """\
from .errors import ToolError


class Invalid(ToolError):
    pass


class Field:
    default_messages = {"required": "This is required.", "bad": "Not a valid value."}

    def __init__(self, messages=None):
        merged = {}
        for cls in reversed(self.__class__.__mro__):
            merged.update(getattr(cls, "default_messages", {}))
        merged.update(messages or {})
        self.messages = merged

    def fail(self, key, **kwargs):
        msg = self.messages[key]
        if isinstance(msg, str):
            msg = msg.format(**kwargs)
        return Invalid(msg)

    def check(self, value):
        if value is None:
            raise self.fail("required")
        raise self.fail("bad", input=value)


class Number(Field):
    default_messages = {"bad": "Not a valid {kind} number."}

    def parse(self, value):
        raise self.fail("bad", kind="whole")
"""

VALIDATE = """\
from .errors import ToolError


class Rejected(ToolError):
    pass


class Check:
    default_message = "Not acceptable."

    def __init__(self, error=None):
        self.error = error or self.default_message

    def _format(self, value):
        return self.error.format(input=value)

    def __call__(self, value):
        message = self._format(value)
        if not value:
            raise Rejected(message)
        return value


class Address(Check):
    default_message = "Not a valid address: {input!r}."
"""

PLAIN = """\
from gettext import gettext as _

from .errors import Frozen, FrozenThing, Loud, Missing, NotCallable, Twice, Wrapped


def pick(kind):
    if kind:
        return ValueError("first")
    return TypeError("second")


def run(name):
    if name == "a":
        raise FrozenThing
    if name == "b":
        raise Missing(name)
    if name == "c":
        raise Wrapped("disk full")
    if name == "d":
        raise Twice("both set")
    if name == "e":
        raise ValueError(_("unknown colour {colour!r}").format(colour=name))
    if name == "f":
        raise Loud("quiet")
    if name == "g":
        raise NotCallable(msg="{name!r} must be callable".format(name=name), value=name)
    raise pick(name)
"""


@pytest.fixture
def package(tmp_path: Path) -> Iterator[Path]:
    pkg = tmp_path / "src" / "shapes"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    for name, text in (
        ("errors", ERRORS),
        ("reader", READER),
        ("fields", FIELDS),
        ("plain", PLAIN),
        ("validate", VALIDATE),
    ):
        (pkg / f"{name}.py").write_text(text)
    sys.path.insert(0, str(tmp_path / "src"))
    yield tmp_path
    sys.path.remove(str(tmp_path / "src"))
    for name in [m for m in sys.modules if m == "shapes" or m.startswith("shapes.")]:
        del sys.modules[name]


def sites(root: Path, module: str, *, repository: bool = True) -> list[ErrorSite]:
    rel = f"src/shapes/{module}.py"
    text = (root / rel).read_text()
    if not repository:
        return extract_python(text, rel)
    with reading_repository(root):
        return extract_python(text, rel)


def at(found: list[ErrorSite], source: str, root: Path, module: str) -> list[ErrorSite]:
    """The sites of the line holding ``source`` in the module."""
    lines = (root / f"src/shapes/{module}.py").read_text().splitlines()
    line = next(i for i, text in enumerate(lines, 1) if source in text)
    return [s for s in found if s.line == line]


def printed(module: str, call: str) -> str:
    """``str()`` of what the fixture really raises."""
    mod = importlib.import_module(f"shapes.{module}")
    with pytest.raises(Exception) as caught:
        eval(call, vars(mod))
    return str(caught.value)


def only(found: list[ErrorSite]) -> ErrorSite:
    assert len(found) == 1, found
    return found[0]


def test_helper_chain_reaches_the_class_in_another_module(package: Path) -> None:
    found = sites(package, "reader")
    digit = only(at(found, "raise self.error(BadDigit)", package, "reader"))
    assert digit.qualified_class == "shapes.errors.BadDigit"
    assert digit.error_class == "BadDigit"
    assert digit.template.display == "Bad digit at line {line} col {col}"
    assert digit.template.match(printed("reader", "Reader('t').digit('x')")) is not None
    assert any(
        "message built by `Reader.error`, then `Cursor.error`, then `BadDigit.__init__`" in n
        for n in digit.notes
    )
    unexpected = only(at(found, "raise self.error(Unexpected, c)", package, "reader"))
    assert unexpected.template.display == "Unexpected {char!r} at line {line} col {col}"
    assert unexpected.template.match(printed("reader", "Reader('t').digit('y')")) is not None
    # a literal argument fills the callee's parameter
    stray = only(at(found, 'raise self.error(ParseFailure, "stray text")', package, "reader"))
    assert stray.template.display == "stray text at line {line} col {col}"
    assert stray.template.match(printed("reader", "Reader('t').digit('z')")) is not None


def test_without_the_repository_nothing_crosses_modules(package: Path) -> None:
    found = sites(package, "reader", repository=False)
    digit = only(at(found, "raise self.error(BadDigit)", package, "reader"))
    assert digit.error_class is None  # as before: the helper is not followed
    # the message is not known: one hole, the code that builds it kept as what fills it
    assert digit.template.display == "{…}"
    assert [h.filled for h in digit.template.holes] == ["str(self.error(BadDigit))"]


def test_messages_from_class_dicts_along_the_mro(package: Path) -> None:
    found = sites(package, "fields")
    required = only(at(found, 'raise self.fail("required")', package, "fields"))
    assert required.template.display == "This is required."
    assert required.qualified_class == "shapes.fields.Invalid"
    assert any("message built by `Field.fail`" in n for n in required.notes)
    # in Field's method ``self`` may be a Number: each class's own text is an alternative
    bad = at(found, 'raise self.fail("bad", input=value)', package, "fields")
    assert {s.template.display for s in bad} == {"Not a valid value.", "Not a valid {kind} number."}
    assert printed("fields", "Field().check(1)") == "Not a valid value."
    number = only(at(found, 'raise self.fail("bad", kind="whole")', package, "fields"))
    assert number.template.display == "Not a valid {kind} number."
    assert number.template.match(printed("fields", "Number().parse(1)")) is not None


def test_inherited_init_supplies_the_message_of_a_bare_raise(package: Path) -> None:
    found = sites(package, "plain")
    frozen = only(at(found, "raise FrozenThing", package, "plain"))
    assert frozen.template.display == printed("plain", "run('a')") == "this object is frozen"
    assert any("`Frozen.__init__`" in n for n in frozen.notes)


@pytest.mark.parametrize(
    ("source", "call", "expected", "note"),
    [
        # a KeyError subclass prints the repr of its message
        ("raise Missing(name)", "run('b')", "'no entry {key}'", "`Missing.__init__`"),
        # ``__str__`` reads what ``__init__`` stored
        ('raise Wrapped("disk full")', "run('c')", "<wrapped disk full>", "`Wrapped.__str__`"),
        # the last base ``__init__`` call sets the message
        ('raise Twice("both set")', "run('d')", "both set", None),
        # ``super(TypeError, self)`` skips a class of the MRO; ``str()`` of a text is it
        ("raise NotCallable(", "run('g')", "{name!r} must be callable", None),
    ],
)
def test_class_builds_what_prints(
    package: Path, source: str, call: str, expected: str, note: str | None
) -> None:
    site = only(at(sites(package, "plain"), source, package, "plain"))
    assert site.template.display == expected
    assert site.template.match(printed("plain", call)) is not None
    if note is not None:
        assert any(note in n for n in site.notes)


def test_gettext_returns_its_argument(package: Path) -> None:
    found = sites(package, "plain")
    colour = only(at(found, "unknown colour", package, "plain"))
    assert colour.template.display == "unknown colour {colour!r}"
    assert colour.template.match(printed("plain", "run('e')")) is not None


def test_a_helper_that_returns_on_a_branch_it_cannot_decide_is_not_guessed(
    package: Path,
) -> None:
    found = sites(package, "plain")
    picked = at(found, "raise pick(name)", package, "plain")
    # ``pick`` returns ValueError or TypeError by a value only known at run time: the
    # new chain gives no answer, so the site keeps what the extractor said before
    assert all("message built by" not in n for s in picked for n in s.notes)


def test_source_base_of_a_src_layout() -> None:
    from errdex.extract.python.project import _source_base

    assert _source_base("src/click/core.py", "click.core") == "src/"
    assert _source_base("click/__init__.py", "click") == ""
    assert _source_base("Lib/json/decoder.py", "json.decoder") == "Lib/"
    assert _source_base("elsewhere.py", "click.core") is None


def test_a_str_not_followed_leaves_the_message_unknown(package: Path) -> None:
    found = sites(package, "plain")
    loud = only(at(found, 'raise Loud("quiet")', package, "plain"))
    assert printed("plain", "run('f')") == "QUIET"
    # the argument is not what prints, and how ``__str__`` changes it is not followed
    assert loud.template.is_opaque
    assert "message built by `Loud.__str__`, not followed" in loud.notes


def test_text_returned_by_a_method_reads_init_and_class_attributes(package: Path) -> None:
    found = sites(package, "validate")
    rejected = at(found, "raise Rejected(message)", package, "validate")
    # ``error or self.default_message``: the caller's text, or the class's default (the
    # class raising, or its subclass)
    assert {s.template.display for s in rejected} == {
        "{error}",
        "Not acceptable.",
        "Not a valid address: {input!r}.",
    }
    assert printed("validate", "Check()('')") == "Not acceptable."
    address = next(s for s in rejected if "address" in s.template.display)
    assert address.template.match(printed("validate", "Address()('')")) is not None
