"""Tests for the 3.12+/3.14 -> 3.11 syntax downgrade that lets errdex scan newer code.

Every fixture is real newer-Python source that 3.11's ``ast`` rejects. What matters
to errdex is that ``raise``/``assert``/call nodes keep their original line, that the
f-string fields hidden behind placeholders come back exactly as written, and that
the literal text of those f-strings is untouched.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

import pytest

from errdex.extract import _downgrade
from errdex.extract._downgrade import PLACEHOLDER_PREFIX, Downgraded, downgrade, parse_any

# (node kind, label, a unique piece of the original source on the node's line)
Expect = tuple[str, str, str]


@dataclass(frozen=True)
class Case:
    """One newer-syntax fixture and what the downgraded tree must still show."""

    id: str
    source: str
    expect: tuple[Expect, ...]
    fields: dict[str, str] = field(default_factory=dict)
    # Constant parts of each f-string that got placeholders, in source order.
    literals: tuple[tuple[str, ...], ...] = ()


def _label(node: ast.AST) -> tuple[str, str] | None:
    """Name a node the way the fixtures refer to it."""
    if isinstance(node, ast.Raise):
        exc = node.exc
        target = exc.func if isinstance(exc, ast.Call) else exc
        return "Raise", ast.unparse(target) if target is not None else ""
    if isinstance(node, ast.Assert):
        return "Assert", ast.unparse(node.test)
    if isinstance(node, ast.Call):
        return "Call", ast.unparse(node.func)
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return type(node).__name__, node.name
    if isinstance(node, ast.Assign):
        return "Assign", ast.unparse(node.targets[0])
    return None


def _positions(tree: ast.AST) -> set[tuple[str, str, int]]:
    """Every labelled node with its line, the thing errdex reports to users."""
    found = set()
    for node in ast.walk(tree):
        label = _label(node)
        if label is not None and isinstance(node, ast.stmt | ast.expr):
            found.add((*label, node.lineno))
    return found


def _line_of(source: str, needle: str) -> int:
    """The original line, read off the fixture text rather than counted by hand."""
    assert source.count(needle) == 1, f"needle {needle!r} must be unique"
    return source[: source.index(needle)].count("\n") + 1


def _placeholder_strings(tree: ast.AST) -> list[ast.JoinedStr]:
    """f-strings holding placeholders, in source order (depth-first visit order)."""
    found: list[ast.JoinedStr] = []

    class Visitor(ast.NodeVisitor):
        def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
            names = [
                v.value.id
                for v in node.values
                if isinstance(v, ast.FormattedValue) and isinstance(v.value, ast.Name)
            ]
            if any(n.startswith(PLACEHOLDER_PREFIX) for n in names):
                found.append(node)

    Visitor().visit(tree)
    return found


def _constants(node: ast.JoinedStr) -> tuple[str, ...]:
    return tuple(
        v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)
    )


def _placeholders_in(tree: ast.AST) -> list[str]:
    return [
        n.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Name) and n.id.startswith(PLACEHOLDER_PREFIX)
    ]


PEP695_DEF = """\
import typing


def first[T: (int, str), *Ts, **P](
    items: list[T], *args: *Ts
) -> T:
    raise IndexError(describe(items))


def pick[
    K: typing.Hashable,  # a bound, and a comment inside the list
    V = int,
    *Ts = *tuple[int, ...],
    **P = [int, str],
](mapping: dict[K, V], key: K) -> V:
    assert key in mapping, "missing"
    return mapping.get(key)


async def fetch[R = bytes](url: str) -> R:
    raise TimeoutError(url)
"""

PEP695_CLASS = """\
from dataclasses import dataclass


@dataclass(frozen=True)
class Box[T = int](Base, metaclass=Meta):
    def get[U: Box](self) -> U:
        raise NotImplementedError(self.name)


class Pair[
    K,
    V: (int, str),
]:
    def __init__(self) -> None:
        validate(self)
"""

PEP695_ALIAS = """\
type Vector = list[float]
type Mapping[K, V = int] = dict[K, V]
type Ints[*Ts] = tuple[int, *Ts]
type Hook[**P] = Callable[P, None]
if check(Vector):
    type \\
        Deferred[T] = Callable[[], T]
    assert Deferred, "alias"
"""

FSTRING_NESTED_QUOTES = """\
def lookup(data, key, width):
    log(f"looking up {key!r}")
    if key not in data:
        raise KeyError(f"no {data["name"]!r:>{width}} entry for {key=}, {{literal}}")
    return render(f"{f"{f"{data[key]}"}"}")
"""

FSTRING_TRIPLE = '''\
def report(rows):
    text = f"""total: {
        len(rows)  # how many rows
    } rows
    first={rows[0]["id"]!r}\\t{{ok}}"""
    raise ValueError(text, summary(rows))
'''

FSTRING_SINGLE_MULTILINE = """\
def check(user):
    assert user.ok, f"user {
        user.name  # who it is
    } is not ok: {user.errors['last']}"
    log(f"checked {user.id}")
    raise PermissionError(f"{"\\n".join(user.roles)}", audit(user))
