"""Fixes stated from the record's own facts where errdex said it found none, and the
handling strategy that goes with them, on CPython 3.11's own sources (read by hand)."""

from __future__ import annotations

from typing import Any

import pytest

from errdex.analyze.quoting import NO_FIX

from .stdlib_items import ON_311, Item, stdlib_items

pytestmark = ON_311


@pytest.fixture(scope="module")
def items() -> list[Item]:
    return stdlib_items(
        "inspect.py",
        "gettext.py",
        "ast.py",
        "mailbox.py",
        "xml/dom/minidom.py",
        "threading.py",
        "enum.py",
    )


def _at(items: list[Item], path: str, line: int) -> dict[str, Any]:
    (record,) = [r for r, _ in items if r["filePath"] == path and r["lineNumber"] == line]
    return record


def test_a_default_that_returns_before_the_raise_is_the_fix(items: list[Item]) -> None:
    """``getattr_static(obj, attr, default=_sentinel)``: ``if default is not _sentinel:
    return default`` (1851-1852) stands right before ``raise AttributeError(attr)``."""
    record = _at(items, "Lib/inspect.py", 1853)
    first = record["solutions"][0]
    assert first.startswith("Pass `default` to `getattr_static()`"), first
    assert "line 1851" in first and NO_FIX not in record["solutions"]
    assert record["handlingStrategy"] == "fallback"


def test_a_flag_that_returns_before_the_raise_is_the_fix(items: list[Item]) -> None:
    """``translation(…, fallback=False)``: ``if fallback: return NullTranslations()``
    (525-526) comes before ``raise FileNotFoundError`` (528) in the same block."""
    record = _at(items, "Lib/gettext.py", 528)
    assert any(
        s.startswith("Pass `fallback=True` to `translation()`") for s in record["solutions"]
    ), record["solutions"]
    assert record["handlingStrategy"] == "fallback"


def test_a_private_flag_is_no_way_out(items: list[Item]) -> None:
    """``EnumType.__new__(…, _simple=False, …)`` returns early ``if _simple:`` (503-504)
    before ``raise ValueError('invalid enum member name(s) …')`` (518): ``_simple`` is
    the library's own switch, not a parameter a caller passes."""
    record = _at(items, "Lib/enum.py", 518)
    assert record["handlingStrategy"] != "fallback"
    assert not any("_simple" in s for s in record["solutions"])


def test_the_type_guard_is_said_as_what_to_pass(items: list[Item]) -> None:
    """``get_docstring(node)`` raises ``TypeError`` when ``not isinstance(node,
    (AsyncFunctionDef, FunctionDef, ClassDef, Module))`` (ast.py:290-291)."""
    record = _at(items, "Lib/ast.py", 291)
    assert record["solutions"][0] == (
        "Pass `node` to `get_docstring()` as an instance of `AsyncFunctionDef`, "
        "`FunctionDef`, `ClassDef` or `Module`: it raises `TypeError` for any other "
        "(Lib/ast.py:291)."
    )


def test_the_docstrings_requirement_in_the_messages_words(items: list[Item]) -> None:
    """``Maildir.remove_folder``: "Delete the named folder, which must be empty." beside
    ``NotEmptyError('Folder contains message(s): %s')``; ``Thread.join``'s sentence on
    timeouts shares only "thread" with "cannot join current thread" and says what
    ``join()`` returns: not quoted."""
    record = _at(items, "Lib/mailbox.py", 467)
    assert record["solutions"][0] == (
        "The docstring of `Maildir.remove_folder()` states what the call requires: "
        "“Delete the named folder, which must be empty”."
    )
    joined = _at(items, "Lib/threading.py", 1116)
    assert not any(s.startswith("The docstring of") for s in joined["solutions"])
    # "cannot wait on un-acquired lock": ``Condition.wait``'s sentence on an RLock that
    # "may not actually unlock" the lock says how it works, not what the call requires
    waited = _at(items, "Lib/threading.py", 319)
    assert not any(s.startswith("The docstring of") for s in waited["solutions"])


def test_a_requirement_the_message_states_on_an_argument_is_checked_first(
    items: list[Item],
) -> None:
    """``Document.renameNode(n, …)`` raises ``WrongDocumentErr`` when ``n.ownerDocument is
    not self``, the message saying "cannot rename nodes from other documents; expected
    …": the caller knows the owner document before the call."""
    record = _at(items, "Lib/xml/dom/minidom.py", 1834)
    assert record["handlingStrategy"] == "validation"
