"""Argument Clinic's ``_PyArg_UnpackKeywords`` calls: the messages CPython prints for the
parser struct's keywords and the call's bounds, checked against this Python's own
``str.split`` and ``int.from_bytes`` (both parsed this way)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from errdex.extract.c import extract_c

TEXT = "x"

# as Argument Clinic writes them: 3.11's positional initializer, and the designated one
# with commented bounds and a varpos argument of later versions
CLINIC = r"""
static PyObject *
unicode_split(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *return_value = NULL;
    static const char * const _keywords[] = {"sep", "maxsplit", NULL};
    static _PyArg_Parser _parser = {NULL, _keywords, "split", 0};
    PyObject *argsbuf[2];
    args = _PyArg_UnpackKeywords(args, nargs, NULL, kwnames, &_parser, 0, 2, 0, argsbuf);
    if (!args) {
        goto exit;
    }
exit:
    return return_value;
}

static PyObject *
int_from_bytes(PyTypeObject *type, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *return_value = NULL;
    static const char * const _keywords[] = {"bytes", "byteorder", "signed", NULL};
    static _PyArg_Parser _parser = {
        .keywords = _keywords,
        .fname = "from_bytes",
        .kwtuple = KWTUPLE,
    };
    PyObject *argsbuf[3];
    args = _PyArg_UnpackKeywords(args, nargs, NULL, kwnames, &_parser,
            /*minpos*/ 1, /*maxpos*/ 2, /*minkw*/ 0, /*varpos*/ 0, argsbuf);
    if (!args) {
        goto exit;
    }
exit:
    return return_value;
}
"""


def test_the_parser_struct_and_bounds_give_each_message() -> None:
    shown = {s.template.display for s in extract_c(CLINIC, "Objects/clinic/longobject.c.h")}
    assert {
        "from_bytes() takes at most 3 arguments (%zd given)",
        "from_bytes() takes at most 2 positional arguments (%zd given)",
        "from_bytes() missing required argument 'bytes' (pos 1)",
        "argument for from_bytes() given by name ('byteorder') and position (2)",
        "'%S' is an invalid keyword argument for from_bytes()",
        "split() takes at most 2 arguments (%zd given)",
        "argument for split() given by name ('sep') and position (1)",
    } <= shown
    # split takes 2 in all, so too many by position is too many in all, said once
    assert "split() takes at most 2 positional arguments (%zd given)" not in shown


@pytest.mark.parametrize(
    "call",
    [
        lambda: TEXT.split(1, 2, 3),  # type: ignore[call-overload]
        lambda: TEXT.split(foo=1),  # type: ignore[call-overload]
        lambda: TEXT.split(None, sep=None),  # type: ignore[misc]
        lambda: int.from_bytes(),  # type: ignore[call-overload]
        lambda: int.from_bytes(b"", "big", True),  # type: ignore[misc]
        lambda: int.from_bytes(b"", foo=1),  # type: ignore[call-overload]
        lambda: int.from_bytes(b"", bytes=b""),  # type: ignore[misc]
    ],
)
def test_what_this_python_prints_fits_a_catalogued_message(call: Callable[[], object]) -> None:
    templates = [s.template for s in extract_c(CLINIC, "x.c.h")]
    with pytest.raises(TypeError) as info:
        call()
    printed = str(info.value)
    assert any(t.match(printed) is not None for t in templates), printed
