"""Where a catalogued repository's files are installed for the interpreter that will run
its snippets, and which of the files there are its tests.

The target interpreter is asked for its ``sys.path`` (``python -I -c …``: no code of any
repository runs for that); each record's ``filePath`` is looked up there under the keys
:mod:`errdex.match.layouts` gives it (``Lib/json/decoder.py`` is ``json/decoder.py`` in
the stdlib folder). The tests read are those under the repository's own installed
folders (``networkx/**/tests/test_*.py``) — the wheel ships them or it does not — and, for
CPython, the stdlib's ``test`` package; ``--tests DIR`` adds a folder of tests (a checkout,
an sdist).
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from errdex.match.layouts import record_keys
from errdex.source.stdlib import STDLIB_REPO

__all__ = ["Interpreter", "Located", "distribution_of", "interpreter", "locate", "test_files"]

_TEST_NAMES = ("test_*.py", "*_test.py")
_TEST_DIRS = frozenset({"test", "tests", "testing"})
_PROBE = "import json, sys; print(json.dumps([sys.version.split()[0], sys.executable, sys.path]))"


@dataclass(frozen=True)
class Interpreter:
    python: str  # as given (the command the sandbox runs)
    version: str
    executable: str
    path: tuple[str, ...]


def interpreter(python: str, extra: Iterable[str] = ()) -> Interpreter:
    """Ask ``python`` what it is and where it imports from."""
    done = subprocess.run(
        [python, "-I", "-c", _PROBE], capture_output=True, text=True, timeout=60, check=False
    )
    if done.returncode != 0:
        raise OSError(f"{python} did not start: {done.stderr.strip()[-300:]}")
    version, executable, path = json.loads(done.stdout)
    dirs = [*extra, *(p for p in path if p)]
    return Interpreter(python, version, executable, tuple(dict.fromkeys(dirs)))


@dataclass
class Located:
    """A repository's installed roots: (folder, prefix of filePath it stands for)."""

    roots: dict[Path, str] = field(default_factory=dict)
    tops: set[Path] = field(default_factory=set)  # installed package folders of the repo
    missing: int = 0  # record files not found for this interpreter

    def file_of(self, path: str) -> Path | None:
        """Where the repository file ``path`` is installed, if it is."""
        for root, prefix in self.roots.items():
            if path.startswith(prefix) and (root / path[len(prefix) :]).is_file():
                return root / path[len(prefix) :]
        return None


def locate(envelopes: Iterable[dict[str, Any]], interp: Interpreter) -> Located:
    out = Located()
    dirs = [Path(p) for p in interp.path if Path(p).is_dir()]
    seen: set[str] = set()
    for env in envelopes:
        path = str(env["record"]["filePath"])
        if path in seen:
            continue
        seen.add(path)
        hit = _find(path, dirs)
        if hit is None:
            out.missing += 1
            continue
        root, key = hit
        out.roots.setdefault(root, path[: len(path) - len(key)])
        first = key.split("/", 1)
        if len(first) == 2:
            out.tops.add(root / first[0])
    return out


def _find(path: str, dirs: list[Path]) -> tuple[Path, str] | None:
    keys = sorted(record_keys(path), key=len)
    for root in dirs:
        for key in keys:
            if (root / key).is_file():
                return root, key
    return None


def test_files(
    repo: str, located: Located, extra: Iterable[Path] = ()
) -> Iterator[tuple[Path, str]]:
    """(file, repository-relative path) of every test module to cut snippets from."""
    seen: set[Path] = set()
    for top in sorted(located.tops):
        root = top.parent
        prefix = located.roots.get(root, "")
        for file in _tests_under(top):
            if file not in seen:
                seen.add(file)
                yield file, prefix + file.relative_to(root).as_posix()
    if repo == STDLIB_REPO:
        for root, prefix in located.roots.items():
            for file in _tests_under(root / "test"):
                if file not in seen:
                    seen.add(file)
                    yield file, prefix + file.relative_to(root).as_posix()
    for folder in extra:  # named as the folder's own name and below: tests/test_x.py
        for file in _tests_under(folder):
            if file not in seen:
                seen.add(file)
                yield file, file.relative_to(folder.parent).as_posix()


def _tests_under(folder: Path) -> list[Path]:
    """Test modules under ``folder``, and every other module of a test folder there: the
    ``conftest.py``, the ``__init__.py`` and the mixins (``pickletester.py``) that the
    test modules take their fixtures and base classes from."""
    if not folder.is_dir():
        return []
    found: set[Path] = set()
    for pattern in _TEST_NAMES:
        found.update(p for p in folder.rglob(pattern) if p.is_file() and not p.is_symlink())
    inside = folder.name in _TEST_DIRS
    for p in folder.rglob("*.py"):
        rel = p.relative_to(folder).parts[:-1]
        if (inside or _TEST_DIRS.intersection(rel)) and p.is_file() and not p.is_symlink():
            found.add(p)
    return sorted(found)


def distribution_of(located: Located) -> tuple[str, str] | None:
    """(name, version) of the installed distribution whose files hold the repository's
    packages, read from the ``*.dist-info`` beside them (``RECORD`` lists the package)."""
    for top in sorted(located.tops):
        for info in sorted(top.parent.glob("*.dist-info")):
            try:
                record = (info / "RECORD").read_text(encoding="utf-8")
                meta = (info / "METADATA").read_text(encoding="utf-8", errors="replace")
            except (OSError, UnicodeDecodeError):
                continue
            if f"\n{top.name}/" not in "\n" + record:
                continue
            fields = dict(line.split(": ", 1) for line in meta.splitlines()[:20] if ": " in line)
            if fields.get("Name") and fields.get("Version"):
                return fields["Name"].strip(), fields["Version"].strip()
    return None
