"""commonSituations without a linked test or a run-time message names a situation in the
caller's terms, not what errdex read (issue 10; blind reviews of stop 34: 120 of 143
misleading commonSituations were "errdex linked none of the N test files…")."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

LIBRARY = """\
class Base:
    def run(self):
        raise NotImplementedError


def _helper(flag):
    if flag:
        raise RuntimeError("internal state went wrong")


def get(k):
    if k < 0:
        raise ValueError("k out of bounds")
    return k


def _find(name):
    return None


def load(name):
    found = _find(name)
    if found is None:
        raise LookupError(f"no data file found for {name!r}")
    return found


def shift(offset, count=None):
    if count is None:
        raise ValueError("count was left out")
    return offset + count
"""
UNRELATED_TEST = "from pkg.core import get\n\n\ndef test_get():\n    assert get(1) == 1\n"


@pytest.fixture(scope="module")
def situations(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, dict]]:
    root: Path = tmp_path_factory.mktemp("situations")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "core.py").write_text(LIBRARY)
    (root / "tests").mkdir()
    (root / "tests" / "test_core.py").write_text(UNRELATED_TEST)
    result = scan_checkout(open_source(str(root), repo="o/pkg"), repo="o/pkg")
    return {r["errorMessage"]: (r["commonSituations"], e) for r, e in result.items}


def test_what_errdex_read_is_evidence_not_prose(situations: dict[str, tuple[str, dict]]) -> None:
    for text, evidence in situations.values():
        assert "errdex linked none" not in text
        assert "test file" not in text
        assert evidence["testsRead"] is True
        assert evidence["testFilesRead"] == 1  # the count the old sentence gave


def test_the_argument_that_makes_the_guard_true(situations: dict[str, tuple[str, dict]]) -> None:
    text, _ = situations["k out of bounds"]
    assert text == "It comes from a call of `get()` that passes `k` as a negative value."
    text, _ = situations["count was left out"]
    assert text == (
        "It comes from a call of `shift()` that passes `count` as `None` "
        "(its default, as when it is left out)."
    )


def test_the_message_words_that_describe_what_happened(
    situations: dict[str, tuple[str, dict]],
) -> None:
    text, _ = situations["no data file found for {name!r}"]
    assert text == (
        "It comes from a call of `load()` in the situation its message describes: "
        "“no data file found for {name!r}”."
    )


def test_a_method_meant_to_be_overridden(situations: dict[str, tuple[str, dict]]) -> None:
    text, _ = situations["NotImplementedError"]
    assert text == (
        "It comes from calling `run()` on an instance of `Base`, or of a subclass of it"
        " that does not override `run`."
    )


def test_a_private_raise_says_no_public_call_reaches_it(
    situations: dict[str, tuple[str, dict]],
) -> None:
    text, _ = situations["internal state went wrong"]
    assert text == (
        "It is raised inside `pkg.core._helper`, which no public call that errdex traced reaches."
    )
