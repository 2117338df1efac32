"""Calls through a name an import binds per platform (``os.path``): each platform's chain
leads to that platform's module and says so (issue 10, deliver 3: 11 entry points of the
stdlib catalogue named ``ntpath`` functions for calls that on POSIX go to ``posixpath``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from errdex.analyze.platforms import platform_words
from errdex.scan import scan_checkout
from errdex.source import open_source

from .stdlib_items import ON_311, Item, stdlib_items

POSIX = "on POSIX systems (Linux, macOS, the BSDs)"
ON_POSIX = pytest.mark.skipif(sys.platform == "win32", reason="reads what binds on POSIX")

_FILES = {
    "myos.py": (
        "import sys\n"
        "_names = sys.builtin_module_names\n"
        "if 'posix' in _names:\n"
        "    import pposix as path\n"
        "elif 'nt' in _names:\n"
        "    import pnt as path\n"
        "else:\n"
        "    raise ImportError('no os specific module found')\n"
    ),
    "pposix.py": (
        "def relpath(path, start):\n    if not path:\n        raise ValueError('posix: no path')\n"
    ),
    "pnt.py": (
        "def relpath(path, start):\n    if not path:\n        raise ValueError('nt: no path')\n"
    ),
    "tool.py": ("import myos\n\n\ndef rel(p):\n    return myos.path.relpath(p, 'x')\n"),
}


def _items(root: Path) -> list[Item]:
    for name, text in _FILES.items():
        (root / name).write_text(text)
    return scan_checkout(open_source(str(root), repo="o/m"), repo="o/m").items


def test_builtin_module_names_is_a_platform_test() -> None:
    from errdex.analyze.platforms import holds_here

    assert platform_words("'posix' in _names", {}, {"_names": "sys.builtin_module_names"}) == (
        POSIX
    )
    assert platform_words("'nt' in sys.builtin_module_names", {"sys": "sys"}) == "on Windows"
    assert holds_here(POSIX) != holds_here("on Windows")


@ON_POSIX
def test_each_platform_chain_reaches_its_own_module(tmp_path: Path) -> None:
    found = {
        r["errorMessage"]: [(e["qualname"], e.get("definedOn")) for e in ev["entryPoints"]]
        for r, ev in _items(tmp_path)
    }
    assert found["posix: no path"] == [("pposix.relpath", None), ("tool.rel", POSIX)]
    assert found["nt: no path"] == [("pnt.relpath", None), ("tool.rel", "on Windows")]


@ON_311
@ON_POSIX
def test_stdlib_callers_of_os_path_reach_ntpath_on_windows_only() -> None:
    """``tarfile.data_filter`` reaches ``ntpath.commonpath``'s raise on Windows and
    ``posixpath.commonpath``'s elsewhere."""
    found = {
        (r["filePath"], r["errorMessage"]): {
            e["qualname"]: e.get("definedOn") for e in ev["entryPoints"]
        }
        for r, ev in stdlib_items("ntpath.py", "posixpath.py", "tarfile.py", "os.py")
    }
    nt = found["Lib/ntpath.py", "Paths don't have the same drive"]
    assert nt["tarfile.data_filter"] == "on Windows"
    posix = found["Lib/posixpath.py", "Can't mix absolute and relative paths"]
    assert posix["tarfile.data_filter"] == POSIX
