"""Solutions on real code (CPython 3.11): a module's constants, ``from None``, formatting code.

Read in the 3.11 sources: ``asyncio.wait`` raises ``ValueError`` when ``return_when not in
(FIRST_COMPLETED, FIRST_EXCEPTION, ALL_COMPLETED)`` (asyncio/tasks.py:420);
``selectors._BaseSelectorImpl.unregister`` raises ``KeyError(...) from None``
(selectors.py:251); ``unittest.mock.NonCallableMock.assert_has_calls`` raises
``AssertionError(f'{problem}\\nExpected: {_CallList(calls)}...')`` (mock.py:976);
``_pyio.FileIO.__init__`` raises ``TypeError`` when ``not isinstance(mode, str)``
(_pyio.py:1531), in the pure-Python twin of ``io`` where errdex finds no entry point.
"""

from __future__ import annotations

import pytest

from .stdlib_items import ON_311, Item, stdlib_items

pytestmark = ON_311


@pytest.fixture(scope="module")
def items() -> list[Item]:
    return stdlib_items("asyncio/tasks.py", "selectors.py", "unittest/mock.py", "_pyio.py")


def solutions(items: list[Item], qualname: str, line: int) -> list[str]:
    found = [
        r["solutions"]
        for r, e in items
        if e["site"]["qualname"] == qualname and r["lineNumber"] == line
    ]
    assert len(found) == 1, (qualname, line)
    return found[0]


def test_wait_names_the_constants(items: list[Item]) -> None:
    assert solutions(items, "asyncio.tasks.wait", 420)[0].startswith(
        "Pass `return_when` to `wait()` as one of `FIRST_COMPLETED`, `FIRST_EXCEPTION` or "
        "`ALL_COMPLETED`:"
    )


def test_unregister_is_not_raised_while_handling(items: list[Item]) -> None:
    for text in solutions(items, "selectors._BaseSelectorImpl.unregister", 251):
        assert "while handling" not in text, text


def test_assert_has_calls_quotes_no_formatting_code(items: list[Item]) -> None:
    for text in solutions(items, "unittest.mock.NonCallableMock.assert_has_calls", 976):
        assert "_CallList" not in text, text


def test_a_public_method_of_the_pure_python_io(items: list[Item]) -> None:
    assert solutions(items, "_pyio.FileIO.__init__", 1531)[0].startswith(
        "Pass `mode` to `FileIO()` as an instance of `str`:"
    )
