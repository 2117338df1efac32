"""A ``PyArg_ParseTuple*`` format's unit conversion messages, checked against CPython's own
parser through ``_testcapi``."""

from __future__ import annotations

import pytest

from errdex.extract.c import extract_c
from errdex.extract.c.arg_units import custom_message, unit_messages
from errdex.template import MessageTemplate


def _parse_tuple(fmt: str) -> list[MessageTemplate]:
    source = (
        "static PyObject *f(PyObject *self, PyObject *args) {\n"
        f'    if (!PyArg_ParseTuple(args, "{fmt}", &a, &b, &c))\n'
        "        return NULL;\n    Py_RETURN_NONE;\n}\n"
    )
    return [s.template for s in extract_c(source, "m.c")]


def _parse_tuple_and_keywords(fmt: str, kwlist: list[str]) -> list[MessageTemplate]:
    names = ", ".join(f'"{n}"' for n in kwlist)
    source = (
        "static PyObject *f(PyObject *s, PyObject *args, PyObject *kw) {\n"
        f"    static char *kwlist[] = {{{names}, NULL}};\n"
        f'    if (!PyArg_ParseTupleAndKeywords(args, kw, "{fmt}", kwlist, &a, &b, &c))\n'
        "        return NULL;\n    Py_RETURN_NONE;\n}\n"
    )
    return [s.template for s in extract_c(source, "m.c")]


def _fits(printed: str, templates: list[MessageTemplate]) -> bool:
    return any(t.match(printed) is not None for t in templates)


@pytest.mark.parametrize(
    ("function", "fmt", "argument"),
    [
        ("getargs_s", "s", 1),
        ("getargs_z", "z", 1),
        ("getargs_U", "U", b"x"),
        ("getargs_S", "S", None),
        ("getargs_Y", "Y", 1),
        ("getargs_c", "c", "a"),
        ("getargs_C", "C", "ab"),
        ("getargs_k", "k", 1.5),
        ("getargs_K", "K", "x"),
    ],
)
def test_a_parse_tuple_unit_that_cannot_convert_raises_what_cpython_prints(
    function: str, fmt: str, argument: object
) -> None:
    """``_testcapi.getargs_<unit>`` calls ``PyArg_ParseTuple(args, "<unit>", …)``."""
    testcapi = pytest.importorskip("_testcapi")
    with pytest.raises(TypeError) as info:
        getattr(testcapi, function)(argument)
    templates = _parse_tuple(fmt)
    assert _fits(str(info.value), templates), (str(info.value), [t.display for t in templates])


@pytest.mark.parametrize(
    ("fmt", "kwlist", "args", "kwargs"),
    [
        ("s:f", ["a"], (1,), {}),
        ("sS:g", ["a", "b"], ("x", 1), {}),
        ("s|U:g", ["a", "b"], ("x",), {"b": 1}),
        ("Oc:h", ["a", "b"], (1, 2), {}),
        ("es:f", ["a"], (1,), {}),
        ("s;custom text", ["a"], (1,), {}),
    ],
)
def test_a_keywords_unit_that_cannot_convert_raises_what_cpython_prints(
    fmt: str, kwlist: list[str], args: tuple[object, ...], kwargs: dict[str, object]
) -> None:
    testcapi = pytest.importorskip("_testcapi")
    with pytest.raises(TypeError) as info:
        testcapi.parse_tuple_and_keywords(args, kwargs, fmt, kwlist)
    templates = _parse_tuple_and_keywords(fmt, kwlist)
    assert _fits(str(info.value), templates), (str(info.value), [t.display for t in templates])


def test_units_are_numbered_by_position_and_skip_what_has_no_fixed_message() -> None:
    # ``O`` converts anything, ``s#`` raises the buffer protocol's message, ``(ii)`` is one
    # unit whose items are left out, ``i`` raises the int protocol's message.
    shown = [t.display for t, _ in unit_messages("Os#(ii)|iet#$Y:f", "f")]
    assert shown == [
        "f() argument 5 must be str, bytes or bytearray, not %.50s",
        "f() argument 6 must be bytearray, not %.50s",
    ]
    assert [t.display for t, _ in unit_messages("U", None)] == ["argument 1 must be str, not %.50s"]


def test_a_custom_message_is_the_text_after_a_semicolon_only() -> None:
    assert custom_message("OO;need two objects") == "need two objects"
    assert custom_message("OO:f") is None
    assert [t.display for t in _parse_tuple("OO;need two objects")] == ["need two objects"]
