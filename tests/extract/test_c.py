"""The C extractor on small extension-module fixtures: every C API idiom it reads."""

from __future__ import annotations

import builtins
import textwrap

import pytest

from errdex.extract.c import NO_FRAME, extract_c
from errdex.extract.c.argparse import parse_tuple_counts
from errdex.extract.c.formats import format_template
from errdex.extract.registry import extractor_for, load_extractor
from errdex.extract.site import ErrorSite

from ._c_sdists import site_at

MODULE = textwrap.dedent(
    r"""
    #include <Python.h>

    #define BAD_SIZE_MSG "size must be " "positive"
    #define NOT_A_LITERAL (1 + 2)

    static PyObject *SpamError;

    static PyObject *
    spam_system(PyObject *self, PyObject *args)
    {
        const char *command;
        int sts;

        if (!PyArg_ParseTuple(args, "s|i:system", &command, &sts))
            return NULL;
        sts = system(command);
        if (sts < 0) {
            PyErr_SetString(SpamError, "System command failed");
            return NULL;
        }
        else if (sts > 255) {
            PyErr_Format(PyExc_ValueError,
                         "status %d of %.200s is out of range (%zd%%)", sts, command, n);
            return NULL;
        }
        else {
            switch (sts) {
            case 3:
                PyErr_SetString(PyExc_TypeError, BAD_SIZE_MSG);
                return NULL;
            default:
                break;
            }
        }
        return PyLong_FromLong(sts);
    }

    static int
    spam_check(PyObject *obj, Py_ssize_t size)
    {
        if (size <= 0) {
            PyErr_Format(PyExc_TypeError, "expected %s, got %R (%S) of type %T",
                         "int", obj, obj, obj);
            return -1;
        }
        if (obj == Py_None) {
            PyErr_SetObject(PyExc_KeyError, obj);
            return -1;
        }
        if (PyErr_WarnEx(PyExc_DeprecationWarning, "spam_check() is deprecated", 1) < 0)
            return -1;
        if (PyErr_WarnFormat(PyExc_RuntimeWarning, 1, "size %zd is large", size) < 0)
            return -1;
        PyErr_SetString(PyExc_KeyError, "no such key");
        PyErr_SetNone(PyExc_StopIteration);
        PyErr_NoMemory();
        PyErr_BadArgument();
        PyErr_SetFromErrno(PyExc_OSError);
        PyErr_SetFromErrnoWithFilename(PyExc_IOError, path);
        PyErr_SetString(PyExc_ValueError, "tab\there \"quoted\" \x41");
        PyErr_SetString(PyExc_ValueError, "a" NOT_A_LITERAL "b");
        return 0;
    }

    PyMODINIT_FUNC
    PyInit_spam(void)
    {
        PyObject *m = PyModule_Create(&spammodule);
        SpamError = PyErr_NewException("spam.error", NULL, NULL);
        return m;
    }
    """
)


@pytest.fixture(scope="module")
def sites() -> list[ErrorSite]:
    return extract_c(MODULE, "spammodule.c")


def _at(sites: list[ErrorSite], needle: str) -> ErrorSite:
    return site_at(sites, MODULE, needle)


def test_set_string_on_a_module_exception_created_with_new_exception(
    sites: list[ErrorSite],
) -> None:
    site = _at(sites, '"System command failed"')
    assert (site.kind, site.error_class, site.qualified_class) == ("set", "error", "spam.error")
    assert site.template.display == "System command failed"
    assert (site.function, site.qualname, site.language) == ("spam_system", "spam_system", "c")
    assert [(g.kind, g.text) for g in site.guards] == [("if", "sts < 0")]
    assert NO_FRAME in site.notes