"""

FSTRING_CONCATENATED = """\
message = (
    "header "
    f"{row["a"]} and {
        row["b"]
    }"
    " trailer"
)
raise LookupError(message)
"""

EXCEPT_COMMA = """\
try:
    run()
except ValueError, TypeError:
    raise RuntimeError("bad value")
try:
    run()
except* OSError, KeyError:
    cleanup()
"""

CASES = [
    Case(
        "pep695-def",
        PEP695_DEF,
        (
            ("FunctionDef", "first", "def first"),
            ("Raise", "IndexError", "raise IndexError"),
            ("Call", "describe", "describe(items)"),
            ("FunctionDef", "pick", "def pick"),
            ("Assert", "key in mapping", "assert key"),
            ("Call", "mapping.get", "mapping.get"),
            ("AsyncFunctionDef", "fetch", "async def fetch"),
            ("Raise", "TimeoutError", "raise TimeoutError"),
        ),
    ),
    Case(
        "pep695-class",
        PEP695_CLASS,
        (
            ("Call", "dataclass", "@dataclass"),
            ("ClassDef", "Box", "class Box"),
            ("FunctionDef", "get", "def get"),
            ("Raise", "NotImplementedError", "raise NotImplementedError"),
            ("ClassDef", "Pair", "class Pair"),
            ("Call", "validate", "validate(self)"),
        ),
    ),
    Case(
        "pep695-alias",
        PEP695_ALIAS,
        (
            ("Assign", "Vector", "type Vector"),
            ("Assign", "Mapping", "type Mapping"),
            ("Assign", "Ints", "type Ints"),
            ("Assign", "Hook", "type Hook"),
            ("Call", "check", "check(Vector)"),
            ("Assign", "Deferred", "    type \\"),
            ("Assert", "Deferred", "assert Deferred"),
        ),
    ),
    Case(
        "fstring-nested-quotes",
        FSTRING_NESTED_QUOTES,
        (
            ("Call", "log", "log("),
            ("Raise", "KeyError", "raise KeyError"),
            ("Call", "render", "render("),
        ),
        {
            "__errdex_f0__": 'data["name"]!r:>{width}',
            "__errdex_f1__": "key=",
            "__errdex_f2__": 'f"{f"{data[key]}"}"',
        },
        (("no ", " entry for ", ", {literal}"), ()),
    ),
    Case(
        "fstring-triple-quoted-comment",
        FSTRING_TRIPLE,
        (
            ("Raise", "ValueError", "raise ValueError"),
            ("Call", "summary", "summary(rows)"),
        ),
        {
            "__errdex_f0__": "\n        len(rows)  # how many rows\n    ",
            "__errdex_f1__": 'rows[0]["id"]!r',
        },
        (("total: ", " rows\n    first=", "\t{ok}"),),
    ),
    Case(
        "fstring-single-quoted-multiline",
        FSTRING_SINGLE_MULTILINE,
        (
            ("Assert", "user.ok", "assert user.ok"),
            ("Call", "log", "log("),
            ("Raise", "PermissionError", "raise PermissionError"),
            ("Call", "audit", "audit(user)"),
        ),
        {
            "__errdex_f0__": "\n        user.name  # who it is\n    ",
            "__errdex_f1__": "user.errors['last']",
            "__errdex_f2__": '"\\n".join(user.roles)',
        },
        (("user ", " is not ok: "), ()),
    ),
    Case(
        "fstring-concatenated",
        FSTRING_CONCATENATED,
        (
            ("Assign", "message", "message = ("),
            ("Raise", "LookupError", "raise LookupError"),
        ),
        {"__errdex_f0__": 'row["a"]', "__errdex_f1__": '\n        row["b"]\n    '},
        (("header ", " and ", " trailer"),),
    ),
    Case(
        "except-comma",
        EXCEPT_COMMA,
        (
            ("Call", "run", "run()\nexcept ValueError"),
            ("Raise", "RuntimeError", "raise RuntimeError"),
            ("Call", "cleanup", "cleanup()"),
        ),
    ),
]


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_fixture_needs_the_downgrade(case: Case) -> None:
    with pytest.raises(SyntaxError):
        ast.parse(case.source)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_lines_are_preserved(case: Case) -> None:
    tree, _ = parse_any(case.source)
    positions = _positions(tree)
    for kind, label, needle in case.expect:
        assert (kind, label, _line_of(case.source, needle)) in positions, (kind, label)
    assert downgrade(case.source).source.count("\n") == case.source.count("\n")


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_fields_are_the_raw_text(case: Case) -> None:
    tree, fields = parse_any(case.source)
    assert fields == case.fields
    assert sorted(_placeholders_in(tree)) == sorted(fields)
    assert list(fields) == [f"{PLACEHOLDER_PREFIX}{i}__" for i in range(len(fields))]


@pytest.mark.parametrize("case", [c for c in CASES if c.fields], ids=lambda c: c.id)
def test_fstring_literals_are_preserved(case: Case) -> None:
    tree, _ = parse_any(case.source)
    literals = tuple(_constants(node) for node in _placeholder_strings(tree))
    assert literals == case.literals


def test_fstring_valid_on_311_keeps_its_expression() -> None:
    tree, fields = parse_any(FSTRING_NESTED_QUOTES)
    log_call = next(
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "log"
    )
    (joined,) = log_call.args
    assert isinstance(joined, ast.JoinedStr)
    value = joined.values[1]
    assert isinstance(value, ast.FormattedValue)
    assert ast.unparse(value.value) == "key" and value.conversion == ord("r")
    assert "key!r" not in fields.values()


def test_except_comma_becomes_a_tuple() -> None:
    tree, _ = parse_any(EXCEPT_COMMA)
    plain, star = (n for n in tree.body if isinstance(n, ast.Try | ast.TryStar))
    assert isinstance(plain, ast.Try) and isinstance(star, ast.TryStar)
    caught = [h.type for h in (*plain.handlers, *star.handlers) if h.type is not None]
    assert [ast.unparse(t) for t in caught] == ["(ValueError, TypeError)", "(OSError, KeyError)"]


def test_type_alias_keeps_the_value() -> None:
    tree, _ = parse_any(PEP695_ALIAS)
    assigns = {
        ast.unparse(n.targets[0]): ast.unparse(n.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Assign)
    }
    assert assigns["Mapping"] == "dict[K, V]"
    assert assigns["Deferred"] == "Callable[[], T]"


def test_type_call_is_not_an_alias() -> None:
    """tree-sitter reads `type(x).attr = 1` as an alias; it must stay a plain assignment."""
    source = "def f[T](x: T) -> T:\n    type(x).attr = 1\n    type = 2\n    return x\n"
    tree, _ = parse_any(source)
    func = tree.body[0]
    assert isinstance(func, ast.FunctionDef)
    body = func.body
    assert ast.unparse(body[0]) == "type(x).attr = 1"
    assert ast.unparse(body[1]) == "type = 2"


@pytest.mark.parametrize(
    ("source", "fields"),
    [
        ('x = f"{d["é"]} → {y}"\n', {"__errdex_f0__": 'd["é"]', "__errdex_f1__": "y"}),
        (
            'def f[T]():\r\n    return f"{\r\n  x}"\r\nraise E(f())\r\n',
            {"__errdex_f0__": "\r\n  x"},
        ),
        ('x = rf"\\d+{d["k"]}"\n', {"__errdex_f0__": 'd["k"]'}),
    ],
    ids=["non-ascii", "crlf", "raw"],
)
def test_offsets_are_bytes_safe(source: str, fields: dict[str, str]) -> None:
    down = downgrade(source)
    assert down.fields == fields
    assert len(down.source.splitlines()) == len(source.splitlines())
    ast.parse(down.source)


VALID_311 = '''\
import re


def f(x: list[int], *args: int) -> str:
    try:
        value = f"{x!r:>{len(x)}} {x[0]=} {'a' 'b'}"
    except (ValueError, TypeError) as exc:
        raise RuntimeError(f"""bad {
            x}""") from exc
    assert value, f"{re.escape('.')}"
    return value
'''


def test_valid_311_source_is_untouched() -> None:
    tree, fields = parse_any(VALID_311, "valid.py")
    assert fields == {}
    expected = ast.parse(VALID_311, "valid.py")
    assert ast.dump(tree, include_attributes=True) == ast.dump(expected, include_attributes=True)
    assert downgrade(VALID_311) == Downgraded(VALID_311, {})


def test_valid_source_never_reaches_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(source: str) -> Downgraded:
        raise AssertionError("downgrade must not run when ast.parse succeeds")

    monkeypatch.setattr(_downgrade, "downgrade", boom)
    tree, fields = parse_any(VALID_311)
    assert fields == {} and isinstance(tree, ast.Module)


@pytest.mark.parametrize(
    "source",
    [
        'print "x"\n',
        'def f[T](x):\n    print "x"\n',
        'x = f"{d["k"]}"\nexec "code"\n',
        "try:\n    pass\nexcept A, B as e:\n    pass\n",
    ],
    ids=["python2-print", "python2-with-generics", "python2-with-fstring", "except-comma-as"],
)
def test_real_syntax_error_is_the_original(source: str) -> None:
    with pytest.raises(SyntaxError) as expected:
        ast.parse(source, "broken.py")
    with pytest.raises(SyntaxError) as raised:
        parse_any(source, "broken.py")
    error = raised.value
    assert (error.msg, error.lineno, error.offset, error.filename) == (
        expected.value.msg,
        expected.value.lineno,
        expected.value.offset,
        "broken.py",
    )
    assert error.__context__ is None and error.__cause__ is None


def test_failing_downgrade_still_raises_the_original(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(source: str) -> Downgraded:
        raise RuntimeError("downgrade crashed")

    monkeypatch.setattr(_downgrade, "downgrade", boom)
    with pytest.raises(SyntaxError, match="expected '\\('"):
        parse_any(PEP695_DEF)
