"""Which test links a record lists when more tests expect its error than it shows
(issue 10, deliver 2: the cap of ten kept the first ten by path, dropping true links
whatever their evidence)."""

from __future__ import annotations

from pathlib import Path

from errdex import evidence
from errdex.scan import scan_checkout
from errdex.source import open_source


def _link(
    path: str, line: int, match: str | None, cls: str = "ValueError"
) -> evidence.TestEvidence:
    return evidence.TestEvidence(
        path=path,
        line=line,
        name=f"{path}::t{line}",
        kind="pytest.raises",
        errorClass=cls,
        match=match,
        matchForm="regex",
        snippet="",
    )


def test_the_best_evidenced_links_are_kept_and_the_rest_counted() -> None:
    from errdex.analyze.test_choice import best_tests

    far = [_link("tests/test_aaa.py", n, None) for n in range(1, 12)]
    checked = _link("tests/test_zzz.py", 5, "bad value")
    base = _link("tests/test_zzz.py", 9, "bad value", cls="Exception")
    near = _link("tests/test_parse.py", 3, None)
    kept, more = best_tests([*far, checked, base, near], "ValueError", "lib.parse", cap=4)
    assert more == 10
    # message and exact class, message, then the test named for the module, by path
    assert kept == sorted([checked, base, near, far[0]], key=lambda t: (t["path"], t["line"]))
    assert best_tests(far[:3], "ValueError", "lib.parse", cap=4) == (far[:3], 0)


def test_a_record_lists_the_tests_that_check_its_message(tmp_path: Path) -> None:
    """Twelve tests expect the error; the two that check its message sort last by path
    and were the two dropped."""
    (tmp_path / "m.py").write_text(
        "def f(x):\n    if x < 0:\n        raise ValueError('bad value')\n    return x\n"
    )
    tests = tmp_path / "tests"
    tests.mkdir()
    plain = "\n\n".join(
        f"def test_{n}():\n    with pytest.raises(ValueError):\n        m.f(-1)" for n in range(10)
    )
    (tests / "test_aaa.py").write_text(f"import pytest\n\nimport m\n\n\n{plain}\n")
    checked = "\n\n".join(
        f"def test_msg_{n}():\n    with pytest.raises(ValueError, match='bad value'):\n"
        "        m.f(-2)"
        for n in range(2)
    )
    (tests / "test_zzz.py").write_text(f"import pytest\n\nimport m\n\n\n{checked}\n")
    ((_, found),) = scan_checkout(open_source(str(tmp_path), repo="o/m"), repo="o/m").items
    names = [t["name"] for t in found["tests"]]
    assert len(names) == 10
    assert "tests/test_zzz.py::test_msg_0" in names and "tests/test_zzz.py::test_msg_1" in names
    assert found["testsMore"] == 2
