"""Where Python code is installed: a frame's path -> the repository-relative paths it can be.

A traceback prints where the interpreter found a file, not where the repository keeps
it. The catalogue keys each record by its ``filePath`` and by that path with its
recorded prefix stripped (``src/click/core.py`` -> ``click/core.py``,
``Lib/typing.py`` -> ``typing.py``); a frame's path is turned into the same keys.
Any trailing run of two or more path parts may name the file (an editable install
or a checkout prints the repository's own path); past a *layout root* the rest is the
module path, and one part is then enough (``typing.py``, ``six.py``).

=================================  ==========================================================  =======
layout                             a frame as printed                                          root
=================================  ==========================================================  =======
Debian/Ubuntu stdlib               ``/usr/lib/python3.12/typing.py``                           stdlib
Debian/Ubuntu packages             ``/usr/lib/python3/dist-packages/click/core.py``            site
``make install``                   ``/usr/local/lib/python3.12/typing.py``                     stdlib
free-threaded build                ``/usr/lib/python3.13t/typing.py``                          stdlib
Fedora/RHEL 64-bit                 ``/usr/lib64/python3.12/typing.py``                         stdlib
pyenv                              ``~/.pyenv/versions/3.12.1/lib/python3.12/zipfile.py``      stdlib
conda (POSIX)                      ``/opt/conda/lib/python3.12/site-packages/click/core.py``   site
conda (Windows)                    ``C:\\Users\\u\\miniconda3\\Lib\\argparse.py``              stdlib
Homebrew / python.org framework    ``…/Python.framework/Versions/3.12/lib/python3.12/x.py``    stdlib
Windows installer                  ``C:\\Python312\\Lib\\typing.py``                           stdlib
Windows packages                   ``C:\\Python312\\Lib\\site-packages\\click\\core.py``       site
Windows embeddable zip             ``C:\\py\\python312.zip\\typing.py``                        stdlib
venv (POSIX / Windows)             ``.venv/lib/python3.12/site-packages/…``,                   site
                                   ``.venv\\Lib\\site-packages\\…``
``--user`` (Linux / macOS / Win)   ``~/.local/lib/python3.12/site-packages/…``,                site
                                   ``~/Library/Python/3.12/lib/python/site-packages/…``,
                                   ``%APPDATA%\\Python\\Python312\\site-packages\\…``
PyPy                               ``/usr/lib/pypy3.10/typing.py``, ``lib-python/3/x.py``      stdlib
editable install, src layout       ``/home/u/click/src/click/core.py``                         (none)
zipapp                             ``/home/u/app.pyz/click/core.py``                           site
egg (zipped or not)                ``…/site-packages/foo-1.0-py3.12.egg/foo/bar.py``           site
frozen module                      ``<frozen importlib._bootstrap>``, ``<frozen os>``          stdlib
npm package (Node/V8 frames)       ``/app/node_modules/ms/index.js``, ``…/@scope/pkg/x.js``    site
=================================  ==========================================================  =======

The innermost root wins (``lib/python3.12/site-packages/…`` is site, not stdlib). A
stdlib module path is tried only as CPython's own ``Lib/…`` path, so a one-part name
such as ``typing.py`` never lands on another repository's top-level file.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache
from typing import Literal

__all__ = ["STDLIB_DIR", "Root", "frame_keys", "layout_root", "record_keys"]

#: The directory of CPython's repository that an installed ``lib/python3.X`` is.
STDLIB_DIR = "Lib"
Root = Literal["stdlib", "site"]

_PYTHON_DIR = re.compile(r"(?:python|pypy)\d+(?:\.\d+)*t?", re.I)  # python3.12, pypy3.10
_STDLIB_ZIP = re.compile(r"python\d+t?\.zip", re.I)  # python312.zip (embeddable, zipimport)
_SITE_DIRS = frozenset({"site-packages", "dist-packages"})
_ARCHIVE = re.compile(r".+\.(?:egg|pyz|pyzw|zip|whl)", re.I)
_FROZEN = re.compile(r"<frozen ([A-Za-z_][\w.]*)>")
#: Prefixes a repository keeps its importable code under (besides those the tag table records).
_CODE_DIRS = ("src", "lib", "Lib")


def _parts(path: str) -> list[str]:
    return [p for p in path.replace("\\", "/").split("/") if p not in ("", ".")]


def layout_root(parts: list[str]) -> tuple[Root, int] | None:
    """The innermost layout root of a frame's path parts: its kind and where the module
    path starts, or None (a checkout, an editable install, a relative path)."""
    for i in range(len(parts) - 2, -1, -1):
        part = parts[i]
        if part in _SITE_DIRS or part.lower() in _SITE_DIRS:
            return "site", i + 1
        if part == "node_modules":  # past node_modules/<package>/ (or /@scope/<package>/)
            skip = 3 if parts[i + 1].startswith("@") else 2
            if i + skip < len(parts):
                return "site", i + skip
        if part == STDLIB_DIR:  # Windows (installer, conda, venv base): C:\Python312\Lib\x.py
            return "stdlib", i + 1
        head = part[:1]
        if "." in part:  # the regular expressions below only on parts that could match
            if _STDLIB_ZIP.fullmatch(part):
                return "stdlib", i + 1
            if _ARCHIVE.fullmatch(part):
                return "site", i + 1
        under_lib = i > 0 and parts[i - 1].lower() in ("lib", "lib64")
        if head in "pP" and under_lib and _PYTHON_DIR.fullmatch(part):
            return "stdlib", i + 1
        pypy_lib = head in "lL" and i + 2 < len(parts) and parts[i + 1].isdigit()
        if pypy_lib and part.lower() == "lib-python":
            return "stdlib", i + 2  # PyPy before 3.9: lib-python/3/typing.py
    return None


def _frozen_keys(path: str) -> Iterator[str]:
    """``<frozen importlib._bootstrap>`` is ``Lib/importlib/_bootstrap.py`` (or a package)."""
    match = _FROZEN.fullmatch(path.strip())
    if match is None:
        return
    module = match.group(1).replace(".", "/")
    yield f"{STDLIB_DIR}/{module}.py"
    yield f"{STDLIB_DIR}/{module}/__init__.py"


@lru_cache(maxsize=4096)
def frame_keys(path: str) -> tuple[str, ...]:
    """The keys a frame's file may be catalogued under, most specific first (remembered:
    a traceback names the same few files again and again)."""
    return tuple(_frame_keys(path))


def _frame_keys(path: str) -> Iterator[str]:
    if path.startswith("<"):
        yield from _frozen_keys(path)
        return
    parts = _parts(path)
    if not parts:
        return
    root = layout_root(parts)
    start = root[1] if root is not None else -1
    # a bare file name is too ambiguous unless the frame printed only that, or it is
    # the whole module path past a layout root
    shortest = 1 if len(parts) == 1 else 2
    for k in range(len(parts), 0, -1):
        at = len(parts) - k
        if at == start:
            assert root is not None
            module = "/".join(parts[start:])
            yield f"{STDLIB_DIR}/{module}" if root[0] == "stdlib" else module
            if root[0] == "site":
                continue
        if k >= shortest:
            yield "/".join(parts[at:])


@lru_cache(maxsize=1 << 16)
def record_keys(file_path: str, prefixes: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """A record's ``filePath`` and its importable path: a recorded prefix stripped
    (``Lib/``, ``src/``, or any the tag table records), or a nested ``…/src/`` one.
    Remembered: the records of one file ask for the same keys."""
    keys = [file_path]
    for prefix in _known_prefixes() if prefixes is None else prefixes:
        if file_path.startswith(prefix) and len(file_path) > len(prefix):
            keys.append(file_path[len(prefix) :])
    parts = file_path.split("/")
    for i in range(len(parts) - 3):  # Maven/Gradle: [module/]src/main/java/com/x/Y.java
        if parts[i] == "src" and parts[i + 2] == "java":
            keys.append("/".join(parts[i + 3 :]))
            break
    for i in range(len(parts) - 2, 0, -1):  # packages/foo/src/foo/x.py -> foo/x.py
        if parts[i] == "src":
            keys.append("/".join(parts[i + 1 :]))
            break
    if file_path.endswith(_CYTHON_SUFFIXES):
        keys.extend(_cython_keys(keys))
    return tuple(dict.fromkeys(keys))


#: Cython sources and their Tempita templates (``x.pxi.in`` renders ``x.pxi``).
_CYTHON_SUFFIXES = (".pyx", ".pxi", ".pxd", ".pyx.in", ".pxi.in", ".pxd.in")


def _cython_keys(keys: list[str]) -> list[str]:
    """A Cython traceback prints the path cythonize was given, relative to the build
    directory (``msgpack/_unpacker.pyx``) or bare (``_frozenlist.pyx``), and a template's
    rendered file (``hashtable_class_helper.pxi``): each is a key of the record."""
    out: list[str] = []
    for key in keys:
        rendered = key.removesuffix(".in")
        out += [rendered, rendered.rsplit("/", 1)[-1]]
    return out


@lru_cache(maxsize=1)
def _known_prefixes() -> tuple[str, ...]:
    """``Lib/``, ``src/``, ``lib/`` and every path prefix of errdex's tag table, longest first."""
    from errdex.source.tags import load_schemes

    found = {f"{d}/" for d in _CODE_DIRS}
    try:
        schemes = load_schemes()
    except (OSError, ValueError):
        schemes = {}
    for scheme in schemes.values():
        prefix = scheme.path_prefix.strip("/")
        if prefix:
            found.add(prefix + "/")
    return tuple(sorted(found, key=lambda p: (-len(p), p)))