def test_format_conversions_are_holes_and_percent_percent_is_literal(
    sites: list[ErrorSite],
) -> None:
    site = _at(sites, '"status %d of %.200s')
    assert site.error_class == "ValueError"
    assert site.template.display == "status %d of %.200s is out of range (%zd%)"
    assert [h.name for h in site.template.holes] == ["sts", "command", "n"]
    assert site.template.match("status 300 of ls is out of range (12%)") == {
        "sts": "300",
        "command": "ls",
        "n": "12",
    }
    assert [(g.kind, g.text) for g in site.guards] == [("else", "!(sts < 0)"), ("if", "sts > 255")]


def test_macro_and_adjacent_literals_join_and_case_is_a_guard(sites: list[ErrorSite]) -> None:
    site = _at(sites, "BAD_SIZE_MSG);")
    assert (site.error_class, site.template.display) == ("TypeError", "size must be positive")
    assert [g.kind for g in site.guards] == ["else", "else", "case"]
    assert site.guards[-1].text == "sts == 3"


def test_capi_only_conversions(sites: list[ErrorSite]) -> None:
    site = _at(sites, "%R (%S) of type %T")
    assert site.template.display == "expected %s, got %R (%S) of type %T"
    assert site.template.match("expected int, got 'x' (x) of type str") is not None
    assert site.function == "spam_check"


def test_set_object_none_and_fixed_messages(sites: list[ErrorSite]) -> None:
    assert _at(sites, "PyErr_SetObject(PyExc_KeyError").template.display == "{obj}"
    stop = _at(sites, "PyErr_SetNone")
    assert (stop.error_class, stop.template.is_empty) == ("StopIteration", True)
    memory = _at(sites, "PyErr_NoMemory")
    assert (memory.error_class, memory.severity) == ("MemoryError", "critical")
    bad = _at(sites, "PyErr_BadArgument")
    assert bad.template.display == "bad argument type for built-in operation"


def test_key_error_prints_the_repr_of_its_message(sites: list[ErrorSite]) -> None:
    site = _at(sites, '"no such key"')
    assert site.template.display == "'no such key'"  # str(KeyError('no such key'))


def test_errno_messages_and_class_aliases(sites: list[ErrorSite]) -> None:
    errno = _at(sites, "PyErr_SetFromErrno(PyExc_OSError)")
    assert errno.template.match("[Errno 2] No such file or directory") is not None
    named = _at(sites, "PyErr_SetFromErrnoWithFilename")
    assert named.error_class == "OSError"  # PyExc_IOError is OSError since 3.3
    assert named.template.match("[Errno 2] No such file or directory: 'x.txt'") is not None


def test_warnings_are_warn_sites(sites: list[ErrorSite]) -> None:
    warn = _at(sites, "PyErr_WarnEx")
    assert (warn.kind, warn.error_class, warn.severity, warn.error_type) == (
        "warn",
        "DeprecationWarning",
        "warning",
        "console",
    )
    assert warn.template.display == "spam_check() is deprecated"
    fmt = _at(sites, "PyErr_WarnFormat")
    assert (fmt.error_class, fmt.template.display) == ("RuntimeWarning", "size %zd is large")


def test_escapes_are_read_and_an_opaque_macro_is_a_hole(sites: list[ErrorSite]) -> None:
    assert _at(sites, r'"tab\there').template.display == 'tab\there "quoted" A'
    opaque = _at(sites, 'NOT_A_LITERAL "b"')
    assert opaque.template.display == "a{NOT_A_LITERAL}b"


def test_parse_tuple_messages_are_rendered_from_its_format(sites: list[ErrorSite]) -> None:
    found = sorted(s.template.display for s in sites if s.style == "PyArg_ParseTuple")
    assert found == [
        "system() argument 1 must be str, not %.50s",
        "system() takes at least 1 argument (%zd given)",
        "system() takes at most 2 arguments (%zd given)",
    ]


@pytest.mark.parametrize(
    ("fmt", "expected"),
    [
        ("O|i:f", (1, 2, "f", False)),
        ("s#(ii)O!|et#$p:g", (3, 5, "g", False)),
        ("", (0, 0, None, False)),
        ("OO;custom message", (2, 2, None, True)),
        ("es|z*", (1, 2, None, False)),
    ],
)
def test_parse_tuple_format_counts(fmt: str, expected: tuple[int, int, str | None, bool]) -> None:
    assert parse_tuple_counts(fmt) == expected


