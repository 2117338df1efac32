"""Prose without filler or unbacked absence (issue 10, items 1 and 3), on real packages."""

from __future__ import annotations

import re
import shutil
import sysconfig
from pathlib import Path

import pytest

from errdex.analyze.quoting import NO_FIX
from errdex.analyze.unknown_way import UNKNOWN_WAY
from errdex.scan import scan_checkout
from errdex.source import open_source

from .installed import Item, installed_items


@pytest.fixture(scope="module")
def packaging_items() -> list[Item]:
    return installed_items("packaging", "pypa/packaging")


def test_no_absence_of_entry_points_is_stated(packaging_items: list[Item]) -> None:
    """``Tokenizer.raise_syntax_error`` is reached from ``Requirement()`` through a call on
    a parameter errdex does not type, so "no public entry point reaches it" would be false."""
    (record, _) = next(
        (r, e)
        for r, e in packaging_items
        if r["filePath"].endswith("_tokenizer.py")
        and e["site"]["qualname"].endswith("Tokenizer.raise_syntax_error")
    )
    assert "No public entry point" not in record["triggerScenarios"]
    for r, _ in packaging_items:
        assert "No public entry point" not in r["triggerScenarios"], r["filePath"]


def test_no_filler_about_requirements(packaging_items: list[Item]) -> None:
    for r, _ in packaging_items:
        for text in r["solutions"]:
            assert "no requirement on what a caller passes" not in text, text


def test_the_message_is_said_as_the_cause(tmp_path: Path) -> None:
    """``wave.Wave_write.setparams``: the guard reads private state (``self._datawritten``),
    the message says the cause in the caller's terms."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    shutil.copy(stdlib / "wave.py", tmp_path / "wave.py")
    result = scan_checkout(open_source(str(tmp_path), repo="o/wave"), repo="o/wave")
    (record,) = [
        r
        for r, _ in result.items
        if r["errorMessage"] == "cannot change parameters after starting to write"
        and "setparams" in r["documentation"]
    ]
    (solution,) = record["solutions"]
    assert solution.startswith(
        "The check reads only the object's own state, none of the call's arguments: call "
        "`Wave_write.setparams()` only on an object that is not in the state the message "
        "describes (“cannot change parameters after starting to write”)"
    ), solution
    assert "_datawritten" not in solution


def test_a_site_with_no_evidence_gives_no_catch_advice_for_a_value_error(
    tmp_path: Path,
) -> None:
    """``_aix_support._aix_bgt`` (private, undocumented): the extractor's prose stays; a
    ``ValueError`` gets neither filler ("no requirement on the caller is known") nor the
    advice to catch it where the program must go on (issue 10, deliver 5)."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    shutil.copy(stdlib / "_aix_support.py", tmp_path / "_aix_support.py")
    result = scan_checkout(open_source(str(tmp_path), repo="o/aix"), repo="o/aix")
    (record,) = [r for r, _ in result.items if r["errorMessage"] == "BUILD_GNU_TYPE is not defined"]
    assert record["solutions"] == [NO_FIX]


def test_no_claim_that_no_test_expects_it_when_one_does(tmp_path: Path) -> None:
    """``distutils/tests/test_build_ext.py`` runs ``self.assertRaises(DistutilsSetupError,
    cmd.check_extensions_list, 'foo')``: errdex does not link it (five sites of that class
    in one method, no message), so the record must not say no test expects the error."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    shutil.copytree(stdlib / "distutils", tmp_path / "distutils")
    result = scan_checkout(open_source(str(tmp_path), repo="o/du"), repo="o/du")
    (record,) = [
        r
        for r, _ in result.items
        if r["errorMessage"].startswith("'ext_modules' option must be a list of Extension")
    ]
    assert "No test in the repository expects" not in record["commonSituations"]
    # the situation the test is in, in the caller's terms (issue 10: no claim about tests)
    assert record["commonSituations"] == (
        "It comes from a call of `build_ext.check_extensions_list()` that passes "
        "`extensions` as anything but an instance of `list`."
    )


def test_a_tuple_of_arguments_is_not_called_the_cause(tmp_path: Path) -> None:
    """``tabnanny`` raises ``NannyNag(start[0], msg, line)``: its str() is a tuple, no cause."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    shutil.copy(stdlib / "tabnanny.py", tmp_path / "tabnanny.py")
    result = scan_checkout(open_source(str(tmp_path), repo="o/tn"), repo="o/tn")
    nags = [r for r, _ in result.items if r["errorClass"] == "NannyNag"]
    assert nags
    for record in nags:
        assert not record["solutions"][0].startswith("The message states the cause: “("), record


