"""Messages that mark an unreachable branch state no requirement (blind review stop 36,
record 34: "The message states the requirement: 'should not have reached here'" was
judged false)."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.unreachable import marks_unreachable

from .stdlib_items import one_file_items

SOURCE = """
import os


def write_signed(fd, n):
    msg = n.to_bytes(8, "little")
    while msg:
        nbytes = os.write(fd, msg)
        if nbytes == 0:
            raise RuntimeError("should not have reached here")
        msg = msg[nbytes:]


def transform_sort(node, results):
    if 'sort' in results:
        return node
    else:
        raise RuntimeError("should not get here")


def check(value):
    if value < 0:
        raise ValueError("value should not be negative")
"""


def test_the_marks_it_knows() -> None:
    for text in (
        "should not have reached here",
        "we should not get here!",
        "Should not get here",
        "this should not happen",
        "this can't happen (bad char '%c')",
        "this cannot happen: invalid action '%s'",
    ):
        assert marks_unreachable(text), text
    for text in (
        "value should not be negative",
        "Expected code to be unreachable, but got: {v}",
        "it should not get a negative value",
        "this should not happen twice",
    ):
        assert not marks_unreachable(text), text


def test_no_requirement_is_restated(tmp_path: Path) -> None:
    found = {r["errorMessage"]: r["solutions"] for r, _ in one_file_items(tmp_path, "m.py", SOURCE)}
    text = found["should not have reached here"][0]
    assert text.startswith(
        "The message marks a branch its author expected never to run "
        "(“should not have reached here”): it states no requirement on the call"
    )
    assert "report it to the maintainers of `o/m`" in text
    assert not any(t.startswith("The message marks") for t in found["value should not be negative"])
    # ``transform_sort(node, {})`` reaches the branch: a requirement on ``results``
    # errdex states, not a branch no caller reaches
    reached = found["should not get here"]
    assert not any(t.startswith("The message marks") for t in reached)
    assert reached[0].startswith("Pass `results` to `transform_sort()`")


REACHED = """
import warnings


def pick(kind, *, strict=False):
    if kind == 1:
        return 1
    if strict:
        raise ValueError("should not get here")
    warnings.warn("this should not happen")
"""


def test_a_branch_a_caller_reaches_is_no_unreachable_one(tmp_path: Path) -> None:
    """``strict`` reaches the branch: "report it to the maintainers" beside "pass
    `strict` as a false value" contradicted itself; a warning is not "raised"."""
    found = {
        r["errorMessage"]: r["solutions"] for r, _ in one_file_items(tmp_path, "m.py", REACHED)
    }
    assert not any(t.startswith("The message marks") for t in found["should not get here"])
    assert any("`strict`" in t for t in found["should not get here"])
    (warned,) = found["this should not happen"]
    assert warned.startswith("The message marks a branch")
    assert "raised `UserWarning`" not in warned
