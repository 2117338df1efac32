"""An installed distribution that ships no tests has its sdist's tests read by verify."""

from __future__ import annotations

from pathlib import Path

from errdex.source.errors import SourceError
from errdex.verify.locate import Located, distribution_of
from errdex.verify.runner import RepoRun, _sdist_tests


def _site(tmp_path: Path, *, with_tests: bool = False) -> Located:
    site = tmp_path / "site-packages"
    (site / "pkg").mkdir(parents=True)
    (site / "pkg" / "__init__.py").write_text("")
    if with_tests:
        (site / "pkg" / "tests").mkdir()
        (site / "pkg" / "tests" / "test_a.py").write_text("def test_a():\n    pass\n")
    info = site / "pkg_dist-1.2.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: pkg-dist\nVersion: 1.2\n")
    (info / "RECORD").write_text("pkg/__init__.py,,\npkg_dist-1.2.dist-info/METADATA,,\n")
    return Located(roots={site: ""}, tops={site / "pkg"})


def test_the_distribution_is_the_one_whose_record_lists_the_package(tmp_path: Path) -> None:
    located = _site(tmp_path)
    assert distribution_of(located) == ("pkg-dist", "1.2")
    assert distribution_of(Located(roots={}, tops={tmp_path / "elsewhere" / "x"})) is None


def test_the_sdist_is_asked_only_when_the_installed_files_hold_no_tests(tmp_path: Path) -> None:
    asked: list[tuple[str, str]] = []

    def sdist(name: str, version: str) -> list[Path]:
        asked.append((name, version))
        return [tmp_path / "tests"]

    run = RepoRun("o/pkg", located=_site(tmp_path / "a"))
    assert _sdist_tests(run, sdist) == [tmp_path / "tests"]
    assert asked == [("pkg-dist", "1.2")]
    assert run.tests_from == "the sdist of pkg-dist 1.2"
    shipped = RepoRun("o/pkg", located=_site(tmp_path / "b", with_tests=True))
    assert _sdist_tests(shipped, sdist) == [] and len(asked) == 1  # the wheel has them


def test_an_sdist_that_cannot_be_had_is_said_not_hidden(tmp_path: Path) -> None:
    def offline(name: str, version: str) -> list[Path]:
        raise SourceError("cannot reach the package index")

    run = RepoRun("o/pkg", located=_site(tmp_path))
    assert _sdist_tests(run, offline) == []
    assert run.tests_not_read == "cannot reach the package index"
    assert run.tests_from is None
