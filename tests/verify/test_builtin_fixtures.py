"""pytest's fixtures as a snippet's own lines: what they bind behaves as pytest's does."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from errdex.verify._builtin_fixtures import builtin_fixture


def _bound(name: str) -> object:
    statements = builtin_fixture(name)
    assert statements is not None
    scope: dict[str, object] = {}
    exec(compile(ast.Module(body=statements, type_ignores=[]), "<fixture>", "exec"), scope)
    return scope[name]


def test_tmp_path_is_absolute_and_tmpdir_a_py_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the sandbox runs each snippet in a scratch folder
    made = _bound("tmp_path")
    assert isinstance(made, Path) and made.is_absolute() and made.is_dir()
    assert made.parent == tmp_path.resolve()
    # a str had no .join: 'f(tmpdir.join("a"))' raised AttributeError, not the site's error
    folder = _bound("tmpdir")
    joined = folder.join("a")  # type: ignore[attr-defined]
    assert Path(joined.strpath) == made.parent / Path(folder.strpath).name / "a"  # type: ignore[attr-defined]
