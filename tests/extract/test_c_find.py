"""Finding a C file's site calls and ``#define``s by name gives what the query gives."""

from __future__ import annotations

import textwrap

from tree_sitter import QueryCursor

from errdex.extract.c.find import calls_named, definitions, throws
from errdex.extract.c.grammar import parser_for, sites_query
from errdex.extract.c.messages import call_name
from errdex.extract.c.walk import C_SITE_NAMES, CPP_SITE_NAMES

from .test_c import HELPER, MODULE
from .test_c_cpp import BINDINGS

TRICKY = textwrap.dedent(
    r"""
    /* PyErr_SetString(PyExc_ValueError, "in a comment") */
    #  define   SPACED "spaced define"
    #define NOT_A_DEFINE_defined 1
    #define RAISE(msg) PyErr_SetString(PyExc_ValueError, msg)
    static const char *s = "PyErr_SetString(PyExc_ValueError, \"in a string\")";
    static int f(void) {
        MyPyErr_SetStringX(1);
        _PyErr_SetString(tstate, PyExc_TypeError, "private");
        PyErr_SetString (PyExc_KeyError, "spaced call");
        obj->PyErr_SetString(PyExc_KeyError, "a field, not the C API");
        return PyErr_Format(PyExc_TypeError, "%s", PyErr_Occurred() ? "a" : "b") == NULL;
    }
    """
)


def _by_query(text: str) -> tuple[list[tuple[int, str]], list[int]]:
    tree = parser_for("c").parse(text.encode())
    found = QueryCursor(sites_query("c")).captures(tree.root_node)
    calls = [
        (c.start_byte, (fn.text or b"").decode())
        for c in found.get("call", [])
        if (fn := c.child_by_field_name("function")) is not None
        and fn.type == "identifier"
        and (fn.text or b"").decode() in C_SITE_NAMES
    ]
    defs = [d.start_byte for d in found.get("def", []) + found.get("macro", [])]
    return sorted(calls), sorted(defs)


def _by_name(text: str) -> tuple[list[tuple[int, str]], list[int]]:
    tree = parser_for("c").parse(text.encode())
    calls = [
        (c.start_byte, (c.child_by_field_name("function").text or b"").decode())  # type: ignore[union-attr]
        for c in calls_named(tree, C_SITE_NAMES)
    ]
    plain, function_like = definitions(tree)
    return calls, sorted(d.start_byte for d in plain + function_like)


def test_site_calls_and_defines_found_by_name_are_the_querys() -> None:
    for text in (MODULE, HELPER, TRICKY):
        assert _by_name(text) == _by_query(text)
    calls, defs = _by_name(TRICKY)
    assert [name for _, name in calls] == ["_PyErr_SetString", "PyErr_SetString", "PyErr_Format"]
    assert len(defs) == 3


def test_a_helper_is_found_by_its_own_name_only() -> None:
    tree = parser_for("c").parse(HELPER.encode())
    lines = [c.start_point[0] + 1 for c in calls_named(tree, {"raise_errmsg"})]
    assert lines == [
        next(n for n, t in enumerate(HELPER.splitlines(), 1) if "raise_errmsg(state" in t)
    ]
    assert calls_named(tree, set()) == []


CPP = textwrap.dedent(
    r"""
    // throw std::runtime_error("in a comment")
    static const char *s = "throw py::value_error(\"in a string\")";
    void f(int n) noexcept(false) {
        if (n < 0) throw py::value_error("negative");
        py::set_error(PyExc_KeyError, "set");
        py::register_exception<MyError>(m, "MyError");
        auto st = absl::InvalidArgumentError("bad");
        auto x = xla::InvalidArgument("bad %d", n);
        ::PyErr_SetString(PyExc_TypeError, "global scope");
        obj.set_error(1);
    }
    """
)


def test_cpp_calls_and_throws_found_by_name_are_the_querys() -> None:
    for text in (BINDINGS, CPP):
        tree = parser_for("cpp").parse(text.encode())
        found = QueryCursor(sites_query("cpp")).captures(tree.root_node)
        wanted = [c for c in found.get("call", []) if call_name(c) in CPP_SITE_NAMES]
        by_name = calls_named(tree, CPP_SITE_NAMES)
        assert [c.start_byte for c in by_name] == sorted(c.start_byte for c in wanted)
        assert [t.start_byte for t in throws(tree)] == sorted(
            t.start_byte for t in found.get("throw", [])
        )
    tree = parser_for("cpp").parse(CPP.encode())
    assert [call_name(c) for c in calls_named(tree, CPP_SITE_NAMES)] == [
        "py::set_error",
        "py::register_exception",
        "absl::InvalidArgumentError",
        "xla::InvalidArgument",
    ]
    assert len(throws(tree)) == 1