CLINIC = textwrap.dedent(
    r"""
    static PyObject *
    _json_scanstring(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
    {
        if (!_PyArg_CheckPositional("scanstring", nargs, 2, 3)) {
            goto exit;
        }
        if (!PyUnicode_Check(args[0])) {
            _PyArg_BadArgument("scanstring", "argument 1", "str", args[0]);
            goto exit;
        }
        if (!_PyArg_CheckPositional("divmod", nargs, 2, 2)) {
            goto exit;
        }
        if (!_PyArg_NoKeywords("Struct", kwargs)) {
            goto exit;
        }
        if (!PyArg_UnpackTuple(args, "getattr", 2, 3, &v, &name, &dflt)) {
            goto exit;
        }
    exit:
        return return_value;
    }
    """
)


def test_argument_clinic_messages_render_as_cpython_raises_them() -> None:
    messages = {s.template.display for s in extract_c(CLINIC, "Modules/clinic/_json.c.h")}
    assert messages == {
        "scanstring expected at least 2 arguments, got %zd",
        "scanstring expected at most 3 arguments, got %zd",
        "scanstring() argument 1 must be str, not %.50s",
        "divmod expected 2 arguments, got %zd",
        "Struct takes no keyword arguments",
        "getattr expected at least 2 arguments, got %zd",
        "getattr expected at most 3 arguments, got %zd",
    }


def test_argument_parser_messages_agree_with_this_python() -> None:
    """The rendered templates match what CPython prints for the same checks."""
    by_text = {s.template.display: s for s in extract_c(CLINIC, "x.c.h")}
    printed = []
    for name, args in (("divmod", (1,)), ("getattr", (1,)), ("getattr", (1, "a", 2, 3))):
        with pytest.raises(TypeError) as info:
            vars(builtins)[name](*args)
        printed.append(str(info.value))
    assert all(any(t.template.match(p) for t in by_text.values()) for p in printed), printed


@pytest.mark.parametrize(
    ("fmt", "message"),
    [
        ("%ld and %lu and %lld and %llu", "-1 and 2 and -3 and 4"),
        ("%i %u %x %c %p", "1 2 ff A 0x7f"),
        ("%U / %A / %V / %N", "a / 'b' / c / int"),
        ("%-10s|%5d|%.3zd", "x         |    1|001"),
        ("%*s %.*s", "  a b"),
    ],
)
def test_every_from_format_conversion_is_a_hole(fmt: str, message: str) -> None:
    template = format_template(fmt)
    assert "%" not in "".join(template.literals)
    assert template.match(message) is not None


def test_registry_reads_c_and_headers() -> None:
    c, header = extractor_for("Modules/_json.c"), extractor_for("include/spam.h")
    assert c is not None and header is not None
    assert (c.language, header.language, c.analysed) == ("c", "c", False)
    assert all(
        any(k in line for k in c.keywords) for line in ("PyErr_SetString(", "PyArg_ParseTuple(")
    )
    text = 'void f(void) { PyErr_SetString(PyExc_ValueError, "x"); }\n'
    (site,) = load_extractor(c.module)(text, "f.c", text.splitlines())
    assert site.template.display == "x"


def test_a_file_tree_sitter_cannot_fully_read_still_gives_its_sites() -> None:
    text = 'MACRO_NOBODY_KNOWS(x) {{{ \nint f(void) { PyErr_SetString(PyExc_OSError, "still here"); }\n'
    assert [s.template.display for s in extract_c(text, "broken.c")] == ["still here"]


