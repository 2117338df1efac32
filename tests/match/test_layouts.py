"""Frames from every place Python code is installed resolve to the catalogued file.

The catalogue is real: typing, zipfile, argparse and os scanned from this machine's
standard library, and a small package in src layout. Each traceback is one Python
printed for real here, its paths then rewritten to where that layout installs them.
"""

from __future__ import annotations

import re
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest

from errdex.match import match
from errdex.match.layouts import frame_keys, layout_root, record_keys

from ._stdlib_catalogue import FILE_LINE, build, innermost, run

STDLIB = Path(sysconfig.get_paths()["stdlib"]).as_posix()
V = f"{sys.version_info.major}.{sys.version_info.minor}"
VV = V.replace(".", "")
STDLIB_FILES = ["typing.py", "zipfile.py", "argparse.py", "os.py"]

CORE = """\
def check(value):
    if value < 0:
        raise ValueError(f"value must not be negative, got {value}")
    return value
"""
TOP = """\
def top(name):
    raise LookupError(f"no entry called {name!r} in the table")
"""

#: (what to run, the stdlib file its innermost frame is in)
STDLIB_ERRORS = {
    "typing": ("import typing; typing.Union[()]", "typing.py"),
    "zipfile": ("import zipfile, io; zipfile.ZipFile(io.BytesIO(b'not a zip'))", "zipfile.py"),
    "argparse": (
        "import argparse; argparse.ArgumentParser().add_argument('x', nargs=0)",
        "argparse.py",
    ),
}

#: layout -> the directory that stands for this machine's stdlib, as that install prints it
STDLIB_LAYOUTS = {
    "debian": f"/usr/lib/python{V}",
    "usr-local": f"/usr/local/lib/python{V}",
    "lib64": f"/usr/lib64/python{V}",
    "free-threaded": f"/usr/lib/python{V}t",
    "pyenv": f"/home/dev/.pyenv/versions/{V}.7/lib/python{V}",
    "conda": f"/opt/conda/lib/python{V}",
    "homebrew": f"/opt/homebrew/Cellar/python@{V}/{V}.7/Frameworks/Python.framework/Versions/{V}/lib/python{V}",
    "windows": f"C:\\Python{VV}\\Lib",
    "windows-conda": "C:\\Users\\dev\\miniconda3\\Lib",
    "windows-embeddable": f"C:\\apps\\py\\python{VV}.zip",
    "pypy": f"/usr/lib/pypy{V}",
}

#: layout -> the directory that stands for ``src/`` of the package (its import root)
SITE_LAYOUTS = {
    "debian-dist-packages": "/usr/lib/python3/dist-packages",
    "usr-local": f"/usr/local/lib/python{V}/site-packages",
    "pyenv": f"/home/dev/.pyenv/versions/{V}.7/lib/python{V}/site-packages",
    "conda": f"/opt/conda/lib/python{V}/site-packages",
    "homebrew": f"/opt/homebrew/lib/python{V}/site-packages",
    "venv": f"/home/dev/proj/.venv/lib/python{V}/site-packages",
    "windows": f"C:\\Python{VV}\\Lib\\site-packages",
    "windows-venv": "C:\\Users\\dev\\proj\\.venv\\Lib\\site-packages",
    "user-linux": f"/home/dev/.local/lib/python{V}/site-packages",
    "user-macos": f"/Users/dev/Library/Python/{V}/lib/python/site-packages",
    "user-windows": f"C:\\Users\\dev\\AppData\\Roaming\\Python\\Python{VV}\\site-packages",
    "zipapp": "/home/dev/bin/tool.pyz",
    "egg": f"/usr/lib/python{V}/site-packages/tinypkg-1.0-py{V}.egg",
    "editable-src": "/home/dev/code/tinypkg/src",
}


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("layouts")
    pkg = root / "pkg"
    (pkg / "src" / "tinypkg").mkdir(parents=True)
    (pkg / "src" / "tinypkg" / "__init__.py").write_text("")
    (pkg / "src" / "tinypkg" / "core.py").write_text(CORE)
    (pkg / "src" / "tinymod.py").write_text(TOP)
    return build(root / "errdex.db", STDLIB_FILES, pkg, "example/tinypkg")


def relocate(traceback: str, real: str, layout_dir: str) -> str:
    """The traceback as printed by an install that keeps ``real`` at ``layout_dir``."""
    windows = "\\" in layout_dir

    def moved(m: re.Match[str]) -> str:
        path = m.group("path")
        if not path.startswith(real + "/"):
            return m.group(0)
        rest = path[len(real) + 1 :]
        new = layout_dir + "\\" + rest.replace("/", "\\") if windows else f"{layout_dir}/{rest}"
        return f'File "{new}", line {m.group("line")}'

    out = FILE_LINE.sub(moved, traceback)
    assert out != traceback
    return out


