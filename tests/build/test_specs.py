from __future__ import annotations

from pathlib import Path

import pytest

from errdex.build.specs import SpecError, parse_spec, read_list


def test_package_names_are_normalised_and_pinned_versions_kept() -> None:
    spec = parse_spec("Foo_Bar.baz == 1.2.3")
    assert (spec.kind, spec.name, spec.version, spec.text) == (
        "package",
        "foo-bar-baz",
        "1.2.3",
        "foo-bar-baz==1.2.3",
    )
    assert parse_spec("idna").version is None


def test_git_urls_and_directories(tmp_path: Path) -> None:
    url = parse_spec("https://github.com/o/n.git@v1.0")
    assert (url.kind, url.name) == ("git", "https://github.com/o/n.git@v1.0")
    (tmp_path / "lib").mkdir()
    path = parse_spec("./lib", base=tmp_path)
    assert path.kind == "path" and path.name == str((tmp_path / "lib").resolve())


@pytest.mark.parametrize("text", ["requests>=2", "pkg[extra]==1", "./missing-dir", "a b"])
def test_what_cannot_be_built_says_why(text: str, tmp_path: Path) -> None:
    with pytest.raises(SpecError):
        parse_spec(text, base=tmp_path)


def test_a_list_keeps_order_drops_comments_and_duplicates_and_reports_bad_lines() -> None:
    specs, bad = read_list(
        ["# popular\n", "six==1.17.0  # pinned\n", "\n", "idna\n", "SIX == 1.17.0\n", "x>=1\n"]
    )
    assert [s.text for s in specs] == ["six==1.17.0", "idna"]
    assert [(b.number, b.text) for b in bad] == [(6, "x>=1")]
