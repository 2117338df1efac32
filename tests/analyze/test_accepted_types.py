"""A raise reached only after ``isinstance`` branches that all return names the types
they take (blind review stop 39, record 05: httpx ``encode_content`` said "no fix";
the fix is "pass bytes/str/an iterable as content=")."""

from __future__ import annotations

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

LIBRARY = """\
from collections.abc import Iterable


def encode(content):
    \"\"\"Encode the content.\"\"\"
    if isinstance(content, (bytes, str)):
        return content
    elif isinstance(content, Iterable) and not isinstance(content, dict):
        return b"".join(content)
    raise TypeError(f"Unexpected type for 'content', {type(content)!r}")


def mixed(value):
    if isinstance(value, int):
        value = str(value)
    raise TypeError(f'mixed got {value!r}')


def Request(content):
    return encode(content)
"""


@pytest.fixture(scope="module")
def solutions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    root = tmp_path_factory.mktemp("accepted")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("from .core import Request, build, encode, mixed\n")
    (root / "pkg" / "core.py").write_text(LIBRARY)
    result = scan_checkout(open_source(str(root), repo="o/pkg"), repo="o/pkg")
    return {r["errorMessage"]: r["solutions"] for r, _ in result.items}


def test_the_types_of_the_returning_branches(solutions: dict[str, list[str]]) -> None:
    assert solutions["Unexpected type for 'content', {type(content)!r}"] == [
        "Pass `content` to `encode()` as one of: `bytes` or `str`; `Iterable` that is not "
        "`dict`: `encode` returns for these (lines 6, 8) and raises `TypeError` at line 10 "
        "for a value of any other type."
    ]
    # a branch that rebinds the value and falls through gives no types
    assert not any("as one of" in s for s in solutions["mixed got {value!r}"])