def test_an_exception_made_in_another_file_is_named_by_its_variable() -> None:
    text = textwrap.dedent(
        """
        static int add_key(decoder_state *state, PyObject *key) {
            if (!PyUnicode_Check(key)) {
                PyErr_SetString(state->JSONDecodeError, "object keys must be strings");
                return -1;
            }
            PyErr_SetString(state->lookup_table, "not a class name");
            return 0;
        }
        """
    )
    named, unknown = extract_c(text, "decode.c")
    assert (named.error_class, named.qualified_class) == ("JSONDecodeError", None)
    assert any("variable" in n for n in named.notes)
    assert unknown.error_class is None


HELPER = textwrap.dedent(
    r"""
    #define ERR_EXPECTING_VALUE "Expecting value"

    static void
    raise_errmsg(_state *state, const char *msg, PyObject *s, Py_ssize_t end)
    {
        PyObject *JSONDecodeError = state->JSONDecodeError;
        PyObject *exc = PyObject_CallFunction(JSONDecodeError, "(zOn)", msg, s, end);
        if (exc) {
            PyErr_SetObject(JSONDecodeError, exc);
            Py_DECREF(exc);
        }
    }

    static void fail(const char *why) { PyErr_SetString(PyExc_ValueError, why); }

    static PyObject *
    scan_once(_state *state, PyObject *pystr, Py_ssize_t idx)
    {
        if (idx < 0) {
            raise_errmsg(state, ERR_EXPECTING_VALUE, pystr, idx);
            return NULL;
        }
        fail("negative length");
        fail(some_variable);
        return NULL;
    }
    """
)


def test_a_helper_raising_the_message_it_is_passed_makes_each_call_a_site() -> None:
    sites = extract_c(HELPER, "_speedups.c")
    through = [s for s in sites if s.style.startswith("via ")]
    assert [(s.style, s.error_class, s.template.display, s.function) for s in through] == [
        ("via raise_errmsg", "JSONDecodeError", "Expecting value", "scan_once"),
        ("via fail", "ValueError", "negative length", "scan_once"),
    ]
    assert [g.text for g in through[0].guards] == ["idx < 0"]
    assert any("raised through raise_errmsg()" in n for n in through[0].notes)
    # the helpers' own sites stay: a call passing what the source does not state is theirs
    assert {s.function for s in sites if s.template.is_opaque} == {"raise_errmsg", "fail"}


def test_a_c_file_cython_generated_has_no_sites_of_its_own() -> None:
    from errdex.extract.c import extract

    body = 'static void f(void) { PyErr_SetString(PyExc_ValueError, "from cython utility"); }\n'
    generated = "/* Generated by Cython 3.0.11 */\n" + body
    assert extract(generated, "pkg/_x.c", generated.splitlines()) == []
    assert len(extract(body, "pkg/_x.c", body.splitlines())) == 1


CYTHON_API_HEADER = """\
#ifndef __PYX_HAVE_API__lxml__etree
#define __PYX_HAVE_API__lxml__etree
#include "Python.h"
static int __Pyx_ImportFunction_3_0_11(PyObject *module, const char *funcname) {
    PyObject *cobj = PyDict_GetItemString(d, funcname);
    if (!cobj) {
        PyErr_Format(PyExc_ImportError,
            "%.200s does not export expected C function %.200s",
                PyModule_GetName(module), funcname);
        return -1;
    }
    return 0;
}
#endif /* !__PYX_HAVE_API__lxml__etree */
"""


def test_cython_generated_headers_are_known_by_content_not_only_by_their_first_line() -> None:
    """lxml's ``etree_api.h`` is Cython's: its ``PyErr_Format`` is Cython's import utility,
    pasted into every module that cimports lxml, not a site of lxml's own. A header whose
    opening comment was rewritten (here: a licence first) still defines Cython's guards."""
    from errdex.extract.c import cython_generated, extract

    relicensed = "/* Copyright the lxml authors. */\n" + CYTHON_API_HEADER
    assert extract(relicensed, "src/lxml/etree_api.h", relicensed.splitlines()) == []
    public = "#ifndef __PYX_HAVE__lxml__etree\n#define __PYX_HAVE__lxml__etree\n#endif\n"
    assert cython_generated(public)
    assert cython_generated("\ufeff\n/* Generated by Cython 3.1.0 */\nint x;\n")
    assert cython_generated("// Generated by Cython 3.1.0\nint x;\n")
    # hand-written code that uses Cython's names (lxml's etree_defs.h) or checks a guard
    written = (
        "#ifdef __PYX_HAVE_API__lxml__etree\n#endif\n#define __PYX_HAVE_PYX_LOCK\n"
        'static int f(void) { PyErr_SetString(PyExc_TypeError, "x"); return __pyx_n; }\n'
    )
    assert not cython_generated(written)
    assert len(extract(written, "includes/etree_defs.h", written.splitlines())) == 1


