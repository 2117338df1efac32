"""A subclass from another package is not the site's: a namesake through a builtin base.

``otherpkg.errors.Frozen`` derives from ``AttributeError``; a stdlib-like site raising
``AttributeError`` with the same words cannot have raised it. The catalogue is real
(scanned from files), the paste is what the interpreter prints for the real class.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from errdex.match import match
from errdex.match.classes import ClassResolver, foreign_subclass
from errdex.match.rank import CLASS_DIFFERS, class_agreement
from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.store import SqliteStore

from .conftest import SHA

SHIM = """\
def guard(obj, name):
    raise AttributeError("this attribute is read-only here")
"""
ERRORS = """\
class Frozen(AttributeError):
    def __init__(self):
        super().__init__("this attribute is read-only here")
"""
API = """\
from .errors import Frozen


def freeze(obj):
    raise Frozen
"""


def test_foreign_subclass_rule() -> None:
    # the paste's package is neither the site's file's nor its class's
    assert foreign_subclass("otherpkg.errors.Frozen", "AttributeError", None, "Lib/shim.py")
    # inside the site's own package the hierarchy still relates them
    assert not foreign_subclass(
        "tinytool.errors.ConfigError",
        "ToolError",
        "tinytool.errors.ToolError",
        "src/tinytool/api.py",
    )
    assert not foreign_subclass("jax.errors.X", "TypeError", None, "jax/_src/core.py")
    # builtins are everyone's: OSError(errno.ENOENT, ...) prints FileNotFoundError
    assert not foreign_subclass("FileNotFoundError", "OSError", "builtins.OSError", "Lib/os.py")
    assert not foreign_subclass("builtins.KeyError", "LookupError", None, "Lib/x.py")


def test_class_agreement_refuses_the_foreign_subclass() -> None:
    classes = ClassResolver({"otherpkg.errors.Frozen": ["builtins.AttributeError"]})
    factor, why = class_agreement(
        "otherpkg.errors.Frozen",
        "AttributeError",
        "builtins.AttributeError",
        classes,
        "Lib/shim.py",
    )
    assert factor == CLASS_DIFFERS
    assert "outside the package" in why
    # the same pair inside the package that defines the subclass stays related
    factor, _ = class_agreement(
        "otherpkg.errors.Frozen",
        "AttributeError",
        "builtins.AttributeError",
        classes,
        "otherpkg/api.py",
    )
    assert factor == 0.6


def scan_into(db: Path, root: Path, repo: str) -> None:
    checkout = open_source(str(root), repo=repo, sha=SHA)
    result = scan_checkout(checkout, repo=repo)
    with SqliteStore(db) as store:
        store_scan(store, checkout, repo, result, "2026-11-29T00:00:00.000Z")


@pytest.fixture
def catalogue(tmp_path: Path) -> Path:
    root = tmp_path / "pkgs"
    shim = root / "shim"
    shim.mkdir(parents=True)
    (shim / "shim.py").write_text(SHIM)
    other = root / "other" / "otherpkg"
    other.mkdir(parents=True)
    (other / "__init__.py").write_text("")
    (other / "errors.py").write_text(ERRORS)
    (other / "api.py").write_text(API)
    db = tmp_path / "errdex.db"
    scan_into(db, shim, "example/shim")
    scan_into(db, root / "other", "example/otherpkg")
    return db


def printed(root: Path) -> str:
    code = "import otherpkg.api as a\ntry:\n    a.freeze(1)\nexcept Exception as e:\n    print(f'{type(e).__module__}.{type(e).__qualname__}: {e}')\n"
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    )
    return out.stdout.strip()


def test_message_only_paste_is_not_answered_by_the_builtin_namesake(
    catalogue: Path, tmp_path: Path
) -> None:
    paste = printed(tmp_path / "pkgs" / "other")
    assert paste == "otherpkg.errors.Frozen: this attribute is read-only here"
    found = [c for c in match(paste, db=catalogue) if not c.folded]
    assert found, "the real site is catalogued and should answer"
    assert (found[0].filePath, found[0].errorClass) == ("otherpkg/api.py", "Frozen")
    assert all(c.filePath != "shim.py" for c in found)
