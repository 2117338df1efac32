"""An expectation in a ``for`` loop is also cut once per item, the loop's target bound."""

from __future__ import annotations

import textwrap

from errdex.verify.from_tests import candidates

MODULE = textwrap.dedent(
    """
    import unittest
    import mylib

    BAD = ["[", "]"]


    class ParseTests(unittest.TestCase):
        def test_literal(self):
            for bad, kind in [(b"x", TypeError), (None, TypeError)]:
                with self.assertRaises(kind):
                    mylib.parse(bad)

        def test_named(self):
            for text in BAD:
                with self.assertRaises(ValueError):
                    mylib.parse(text)

        def test_skips(self):
            for text in ("a", "b"):
                if not text:
                    continue
                with self.assertRaises(ValueError):
                    mylib.parse(text)
    """
)


def _programs() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for cand in candidates(MODULE, "Lib/test/test_parse.py"):
        out.setdefault(cand.test.rsplit("::", 1)[1], []).append(cand.program)
    return out


def test_each_item_of_a_literal_loop_is_a_program_of_its_own() -> None:
    whole, first, second = _programs()["test_literal"]
    assert whole.endswith(
        "for bad, kind in [(b'x', TypeError), (None, TypeError)]:\n    mylib.parse(bad)"
    )
    assert first == "import mylib\nbad, kind = (b'x', TypeError)\nmylib.parse(bad)"
    assert second == "import mylib\nbad, kind = (None, TypeError)\nmylib.parse(bad)"


def test_a_named_iterable_is_indexed_and_a_loop_that_continues_is_kept_whole() -> None:
    named = _programs()["test_named"]
    assert named[1].endswith("BAD = ['[', ']']\ntext = list(BAD)[0]\nmylib.parse(text)")
    assert len(named) == 4  # the loop, then its first three items
    (skips,) = _programs()["test_skips"]
    assert "for text in ('a', 'b'):" in skips
