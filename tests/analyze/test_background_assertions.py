"""``backgroundTag`` of an ``AssertionError``: a library's own check that went wrong is an
``internal-assertion``; a test framework's assertion method failing is the caller's own
assertion (blind review at stop 30: ``assertRegex``, mock's ``assert_not_awaited`` tagged
``internal-assertion``, four false statements)."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import ON_311, one_file_items, stdlib_items

CHECKS = """
class Checker:
    def assertPositive(self, value):
        if value <= 0:
            raise AssertionError(f"{value!r} is not positive")

    def assert_called(self, mock):
        if not mock.called:
            raise AssertionError("expected a call")

    def _assertInternal(self, state):
        if state is None:
            raise AssertionError("state lost")

    def assertion_count(self, n):
        if n < 0:
            raise AssertionError("negative count")


def assert_never(value):
    raise AssertionError(f"unreachable: {value!r}")


def compute(x):
    assert x is not None, "x must be set"
    return x
"""


def _tags(tmp_path: Path) -> dict[str, str | None]:
    items = one_file_items(tmp_path, "checks.py", CHECKS)
    return {e["site"]["qualname"]: r["backgroundTag"] for r, e in items}


def test_public_assertion_methods_take_no_internal_assertion_tag(tmp_path: Path) -> None:
    tags = _tags(tmp_path)
    assert tags["checks.Checker.assertPositive"] is None
    assert tags["checks.Checker.assert_called"] is None
    assert tags["checks.assert_never"] is None


def test_private_checks_and_assert_statements_stay_internal_assertions(tmp_path: Path) -> None:
    tags = _tags(tmp_path)
    assert tags["checks.Checker._assertInternal"] == "internal-assertion"
    # a name that merely starts with the letters "assert" is no assertion method
    assert tags["checks.Checker.assertion_count"] == "internal-assertion"
    assert tags["checks.compute"] == "internal-assertion"


@ON_311
def test_unittest_and_mock_assertions_are_the_callers_own() -> None:
    items = stdlib_items("unittest/case.py", "unittest/mock.py", "lib2to3/pgen2/conv.py")
    by_function: dict[str, set[str | None]] = {}
    for record, evidence in items:
        if record["errorClass"] == "AssertionError" and evidence["site"]["kind"] == "raise":
            name = evidence["site"]["qualname"]
            by_function.setdefault(name, set()).add(record["backgroundTag"])
    assert by_function["unittest.case.TestCase.assertRegex"] == {None}
    assert by_function["unittest.mock.AsyncMockMixin.assert_not_awaited"] == {None}
    assert by_function["unittest.mock.NonCallableMock.assert_called_once_with"] == {None}
    # assertRegex's own `assert expected_regex, ...` checks its argument: the library's
    assert {
        r["backgroundTag"]
        for r, e in items
        if e["site"]["qualname"] == "unittest.case.TestCase.assertRegex"
        and e["site"]["kind"] == "assert"
    } == {"internal-assertion"}
    # conv.py's parser checks are the library's own
    conv = {r["backgroundTag"] for r, _ in items if r["filePath"].endswith("pgen2/conv.py")}
    assert conv == {"internal-assertion"}
