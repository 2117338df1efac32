"""What a record says of tests depends on whether any test was read (issue 10: nothing unbacked)."""

from __future__ import annotations

from pathlib import Path

from errdex.scan import scan_checkout
from errdex.source import open_source

LIBRARY = "def lookup(table, key):\n    if key not in table:\n        raise KeyError(f'no entry {key!r}')\n    return table[key]\n"
#: What commonSituations says of ``lookup`` whether or not tests were read.
#: The message's raw ``{key!r}`` is not quoted (b46: the fixed words before it, "'no
#: entry", say too little to quote alone).
SITUATION = "It comes from a call of `lookup()` whose arguments make `key not in table` true."
UNRELATED_TEST = (
    "from pkg.core import lookup\n\n\ndef test_lookup():\n    assert lookup({'a': 1}, 'a') == 1\n"
)


def _common_situations(root: Path) -> str:
    """The one record's commonSituations; its evidence must say whether tests were read."""
    result = scan_checkout(open_source(str(root), repo="o/pkg"), repo="o/pkg")
    ((record, evidence),) = result.items
    assert evidence["testsRead"] is (root / "tests").is_dir()
    assert evidence["testFilesRead"] == int((root / "tests").is_dir())
    text: str = record["commonSituations"]
    return text


def test_read_tests_that_do_not_expect_it_are_said_so(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "core.py").write_text(LIBRARY)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_core.py").write_text(UNRELATED_TEST)
    text = _common_situations(tmp_path)
    # one test module read (tests/test_core.py): evidence.testFilesRead says how many, and
    # the prose names the situation, not what errdex read (issue 10)
    assert text == SITUATION


def test_without_tests_absence_is_not_asserted(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "core.py").write_text(LIBRARY)
    text = _common_situations(tmp_path)
    assert "No test" not in text
    assert text == SITUATION


def test_a_test_folder_with_no_test_in_it_is_no_test_read(tmp_path: Path) -> None:
    """An installed copy often ships ``tests/__init__.py`` or test data alone (pyzmq,
    annotated_types): that is no reading of the suite, so absence is not asserted."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "core.py").write_text(LIBRARY)
    (tmp_path / "pkg" / "tests").mkdir()
    (tmp_path / "pkg" / "tests" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "tests" / "test_cases.py").write_text("CASES = [('a', 1)]\n")
    result = scan_checkout(open_source(str(tmp_path), repo="o/pkg"), repo="o/pkg")
    ((record, evidence),) = result.items
    assert evidence["testsRead"] is False
    assert record["commonSituations"] == SITUATION


def test_installed_packages_under_the_root_are_not_the_repositorys_tests(tmp_path: Path) -> None:
    """pyenv's ``lib/python3.11/site-packages`` sits under the standard library's root:
    its packages' tests are neither linked nor counted as the stdlib's (blind review
    2026-12-02: 43 suspect links, and the "none of the N test files" count held them)."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "core.py").write_text(LIBRARY)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_core.py").write_text(UNRELATED_TEST)
    for installed in ("site-packages", "dist-packages"):
        other = tmp_path / installed / "other" / "tests"
        other.mkdir(parents=True)
        (other / "test_other.py").write_text(
            "import pytest\nfrom pkg.core import lookup\n\n\n"
            "def test_missing():\n    with pytest.raises(KeyError, match='no entry'):\n"
            "        lookup({}, 'b')\n"
        )
    result = scan_checkout(open_source(str(tmp_path), repo="o/pkg"), repo="o/pkg")
    ((record, evidence),) = result.items
    assert evidence["tests"] == []
    assert evidence["testFilesRead"] == 1
    assert record["commonSituations"] == SITUATION


def test_a_folder_named_for_tests_is_read_as_tests(tmp_path: Path) -> None:
    """``idlelib/idle_test/``: its helper modules are the suite's, read for expectations
    (not catalogued as the library's, where none of them would be read)."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "core.py").write_text(LIBRARY)
    (tmp_path / "pkg" / "pkg_test").mkdir()
    (tmp_path / "pkg" / "pkg_test" / "helpers.py").write_text(
        "import pytest\nfrom pkg.core import lookup\n\n\n"
        "def check_missing():\n    with pytest.raises(KeyError, match='no entry'):\n"
        "        lookup({}, 'b')\n\n\n"
        "def test_missing():\n    check_missing()\n"
    )
    result = scan_checkout(open_source(str(tmp_path), repo="o/pkg"), repo="o/pkg")
    ((record, evidence),) = result.items
    assert record["filePath"] == "pkg/core.py"
    assert [t["path"] for t in evidence["tests"]] == ["pkg/pkg_test/helpers.py"]
