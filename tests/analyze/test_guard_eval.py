"""A guard on a caller's known values: false only when it is surely false."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.analyze.guard_eval import EMPTY_KWARGS, OPAQUE, Built, Global, Made, guard_value

from .stdlib_items import one_file_items


@pytest.mark.parametrize(
    ("guard", "known", "expected"),
    [
        ("mode not in ('r', 'w', 'a')", {"mode": "r"}, False),
        ("mode not in ('r', 'w', 'a')", {"mode": "x"}, True),
        ("level < 0", {"level": -1}, True),
        ("0 <= level <= 9", {"level": 12}, False),
        ("strict and len(buf) != BLOCK", {"strict": False}, False),
        ("strict and len(buf) != BLOCK", {"strict": True}, None),  # buf, BLOCK unknown
        ("not silent", {"silent": True}, False),
        ("x is None or y", {"x": 3}, None),
        ("x is None or y", {"x": None}, True),
        ("isinstance(n, (int, float))", {"n": "3"}, False),
        ("isinstance(n, MyType)", {"n": 3}, None),  # not a builtin type
        ("name < 3", {"name": "a"}, None),  # str < int raises: undecided, not false
        ("len(s) == 0", {"s": ""}, True),
        ("len(items) == 0", {}, None),
        ("x is 300", {"x": 300}, None),  # identity of ints is the interpreter's business
        ("f(x)", {"x": 1}, None),
        ("not (", {"x": 1}, None),  # does not parse
        # zipfile.ZipInfo.__init__(filename, date_time=(1980, 1, 1, 0, 0, 0))
        ("date_time[0] < 1980", {"date_time": (1980, 1, 1, 0, 0, 0)}, False),
        ("date_time[0] < 1980", {"date_time": ()}, None),  # IndexError: undecided
        ("mode[:1] != 'r'", {"mode": "rb"}, False),
        # imp.load_module: ``mode and (not mode.startswith('r') or '+' in mode)``
        ("mode and (not mode.startswith('r') or '+' in mode)", {"mode": "rb"}, False),
        ("mode and (not mode.startswith('r') or '+' in mode)", {"mode": "r+"}, True),
        ("name.isidentifier()", {"name": "1x"}, False),
        ("s.index('z') > 0", {"s": "ab"}, None),  # ValueError: undecided
        ("name.format(x)", {"name": "a"}, None),  # not a pure method here
        ("path.exists()", {"path": "a"}, None),  # not a str method at all
        ("l % 8 or n", {"l": 16, "n": 0}, False),
        ("'%s' % x", {"x": 1}, None),  # formatting is not arithmetic
        ("s + s", {"s": "a" * 6000}, None),  # too large to build
    ],
)
def test_guard_value(guard: str, known: dict[str, object], expected: bool | None) -> None:
    assert guard_value(guard, known) is expected


def test_a_shadowed_builtin_is_unknown() -> None:
    assert guard_value("len(x) > 2", {"x": "abc", "len": 0}) is None


_MISSING = Global("m.MISSING")


@pytest.mark.parametrize(
    ("guard", "known", "expected"),
    [
        # dataclasses.field: a parameter left at the module's MISSING is MISSING
        (
            "a is not MISSING and b is not MISSING",
            {"a": 1, "b": _MISSING, "MISSING": _MISSING},
            False,
        ),
        ("b is MISSING", {"b": _MISSING, "MISSING": _MISSING}, True),
        ("b is OTHER", {"b": _MISSING, "OTHER": Global("m.OTHER")}, None),  # may be one object
        ("b == MISSING", {"b": _MISSING, "MISSING": _MISSING}, None),  # __eq__ may be anything
        ("not b", {"b": _MISSING}, None),
        ("isinstance(b, str)", {"b": _MISSING}, None),
        # optparse add_options: ``self.add_option(option)``, one element not known
        ("not (len(args) == 1 and not kwargs)", {"args": (OPAQUE,), "kwargs": EMPTY_KWARGS}, False),
        ("not isinstance(args[0], str)", {"args": (OPAQUE,)}, None),
        ("'-o' in args", {"args": ("-x", OPAQUE)}, None),
        ("args.count('-o')", {"args": ("-x", OPAQUE)}, None),
        ("'dest' in kwargs", {"kwargs": EMPTY_KWARGS}, False),
    ],
)
def test_objects_known_by_name_and_elements_not_known(
    guard: str, known: dict[str, object], expected: bool | None
) -> None:
    assert guard_value(guard, known) is expected


def test_one_of_a_few_values_is_not_known_by_itself() -> None:
    """A :class:`OneOf` is judged value by value (:mod:`errdex.analyze.value_sets`):
    seen whole, it decides nothing, not even ``==`` against a value it does not equal."""
    from errdex.analyze.guard_eval import OneOf

    few = OneOf(("w", "w:gz"))
    assert guard_value("mode == 'r'", {"mode": few}) is None
    assert guard_value("mode in ('r', 'w')", {"mode": few}) is None
    assert guard_value("not mode", {"mode": few}) is None
    assert guard_value("mode is None or x", {"mode": few}) is None


def test_a_module_constant_known_by_name_equals_itself_only() -> None:
    """``zipfile.ZIP_STORED`` passed where the guard reads ``ZIP_STORED``: equal whatever
    its value; against another name or a literal, not known; a name not resolved yet
    (:class:`ModuleRef`) is not known at all."""
    from errdex.analyze.guard_eval import ModuleRef, Named

    stored, deflated = Named("zipfile.ZIP_STORED"), Named("zipfile.ZIP_DEFLATED")
    names = {"ZIP_STORED": stored, "ZIP_DEFLATED": deflated}
    assert guard_value("compression != ZIP_STORED", {**names, "compression": stored}) is False
    assert guard_value("compression == ZIP_STORED", {**names, "compression": stored}) is True
    assert guard_value("compression == ZIP_STORED", {**names, "compression": deflated}) is None
    assert guard_value("compression == ZIP_STORED", {**names, "compression": 0}) is None
    assert guard_value("not ZIP_STORED", names) is None
    assert guard_value("ZIP_STORED > 3", names) is None
    unresolved = ModuleRef(("zipfile", "ZIP_STORED"))
    assert (
        guard_value("compression == ('zipfile', 'ZIP_STORED')", {"compression": unresolved}) is None
    )


@pytest.mark.parametrize(
    ("guard", "expected"),
    [
        # pydoc's docroutine: ``inspect.getattr_static(cl, realname, [])``
        ("default is not _sentinel", True),
        ("not (default is not _sentinel)", False),
        ("default is _sentinel", False),
        ("default is None", False),
        ("not default", True),  # its truth and length are known
        ("len(default) == 0", True),
        ("default == ()", None),  # a list equals no tuple: the type is not known
        ("default != ()", None),
        ("isinstance(default, tuple)", None),
        ("isinstance(default, str)", False),
        ("default is other", None),  # another display: not known to be another object
    ],
)
def test_a_display_the_call_builds_is_a_new_object(guard: str, expected: bool | None) -> None:
    """A list display passed (``[]``) is built by the call: no name holds it already."""
    known = {
        "default": Built(()),
        "other": Built((1,)),
        "_sentinel": Global("inspect._sentinel"),
    }
    assert guard_value(guard, known) is expected


@pytest.mark.parametrize(
    ("guard", "expected"),
    [
        ("callback is None", False),
        ("callback is not None", True),
        ("callback is _sentinel", False),  # a lambda is a new object
        ("text is None", False),
        ("text is not None", True),
        ("text is _sentinel", None),  # an f-string may give back a string it formats
        ("isinstance(text, str)", None),
        ("callback == other", None),
        ("not callback", None),
        ("callback is other", None),
    ],
)
def test_a_value_the_call_builds_is_no_none(guard: str, expected: bool | None) -> None:
    """A lambda, a comprehension, a dict display or an f-string passed is never ``None``."""
    known = {
        "callback": Made(fresh=True),
        "other": Made(fresh=True),
        "text": Made(fresh=False),
        "_sentinel": Global("m._sentinel"),
    }
    assert guard_value(guard, known) is expected


_OPTIONS = (
    "import warnings\n"
    "\n\n"
    "class Extension:\n"
    "    def __init__(self, name, sources, **kw):\n"
    "        self.name = name\n"
    "        if len(kw) > 0:\n"
    "            warnings.warn('Unknown Extension options: %s' % ', '.join(kw))\n"
    "\n\n"
    "def read_setup(module):\n"
    "    return Extension(module, [])\n"
    "\n\n"
    "def odd(module):\n"
    "    return Extension(module, [], chic=1)\n"
)


def test_a_call_passing_no_keyword_leaves_kwargs_empty(tmp_path: Path) -> None:
    assert guard_value("len(kw) > 0", {"kw": EMPTY_KWARGS}) is False
    """Blind review stop 35, record 37: ``read_setup_file`` calls ``Extension(module,
    [])``: ``kw`` is empty and ``len(kw) > 0`` false, so no "Unknown Extension options"."""
    ((_, evidence),) = one_file_items(tmp_path, "m.py", _OPTIONS)
    assert [e["qualname"] for e in evidence["entryPoints"]] == ["m.Extension.__init__", "m.odd"]