def assert_lands(traceback: str, db: Path, file_path: str, line: int) -> None:
    found = match(traceback, db=db)
    assert found, traceback
    best = found[0]
    assert (best.filePath, best.lineNumber) == (file_path, line), traceback
    assert f"the innermost frame is {file_path}:{line}" in best.reasons


@pytest.mark.parametrize("layout", sorted(STDLIB_LAYOUTS))
@pytest.mark.parametrize("error", sorted(STDLIB_ERRORS))
def test_stdlib_frame_of_every_layout(catalogue: Path, layout: str, error: str) -> None:
    code, module = STDLIB_ERRORS[error]
    real = run(code)
    path, line = innermost(real)
    assert path == f"{STDLIB}/{module}"
    assert_lands(relocate(real, STDLIB, STDLIB_LAYOUTS[layout]), catalogue, f"Lib/{module}", line)


def test_pypy_before_39_kept_the_stdlib_in_lib_python(catalogue: Path) -> None:
    real = run(STDLIB_ERRORS["typing"][0])
    _, line = innermost(real)
    moved = relocate(real, STDLIB, "/opt/pypy3.8/lib-python/3")
    assert_lands(moved, catalogue, "Lib/typing.py", line)


@pytest.mark.parametrize("layout", sorted(SITE_LAYOUTS))
@pytest.mark.parametrize(
    ("call", "file_path"),
    [
        ("from tinypkg.core import check; check(-1)", "src/tinypkg/core.py"),
        ("from tinymod import top; top('x')", "src/tinymod.py"),
    ],
)
def test_package_frame_of_every_layout(
    catalogue: Path, layout: str, call: str, file_path: str
) -> None:
    src = catalogue.parent / "pkg" / "src"
    real = run(call, src)
    _, line = innermost(real)
    assert_lands(relocate(real, src.as_posix(), SITE_LAYOUTS[layout]), catalogue, file_path, line)


def test_frozen_frame_is_the_stdlib_module(catalogue: Path) -> None:
    real = run("import os; os.environ['ERRDEX_NO_SUCH_VARIABLE']")
    path, line = innermost(real)
    assert path == "<frozen os>"
    found = match(real, db=catalogue)
    assert (found[0].filePath, found[0].lineNumber) == ("Lib/os.py", line)
    assert f"the innermost frame is Lib/os.py:{line}" in found[0].reasons


def test_frozen_names_map_to_module_files() -> None:
    assert list(frame_keys("<frozen importlib._bootstrap>")) == [
        "Lib/importlib/_bootstrap.py",
        "Lib/importlib/_bootstrap/__init__.py",
    ]
    assert list(frame_keys("<frozen runpy>")) == ["Lib/runpy.py", "Lib/runpy/__init__.py"]
    assert list(frame_keys("<string>")) == []


def test_one_part_stdlib_name_is_not_another_repositorys_file(catalogue: Path) -> None:
    """``/usr/lib/python3.X/tinymod.py`` is a stdlib module, not the package's top-level one."""
    src = catalogue.parent / "pkg" / "src"
    moved = relocate(
        run("from tinymod import top; top('x')", src), src.as_posix(), f"/usr/lib/python{V}"
    )
    reasons = [r for c in match(moved, db=catalogue) for r in c.reasons]
    assert reasons and not any("innermost frame" in r for r in reasons)


def test_innermost_layout_root_wins() -> None:
    parts = f"/usr/lib/python{V}/site-packages/click/core.py".split("/")[1:]
    assert layout_root(parts) == ("site", 4)
    assert layout_root(["home", "dev", "click", "src", "click", "core.py"]) is None


def test_record_keys_strip_a_recorded_prefix() -> None:
    assert record_keys("src/click/core.py") == ("src/click/core.py", "click/core.py")
    assert record_keys("Lib/typing.py") == ("Lib/typing.py", "typing.py")
    # a prefix the tag table records, and a package nested in a monorepo
    assert "grpc/aio.py" in record_keys("python/grpc/aio.py", prefixes=("python/",))
    assert "foo/x.py" in record_keys("packages/foo/src/foo/x.py")
    assert record_keys("tests/x.py") == ("tests/x.py",)


def test_every_tag_table_prefix_is_stripped() -> None:
    from errdex.source.tags import load_schemes

    for scheme in load_schemes().values():
        prefix = scheme.path_prefix.strip("/")
        if prefix:
            assert "pkg/mod.py" in record_keys(f"{prefix}/pkg/mod.py"), prefix


def test_message_alone_still_finds_a_stdlib_record(catalogue: Path) -> None:
    real = run(STDLIB_ERRORS["zipfile"][0])
    last = textwrap.dedent(real.strip().splitlines()[-1])
    found = match(last, db=catalogue)
    assert found[0].filePath == "Lib/zipfile.py"
