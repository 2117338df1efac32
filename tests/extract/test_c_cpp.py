"""The C++ side of the C extractor: std:: throws, pybind11, nanobind, absl/XLA status errors."""

from __future__ import annotations

import textwrap

import pytest

from errdex.extract.c import extract_c, language_of
from errdex.extract.site import ErrorSite

from ._c_sdists import site_at

BINDINGS = textwrap.dedent(
    r"""
    #include <pybind11/pybind11.h>
    #include <nanobind/nanobind.h>
    #include <stdexcept>
    namespace py = pybind11;
    namespace nb = nanobind;

    namespace geometry {
    class Polygon {
     public:
      double area(int side) const {
        if (side < 0)
          throw std::invalid_argument("side must be non-negative, got " + std::to_string(side));
        if (side >= sides_.size()) {
          throw std::out_of_range("side index out of range");
        } else {
          throw std::runtime_error(std::string("no area for ") + name_);
        }
      }
    };
    }  // namespace geometry

    class ParseError : public std::exception {};

    PYBIND11_MODULE(shapes, m) {
      py::register_exception<ParseError>(m, "ShapeParseError");
      m.def("check", [](int n) {
        if (n == 0) throw py::value_error("n must not be zero");
        if (n == 1) throw pybind11::type_error(R"(expected "int")");
        if (n == 2) throw py::key_error("missing");
        if (n == 3) pybind11_fail("internal error: n == " + std::to_string(n));
        if (n == 4) py::set_error(PyExc_RuntimeError, "set directly");
        if (n == 5) throw ParseError();
        if (n == 6) throw py::error_already_set();
        if (n == 7) throw std::overflow_error("too big");
        if (n == 8) throw std::bad_alloc();
        if (n == 9) throw SomethingElse("whatever");
      });
    }

    void nb_side(nb::object o, int k) {
      if (k) throw nb::index_error("index out of bounds");
      nb::raise("expected %s, got %d items", "list", k);
      nb::raise_type_error("cannot convert %s", nb::type_name(o).c_str());
      throw;
    }

    absl::Status Validate(int rank, const Shape& shape) {
      if (rank < 0) {
        return absl::InvalidArgumentError(absl::StrCat("rank must be >= 0, got ", rank, "."));
      }
      if (shape.empty()) return InvalidArgument("Shape %s has rank %d", shape.ToString(), rank);
      return absl::FailedPreconditionError("not ready");
    }
    """
)


@pytest.fixture(scope="module")
def sites() -> list[ErrorSite]:
    return extract_c(BINDINGS, "src/shapes.cpp")


def _at(sites: list[ErrorSite], needle: str) -> ErrorSite:
    return site_at(sites, BINDINGS, needle)


def test_std_throw_maps_to_the_class_pybind11_raises(sites: list[ErrorSite]) -> None:
    site = _at(sites, "std::invalid_argument")
    assert (site.kind, site.error_class, site.language) == ("throw", "ValueError", "cpp")
    assert site.template.display == "side must be non-negative, got {std::to_string(side)}"
    assert (site.function, site.qualname) == ("area", "geometry::Polygon::area")
    assert [g.text for g in site.guards] == ["side < 0"]
    assert "raised in C++" in site.notes[0]


@pytest.mark.parametrize(
    ("needle", "cls", "message"),
    [
        ("std::out_of_range", "IndexError", "side index out of range"),
        ("std::runtime_error", "RuntimeError", "no area for {name_}"),
        ("py::value_error", "ValueError", "n must not be zero"),
        ("pybind11::type_error", "TypeError", 'expected "int"'),
        ("py::key_error", "KeyError", "missing"),
        ("pybind11_fail", "RuntimeError", "internal error: n == {std::to_string(n)}"),
        ("py::set_error", "RuntimeError", "set directly"),
        ("throw ParseError", "ShapeParseError", ""),
        ("std::overflow_error", "OverflowError", "too big"),
        ("std::bad_alloc", "MemoryError", ""),
        ("nb::index_error", "IndexError", "index out of bounds"),
        ("nb::raise(", "RuntimeError", "expected %s, got %d items"),
        ("nb::raise_type_error", "TypeError", "cannot convert %s"),
    ],
)
def test_binding_idioms(sites: list[ErrorSite], needle: str, cls: str, message: str) -> None:
    site = _at(sites, needle)
    assert (site.error_class, site.template.display) == (cls, message)


def test_else_branch_guard_and_lambda_scope(sites: list[ErrorSite]) -> None:
    assert [g.kind for g in _at(sites, "std::runtime_error").guards] == ["else"]
    assert _at(sites, "py::value_error").qualname == "PYBIND11_MODULE::<lambda>"


def test_rethrows_and_already_set_errors_are_not_sites(sites: list[ErrorSite]) -> None:
    lines = BINDINGS.splitlines()
    texts = {lines[s.line - 1].strip() for s in sites}
    assert not any("error_already_set" in t or t == "throw;" for t in texts)


def test_an_unknown_cpp_exception_is_kept_with_its_class_decided_at_run_time(
    sites: list[ErrorSite],
) -> None:
    site = _at(sites, "SomethingElse")
    assert site.error_class is None and site.template.display == "whatever"
    assert any("SomethingElse" in n for n in site.notes)


def test_status_errors_with_strcat_and_xla_format(sites: list[ErrorSite]) -> None:
    strcat = _at(sites, "absl::InvalidArgumentError")
    assert strcat.template.display == "INVALID_ARGUMENT: rank must be >= 0, got {rank}."
    assert strcat.template.match("INVALID_ARGUMENT: rank must be >= 0, got -1.") == {"rank": "-1"}
    xla = _at(sites, "InvalidArgument(")
    assert xla.template.display == "INVALID_ARGUMENT: Shape %s has rank %d"
    assert [h.name for h in xla.template.holes] == ["shape.ToString()", "rank"]
    assert (
        _at(sites, "FailedPreconditionError").template.display == "FAILED_PRECONDITION: not ready"
    )
    assert strcat.error_class is None and strcat.kind == "throw"


def test_a_plain_call_named_like_a_status_constructor_is_not_one() -> None:
    text = "void f() { Internal(x); InvalidArgument(n); }\n"
    assert extract_c(text, "f.cc") == []


def test_headers_read_as_cpp_when_they_are() -> None:
    assert language_of("include/pybind11/cast.h", b"namespace pybind11 {") == "cpp"
    assert language_of("include/spam.h", b"#define X 1\nint f(void);") == "c"
    assert language_of("src/a.hpp", b"") == "cpp"
    text = 'namespace a { void f() { throw std::length_error("too long"); } }\n'
    (site,) = extract_c(text, "a.h")
    assert (site.language, site.error_class) == ("cpp", "ValueError")
