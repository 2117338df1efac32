"""The extractor registry: suffix lookup, per-language test names, lazy loading, the scan's use."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.extract import registry
from errdex.extract.registry import (
    Extractor,
    extractor_for,
    is_test_file,
    load_extractor,
    source_suffixes,
)
from errdex.extract.site import ErrorSite
from errdex.template import MessageTemplate


def test_python_is_registered_and_found_by_suffix() -> None:
    found = extractor_for("pkg/mod.py")
    assert found is not None and found.language == "python"
    assert extractor_for("README.md") is None
    assert ".py" in source_suffixes()


def test_unknown_language_is_refused_with_the_known_ones_named() -> None:
    with pytest.raises(ValueError, match="unknown language klingon; errdex reads python"):
        source_suffixes(["klingon"])


def test_test_files_follow_their_own_language() -> None:
    assert is_test_file("test_core.py") and is_test_file("conftest.py")
    assert not is_test_file("core.py")
    assert not is_test_file("test_notes.txt")  # no language owns it


def test_the_python_entry_point_extracts() -> None:
    fn = load_extractor("errdex.extract.python")
    text = "raise ValueError('bad value')\n"
    (site,) = fn(text, "m.py", text.splitlines())
    assert (site.error_class, site.template.display, site.language) == (
        "ValueError",
        "bad value",
        "python",
    )


def _toy_extract(text: str, file_path: str, lines: list[str]) -> list[ErrorSite]:
    """A language whose every ``fail "..."`` line is a site (stands in for a real one)."""
    sites = []
    for number, line in enumerate(lines, 1):
        if line.startswith('fail "'):
            message = line[len('fail "') : line.rindex('"')]
            sites.append(
                ErrorSite(
                    file_path=file_path,
                    line=number,
                    end_line=number,
                    kind="throw",
                    template=MessageTemplate.literal(message),
                    error_class="ToyError",
                    qualified_class="ToyError",
                    qualname="<module>",
                    function=None,
                    style="toy",
                    language="toy",
                )
            )
    return sites


def test_a_new_language_needs_only_its_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A registered language is listed, extracted, kept from the analyst and its tests skipped."""
    from errdex.scan import scan_checkout
    from errdex.source import open_source

    toy = Extractor("toy", (".toy",), f"{__name__}", keywords=("fail",), test_names=("*_spec.toy",))
    monkeypatch.setattr(registry, "EXTRACTORS", (*registry.EXTRACTORS, toy))
    registry._by_suffix.cache_clear()
    monkeypatch.setattr(
        "errdex.scan.load_extractor",
        lambda module: _toy_extract if module == __name__ else load_extractor(module),
    )
    try:
        (tmp_path / "a.toy").write_text('ok\nfail "the toy broke"\n')
        (tmp_path / "a_spec.toy").write_text('fail "only in a test"\n')
        (tmp_path / "m.py").write_text("def f():\n    raise KeyError('no such key')\n")
        checkout = open_source(str(tmp_path), repo="o/toy")
        result = scan_checkout(checkout, repo="o/toy")
        by_file = {r["filePath"]: (r, e) for r, e in result.items}
        record, evidence = by_file["a.toy"]
        assert (record["errorClass"], record["errorMessage"], record["lineNumber"]) == (
            "ToyError",
            "the toy broke",
            2,
        )
        assert evidence["site"]["language"] == "toy"
        assert evidence["analysis"] == "extractor"  # the Python analyst left it alone
        assert by_file["m.py"][1]["analysis"] != "extractor"
        assert "a_spec.toy" not in by_file
        only_python = scan_checkout(checkout, repo="o/toy", languages=["python"])
        assert [r["filePath"] for r, _ in only_python.items] == ["m.py"]
    finally:
        registry._by_suffix.cache_clear()
