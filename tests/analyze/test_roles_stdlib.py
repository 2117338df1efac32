"""Roles on real code: CPython 3.11's own signals and abstract methods.

Each case was read in the standard library this test runs on: ``_EveryNode`` is raised
bare by ``lib2to3.refactor._get_head_types`` and caught by ``_get_headnode_dict``; the
pure-Python JSON scanner's ``_scan_once`` raises ``StopIteration(idx)`` for "no value
here"; ``SSLSocket.dup`` and ``Counter.fromkeys`` refuse an operation their class does
not support, which no subclass is asked to provide.
"""

from __future__ import annotations

from typing import Any

import pytest

from .stdlib_items import ON_311, Item, stdlib_items

pytestmark = ON_311


@pytest.fixture(scope="module")
def items() -> list[Item]:
    return stdlib_items(
        "lib2to3/refactor.py",
        "json/**",
        "_collections_abc.py",
        "ssl.py",
        "collections/__init__.py",
        "argparse.py",
        "mailbox.py",
        "multiprocessing/pool.py",
        "unittest/mock.py",
        "pickle.py",
        "unittest/case.py",
    )


def records(items: list[Item], qualname: str, error_class: str) -> list[dict[str, Any]]:
    found = [
        r for r, e in items if e["site"]["qualname"] == qualname and r["errorClass"] == error_class
    ]
    assert found, (qualname, error_class)
    return found


def test_lib2to3s_every_node_is_an_internal_signal(items: list[Item]) -> None:
    for record in records(items, "lib2to3.refactor._get_head_types", "_EveryNode"):
        assert record["solutions"][0].startswith(
            "Nothing to fix: `_EveryNode` is caught inside the library "
            "(`lib2to3.refactor._get_headnode_dict` (line "
        )
        assert "Catch" not in " ".join(record["solutions"])
        assert record["tryCatchPattern"] is None


def test_the_json_scanners_stop_iteration_is_a_signal(items: list[Item]) -> None:
    for record in records(
        items, "json.scanner.py_make_scanner.<locals>._scan_once", "StopIteration"
    ):
        assert record["solutions"][0].startswith("Nothing to fix: `StopIteration` is how")
        assert record["preventionTips"] == []


def test_an_abstract_send_is_to_be_overridden(items: list[Item]) -> None:
    # ``@abstractmethod def send(self, value): raise StopIteration`` in the ABCs
    for cls in ("Generator", "Coroutine"):
        (record,) = records(items, f"_collections_abc.{cls}.send", "StopIteration")
        assert record["solutions"][0].startswith(f"Implement `send` in your subclass of `{cls}`")
        # an @abstractmethod: reached only through an override or a direct call on the base
        assert f"`{cls}.send` is an `@abstractmethod`" in record["documentation"]
        assert (
            "reached only when an override delegates to it (`super().send(...)`) or "
            f"`{cls}.send` is called directly"
        ) in record["documentation"]


def test_an_iterators_next_ends_the_iteration(items: list[Item]) -> None:
    # ``IMapIterator.next`` (``__next__ = next``) raises StopIteration when done
    for record in records(items, "multiprocessing.pool.IMapIterator.next", "StopIteration"):
        assert record["solutions"][0].startswith("Nothing to fix: a `for` loop over the iterator")


def test_stop_async_iteration_of_a_mock_keeps_an_ordinary_account(items: list[Item]) -> None:
    # an AsyncMock whose side_effect ran out: the test's setup, not the end of a loop
    for record in records(
        items, "unittest.mock.AsyncMockMixin._execute_mock_call", "StopAsyncIteration"
    ):
        assert "Nothing to fix" not in " ".join(record["solutions"])


@pytest.mark.parametrize(
    ("qualname", "cause"),
    [
        # the statement "Can't dup() %s instances" is not restated as a solution
        ("ssl.SSLSocket.dup", "Catch `NotImplementedError` around the call to `SSLSocket.dup()`"),
        ("collections.Counter.fromkeys", "Use Counter(iterable) instead"),
    ],
)
def test_an_unsupported_operation_is_no_abstract_method(
    items: list[Item], qualname: str, cause: str
) -> None:
    (record,) = records(items, qualname, "NotImplementedError")
    assert "overridden" not in record["documentation"]
    assert not any(s.startswith("Implement") for s in record["solutions"])
    assert cause in " ".join(record["solutions"])


def test_abstract_methods_stay_abstract(items: list[Item]) -> None:
    # "Method must be implemented by subclass"; argparse's '.__call__() not defined' is
    # implemented by the module's own actions (_StoreAction.__call__, …)
    (add,) = records(items, "mailbox.Mailbox.add", "NotImplementedError")
    assert add["solutions"][0].startswith("Implement `add` in your subclass of `Mailbox`")
    (call,) = records(items, "argparse.Action.__call__", "NotImplementedError")
    assert call["solutions"][0].startswith("Implement `__call__` in your subclass of `Action`")


@pytest.mark.parametrize(
    ("qualname", "error_class", "module"),
    [
        ("pickle._Unpickler.load_stop", "_Stop", "pickle"),
        ("unittest.case.TestCase._addUnexpectedSuccess", "_UnexpectedSuccess", "unittest.case"),
    ],
)
def test_a_private_class_caught_by_name_in_its_own_module_gets_no_catch_advice(
    items: list[Item], qualname: str, error_class: str, module: str
) -> None:
    """``_Stop`` is caught by ``_Unpickler.load`` (through the dispatch table),
    ``_UnexpectedSuccess`` by the ``try`` around its own raise: "catch `Exception` around
    the call" (what main said) is no advice for either."""
    for record in records(items, qualname, error_class):
        assert record["solutions"] == [
            f"Nothing to fix: `{error_class}` is how `{module}` signals inside the module, "
            "which catches it by name; do not treat it as a failure."
        ]
        assert record["handlingStrategy"] is None and record["tryCatchPattern"] is None