def _kebab(name: str) -> str:
    return "-".join(w for w in re.split(r"[^A-Za-z0-9]+", name.lower()) if w)


def test_tags_name_public_functions_only(packaging_items: list[Item]) -> None:
    """A developer searches for ``parse`` or ``Version``, not for ``_parse_letter_version``
    or ``__init__``: a private, special or nested function gives no tag (the public call
    that reaches it may: ``DirectUrl.from_dict`` for ``DirectUrl._from_dict``)."""
    public = private = 0
    for r, e in packaging_items:
        qualname = e["site"]["qualname"]
        name = qualname.rsplit(".", 1)[-1]
        tag = _kebab(name)
        entries = {_kebab(x["qualname"].rsplit(".", 1)[-1]) for x in e.get("entryPoints", [])}
        if any(part.startswith(("_", "<")) for part in qualname.split(".")[1:]):
            private += 1
            assert tag not in r["tags"] or tag in {"python", "exception"} | entries, (qualname, r)
        else:
            public += tag in r["tags"]
    assert private and public


def test_a_site_with_no_evidence_does_not_say_tests_were_not_examined_once_read(
    tmp_path: Path,
) -> None:
    """``_aix_support._aix_bgt`` keeps the extractor's prose, but its "no tests … have been
    examined" is false once the repository's tests were read: the analyst's sentence stands."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    shutil.copy(stdlib / "_aix_support.py", tmp_path / "_aix_support.py")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_other.py").write_text("def test_other():\n    assert True\n")
    result = scan_checkout(open_source(str(tmp_path), repo="o/aix"), repo="o/aix")
    ((record, evidence),) = [
        (r, e) for r, e in result.items if r["errorMessage"] == "BUILD_GNU_TYPE is not defined"
    ]
    assert evidence["testsRead"] is True
    assert "have been examined" not in record["commonSituations"]
    assert evidence["testFilesRead"] == 1  # how many: evidence, not prose (issue 10)
    assert record["commonSituations"] == UNKNOWN_WAY  # not the location again (stop 37)


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)


def _tips(tmp_path: Path, test_body: str) -> list[str]:
    _write(
        tmp_path,
        {
            "lib/shapes.py": (
                "def area(side):\n"
                "    if side < 0:\n"
                "        raise ValueError(f'side must not be negative, got {side}')\n"
                "    return side * side\n"
            ),
            "tests/test_shapes.py": (
                "import unittest\nfrom shapes import area\n\n"
                "class T(unittest.TestCase):\n" + test_body
            ),
        },
    )
    result = scan_checkout(open_source(str(tmp_path), repo="o/shapes"), repo="o/shapes")
    ((record, evidence),) = [(r, e) for r, e in result.items if r["errorClass"] == "ValueError"]
    assert evidence["tests"], evidence  # the test is linked: the tip is about it
    return list(record["preventionTips"])


def test_a_test_that_triggers_it_is_no_prevention_tip(tmp_path: Path) -> None:
    """Blind review 2026-12-06 (records 00, 08, 14, 34): "see test_x for a call that
    triggers it, and its expected message" promised a message a bare ``assertRaises``
    does not check, and a pointer to a test is no tip for preventing the error: the test
    is in the record's evidence (and its triggerScenarios), not in its tips."""
    for body in (
        "    def test_neg(self):\n        self.assertRaises(ValueError, area, -1)\n",
        "    def test_checked(self):\n"
        "        with self.assertRaisesRegex(ValueError, 'must not be negative'):\n"
        "            area(-1)\n",
    ):
        assert _tips(tmp_path, body) == ["Check `side >= 0` before calling `area()`."]


def test_a_call_of_a_raising_helper_says_where_the_helper_raises(tmp_path: Path) -> None:
    """``context._raise_error(DivisionByZero, 'x / 0')`` is its own record: its prose says
    that the helper called there raises it, and at which line."""
    from ..extract.python.test_caller_sites import DECIMALISH

    (tmp_path / "numbers.py").write_text(DECIMALISH)
    result = scan_checkout(open_source(str(tmp_path), repo="o/num"), repo="o/num")
    raise_line = 1 + DECIMALISH.splitlines().index("        raise error(explanation)")
    (record,) = [r for r, _ in result.items if r["errorMessage"] == "x / 0"]
    assert record["documentation"].startswith(
        "`numbers.divide` raises `DivisionByZero` at numbers.py:"
    ), record["documentation"]
    assert (
        f"through the helper it calls there, which raises the class and message this call"
        f" passes at line {raise_line}." in record["documentation"]
    )