KEYWORDS = textwrap.dedent(
    r"""
    static char *module_kwlist[] = {"", "b", NULL};

    static PyObject *
    f(PyObject *self, PyObject *args, PyObject *kwargs)
    {
        static char *kwlist[] = {"a", "b", "c", NULL};
        PyObject *a, *b = NULL, *c = NULL;
        if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O$O:f", kwlist, &a, &b, &c))
            return NULL;
        if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OO:g", (char **)module_kwlist, &a, &b))
            return NULL;
        if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O", kwlist, &a))
            return NULL;
        Py_RETURN_NONE;
    }
    """
)


def test_parse_tuple_and_keywords_messages_come_from_its_format_and_kwlist() -> None:
    found = [s for s in extract_c(KEYWORDS, "m.c") if s.style == "PyArg_ParseTupleAndKeywords"]
    by_line: dict[int, set[str]] = {}
    for site in found:
        by_line.setdefault(site.line, set()).add(site.template.display)
        assert site.error_class == "TypeError"
    f, g, anonymous = (by_line[n] for n in sorted(by_line))
    assert f == {
        "f() takes at most 3 arguments (%zd given)",
        "f() takes at most 3 keyword arguments (%zd given)",
        "f() takes at most 2 positional arguments (%zd given)",
        "f() missing required argument 'a' (pos 1)",
        "argument for f() given by name ('a') and position (1)",
        "argument for f() given by name ('b') and position (2)",
        "'%U' is an invalid keyword argument for f()",
        "keywords must be strings",
        "invalid keyword argument for f()",
    }
    assert "g() takes at least 1 positional argument (%zd given)" in g  # "" is positional-only
    assert "g() missing required argument 'b' (pos 2)" in g
    assert not any("'a'" in m or "''" in m for m in g)
    assert "'%U' is an invalid keyword argument for this function" in anonymous
    assert "function takes at most 3 arguments (%zd given)" in anonymous


@pytest.mark.parametrize(
    ("fmt", "kwlist", "calls"),
    [
        (
            "O|O:f",
            ["a", "b"],
            [((1, 2, 3), {}), ((), {"x": 1}), ((1,), {"a": 2}), ((1,), {"zz": 1})],
        ),
        ("O|$O:f", ["a", "b"], [((1, 2), {}), ((), {})]),
        ("OO|O:f", ["", "", "c"], [((), {}), ((1,), {"c": 1})]),
        ("$O:f", ["a"], [((1,), {}), ((), {"a": 1, "b": 2})]),
        ("O|O", ["a", "b"], [((), {"b": 1}), ((1,), {"q": 2})]),
    ],
)
def test_parse_tuple_and_keywords_messages_agree_with_this_python(
    fmt: str, kwlist: list[str], calls: list[tuple[tuple[object, ...], dict[str, object]]]
) -> None:
    """CPython's own ``PyArg_ParseTupleAndKeywords`` (through ``_testcapi``) prints a message
    each call's template matches."""
    testcapi = pytest.importorskip("_testcapi")
    names = ", ".join(f'"{n}"' for n in kwlist)
    source = (
        "static PyObject *f(PyObject *s, PyObject *args, PyObject *kw) {\n"
        f"    static char *kwlist[] = {{{names}, NULL}};\n"
        f'    if (!PyArg_ParseTupleAndKeywords(args, kw, "{fmt}", kwlist, &a, &b, &c))\n'
        "        return NULL;\n}\n"
    )
    templates = [s.template for s in extract_c(source, "m.c")]
    for args, kwargs in calls:
        with pytest.raises(TypeError) as info:
            testcapi.parse_tuple_and_keywords(args, kwargs, fmt, kwlist)
        printed = str(info.value)
        assert any(t.match(printed) is not None for t in templates), (
            printed,
            [t.display for t in templates],
        )


