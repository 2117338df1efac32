"""The last-resort catch names the raising function's own call where a public heir
inherits it, goes around a generator's iteration rather than its call, names a
property's ``del`` as such, and is not offered for a ``__main__`` block (review rr1 of
b48's public_catch: items 2, 3, 6, 7)."""

from __future__ import annotations

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

LIBRARY = """\
import os
import sys


class _Base:
    def parts(self, step=1, size=None):
        v = os.urandom(1)
        if v == b"x":
            raise ValueError("the parts do not fit this base")
        yield step

    def split(self):
        return list(self.parts())


class Pub(_Base):
    pass


class Slot:
    @property
    def val(self):
        return 1

    @val.deleter
    def val(self):
        v = os.urandom(1)
        if v == b"x":
            raise RuntimeError("the value cannot be deleted now")


def main():
    args = sys.argv[1:]
    if len(args) > 3:
        raise ValueError("the program takes three words at most")
    print(args)


if __name__ == "__main__":
    if len(sys.argv) > 5:
        raise ValueError("too many words on the command line")
"""


@pytest.fixture(scope="module")
def solutions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    root = tmp_path_factory.mktemp("catch_own")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("from .core import Pub, Slot, main\n")
    (root / "pkg" / "core.py").write_text(LIBRARY)
    result = scan_checkout(open_source(str(root), repo="o/pkg"), repo="o/pkg")
    return {r["errorMessage"]: r["solutions"] for r, _ in result.items}


def test_an_inherited_generator_is_caught_where_it_is_iterated(
    solutions: dict[str, list[str]],
) -> None:
    # ``Pub.parts`` inherits ``_Base.parts``: its own call, not ``Pub.split()`` (which
    # passes only the defaults), and its iteration, not its call, which raises nothing
    (text,) = solutions["the parts do not fit this base"]
    assert text.startswith(
        "Catch `ValueError` around the code that iterates the result of `Pub.parts()`"
    ), text
    assert "call to `Pub.split()`" not in text


def test_a_property_deleter_runs_on_del(solutions: dict[str, list[str]]) -> None:
    (text,) = solutions["the value cannot be deleted now"]
    assert text.startswith(
        "Catch `RuntimeError` around the deletion of `Slot.val` (`del obj.val`)"
    ), text


def test_a_main_block_is_no_import(solutions: dict[str, list[str]]) -> None:
    assert not any("import of" in s for s in solutions["too many words on the command line"])


def test_a_program_main_is_no_call_to_catch_around(solutions: dict[str, list[str]]) -> None:
    # ``main()`` reads ``sys.argv``: a caller's handler around it is no fix (as the
    # fallback's place already held before the raising call was put first)
    assert not any(
        "call to `main()`" in s for s in solutions["the program takes three words at most"]
    )
