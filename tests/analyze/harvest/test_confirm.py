"""A run's node ids against the links the analyst read."""

from __future__ import annotations

from errdex.analyze.harvest.confirm import confirm_links, same_test


def test_same_test_ignores_parameters_and_a_different_root() -> None:
    assert same_test("tests/test_x.py::test_a", "tests/test_x.py::test_a[1-2]")
    assert same_test("tests/test_x.py::T::test_a", "pkg/tests/test_x.py::T::test_a")
    assert not same_test("tests/test_x.py::test_a", "tests/test_x.py::test_ab")
    assert not same_test("tests/test_x.py::test_a", "other/test_x2.py::test_a")
    assert not same_test("tests/test_x.py::T::test_a", "tests/test_x.py::test_a")


def test_confirm_links_marks_only_the_tests_that_ran_there() -> None:
    tests = [{"name": "t.py::a"}, {"name": "t.py::b"}, {"name": "t.py::c", "confirmed": True}]
    marked, newly = confirm_links(tests, ["t.py::a[0]", "t.py::c", None])  # type: ignore[list-item]
    assert [t.get("confirmed") for t in marked] == [True, None, True]
    assert newly == 1
    assert "confirmed" not in tests[0]  # the input is not changed