MACROS = textwrap.dedent(
    r"""
    #define ERR_NEGATIVE "value must not be negative"
    #define CHECK_POSITIVE(x) \
        if ((x) < 0) { \
            PyErr_SetString(PyExc_ValueError, ERR_NEGATIVE); \
            return NULL; \
        }
    #define FAIL_TYPE(msg) do { PyErr_SetString(PyExc_TypeError, msg); return NULL; } while (0)
    #define NOT_A_SITE(x) ((x) + 1)

    static PyObject *
    f(PyObject *self, PyObject *arg)
    {
        long v = PyLong_AsLong(arg);
        CHECK_POSITIVE(v);
        if (v > 10)
            FAIL_TYPE("value too large for f()");
        Py_RETURN_NONE;
    }
    """
)


def test_sites_in_macro_bodies_are_found_at_their_line_and_a_message_parameter_makes_uses_sites() -> (
    None
):
    lines = MACROS.splitlines()
    found = {(s.line, s.error_class, s.template.display, s.style) for s in extract_c(MACROS, "m.c")}
    set_string = next(i for i, line in enumerate(lines, 1) if "ERR_NEGATIVE); \\" in line)
    fail = next(i for i, line in enumerate(lines, 1) if line.startswith("#define FAIL_TYPE"))
    use = next(i for i, line in enumerate(lines, 1) if 'FAIL_TYPE("value' in line)
    assert found == {
        (set_string, "ValueError", "value must not be negative", "PyErr_SetString"),
        (fail, "TypeError", "{msg}", "PyErr_SetString"),
        (use, "TypeError", "value too large for f()", "via FAIL_TYPE"),
    }
    checked = next(s for s in extract_c(MACROS, "m.c") if s.line == set_string)
    assert checked.qualname == "CHECK_POSITIVE" and [g.text for g in checked.guards] == ["(x) < 0"]
    assert checked.guards[0].line == set_string - 1
    assert any("macro CHECK_POSITIVE" in n for n in checked.notes)


PYTHON_FILLED = HELPER.replace(
    '#define ERR_EXPECTING_VALUE "Expecting value"',
    '#define ERR_EXPECTING_VALUE "Expecting value"\n#define ERR_ESC1 "Invalid \\\\X escape %r"',
).replace("fail(some_variable);", 'raise_errmsg(state, ERR_ESC1, pystr, idx);\n    fail("50%r");')


def test_a_helper_handing_its_message_to_python_makes_its_percent_placeholders_holes() -> None:
    """simplejson's raise_errmsg passes the message to JSONDecodeError, whose errmsg()
    replaces ``%r`` with the repr of a character: a hole at each call; a helper that sets
    the message as it is (PyErr_SetString) keeps ``%r`` as text."""
    sites = extract_c(PYTHON_FILLED, "_speedups.c")
    through = {s.template.display: s for s in sites if s.style.startswith("via ")}
    escape = through["Invalid \\X escape %r"]
    assert [type(p).__name__ for p in escape.template.parts if p.text] == ["Literal", "Hole"]
    assert escape.template.match("Invalid \\X escape 'p'") is not None
    assert [type(p).__name__ for p in through["50%r"].template.parts if p.text] == ["Literal"]


