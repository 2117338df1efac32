"""commonSituations from a linked test quotes the call the test makes, never its
assertion's pattern (paired blind review, stop 35: "runs `'path was not specified, and no
sock'):`" was the second line of ``with self.assertRaisesRegex(ValueError,``: false)."""

from __future__ import annotations

from errdex import evidence
from errdex.analyze.situations import failing_call


def _call(snippet: str) -> str | None:
    return failing_call(evidence.TestEvidence(snippet=snippet))  # type: ignore[typeddict-item]


def test_a_head_over_two_lines_is_not_the_call() -> None:
    snippet = (
        "with self.assertRaisesRegex(ValueError,\n"
        "                            'path was not specified, and no sock'):\n"
        "    self.loop.run_until_complete(coro)"
    )
    assert _call(snippet) == "self.loop.run_until_complete(coro)"


def test_a_head_over_three_lines_with_as() -> None:
    snippet = "with pytest.raises(\n    ValueError,\n    match='bad'):\n    build(1)\n    check(2)"
    assert _call(snippet) == "check(2)"


def test_one_line_heads_as_before() -> None:
    assert _call("with self.assertRaises(ValueError):\n    x = 1\n    f(x)") == "f(x)"
    assert _call("with self.assertRaises(ValueError):  # why\n    f(2)") == "f(2)"


def test_a_try_snippet_names_the_try_body_call() -> None:
    """expects.py keeps the whole ``try`` statement; the handler's assertion (or the
    ``else:`` block's ``pass``) is not the call the test makes."""
    snippet = (
        "try:\n"
        "    parse(bad)\n"
        "    self.fail()\n"
        "except ValueError as e:\n"
        '    self.assertIn("x", str(e))'
    )
    assert _call(snippet) == "parse(bad)"
    snippet = (
        "try:\n    x = make()\n    parse(x)\nexcept ValueError:\n    pass\nelse:\n    self.fail()"
    )
    assert _call(snippet) == "parse(x)"
    assert _call("    try:\n        parse(bad)\n    except ValueError:\n        pass") == (
        "parse(bad)"
    )


def test_nested_expectations_quote_the_call_not_the_inner_block() -> None:
    """idlelib's test_config expects SystemExit around an inner assertRaises of
    FileNotFoundError; quoting the inner block named a class the test does not expect
    (stop 39's blind review). Other ``with`` blocks are quoted whole, as before."""
    nested = (
        "with self.assertRaises(SystemExit):\n"
        "    with self.assertRaises(FileNotFoundError):\n"
        "        conf.GetUserCfgDir()"
    )
    assert _call(nested) == "conf.GetUserCfgDir()"
    other = "with self.assertRaises(E):\n    with open(f) as fh:\n        parse(fh)"
    assert _call(other) == "with open(f) as fh: parse(fh)"
