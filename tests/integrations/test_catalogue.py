from __future__ import annotations

from pathlib import Path

import pytest

from errdex.integrations.catalogue import data_dir, default_db, looks_like_catalogue


@pytest.fixture
def somewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("ERRDEX_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_nothing_anywhere_is_none(somewhere: Path) -> None:
    assert default_db() is None


def test_the_environment_variable_wins_even_when_missing(
    somewhere: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (somewhere / "errdex.db").write_bytes(b"")
    monkeypatch.setenv("ERRDEX_DB", str(somewhere / "elsewhere.db"))
    assert default_db() == somewhere / "elsewhere.db"


def test_the_working_directory_before_the_data_dir(somewhere: Path) -> None:
    shared = somewhere / "data" / "errdex" / "errdex.db"
    shared.parent.mkdir(parents=True)
    shared.write_bytes(b"")
    assert default_db() == shared
    (somewhere / "errdex.db").write_bytes(b"")
    assert default_db() == Path("errdex.db")


def test_data_dir_falls_back_to_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert data_dir() == tmp_path / ".local" / "share" / "errdex"
    monkeypatch.setenv("XDG_DATA_HOME", "relative/not/allowed")
    assert data_dir() == tmp_path / ".local" / "share" / "errdex"


def test_looks_like_catalogue(tmp_path: Path, shapes_db: Path) -> None:
    assert looks_like_catalogue(shapes_db)
    (tmp_path / "empty.db").write_bytes(b"")
    (tmp_path / "text.db").write_text("not a database at all")
    assert not looks_like_catalogue(tmp_path / "empty.db")
    assert not looks_like_catalogue(tmp_path / "text.db")
    assert not looks_like_catalogue(tmp_path / "missing.db")
    assert not looks_like_catalogue(tmp_path)