REPRS = textwrap.dedent(
    r"""
    static PyObject *
    from_bytes(const char *s, Py_ssize_t len, int base)
    {
        PyObject *strobj = PyBytes_FromStringAndSize(s, len);
        PyErr_Format(PyExc_ValueError, "invalid literal for int() with base %d: %.200R",
                     base, strobj);
        return NULL;
    }

    static PyObject *
    from_text(const char *s, PyObject *u, int base)
    {
        PyObject *name;
        name = PyUnicode_FromString(s);
        PyErr_Format(PyExc_ValueError, "invalid literal for int() with base %d: %R", base, name);
        PyErr_Format(PyExc_ValueError, "bad value: %R", u);
        return NULL;
    }
    """
)


def test_a_repr_hole_prints_as_the_type_its_variable_is_made_with() -> None:
    """``%R`` of bytes prints ``b'…'``, of a str ``'…'``: when the function makes the
    variable with ``PyBytes_From…``/``PyUnicode_From…``, the hole admits only that."""
    from_bytes, from_text, unknown = extract_c(REPRS, "longobject.c")
    assert from_bytes.template.match("invalid literal for int() with base 10: b'abc'") is not None
    assert from_bytes.template.match("invalid literal for int() with base 10: 'abc'") is None
    assert from_text.template.match("invalid literal for int() with base 10: 'abc'") is not None
    assert from_text.template.match("invalid literal for int() with base 10: b'abc'") is None
    assert from_bytes.template.display.endswith("%.200R")  # shown as the source writes it
    assert unknown.template.match("bad value: b'x'") is not None  # a parameter: any repr


STORED = textwrap.dedent(
    r"""
    #include <Python.h>
    #define ERR_DEPTH "Reached object decoding depth limit"

    static PyObject *JSONDecodeError;

    struct DecoderState {
      char *start;
      char *errorStr;
      char *other;
    };

    static PyObject *SetError(struct DecoderState *ds, int offset, const char *message)
    {
      ds->start += offset;
      ds->errorStr = (char *) message;
      return NULL;
    }

    static PyObject *decode_object(struct DecoderState *ds, int depth, const char *why)
    {
      if (depth > 1024)
        return SetError(ds, -1, ERR_DEPTH);
      if (*ds->start != '"')
        return SetError(ds, -1, depth ? "Key name of object must be 'string'" : "Expected object");
      SetError(ds, 0, why);  /* a value the source does not state: no site */
      ds->other = "not raised";
      return NULL;
    }

    static PyObject *decode(const char *text)
    {
      struct DecoderState ds;
      ds.errorStr = NULL;
      if (*text == 0)
        ds.errorStr = "Empty input";
      decode_object(&ds, 0, text);
      if (ds.errorStr) {
        PyErr_Format(JSONDecodeError, "%s", ds.errorStr);
        return NULL;
      }
      return Py_None;
    }
    """
)


def test_a_message_stored_in_a_field_and_raised_later_makes_each_store_a_site() -> None:
    """ujson's decoder: ``SetError(ds, -1, "…")`` stores the text in ``ds->errorStr``,
    ``PyErr_Format(JSONDecodeError, "%s", ds.errorStr)`` raises it once."""
    sites = extract_c(STORED, "decode.c")
    lines = STORED.splitlines()
    stored = [s for s in sites if s.style in ("via SetError", "via field errorStr")]
    assert [(s.template.display, s.error_class, s.function) for s in stored] == [
        ("Reached object decoding depth limit", "JSONDecodeError", "decode_object"),
        ("Key name of object must be 'string'", "JSONDecodeError", "decode_object"),
        ("Expected object", "JSONDecodeError", "decode_object"),
        ("Empty input", "JSONDecodeError", "decode"),
    ]
    assert "SetError(ds, -1, ERR_DEPTH)" in lines[stored[0].line - 1]
    assert [g.text for g in stored[0].guards] == ["depth > 1024"]
    raised = next(s for s in sites if s.style == "PyErr_Format")
    assert raised.template.is_opaque  # the raise itself stays, one value
    assert any(
        f"PyErr_Format at line {raised.line} raises JSONDecodeError with ds.errorStr" in n
        for n in stored[0].notes
    )
    assert "not raised" not in {s.template.display for s in sites}  # another field
