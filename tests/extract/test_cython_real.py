"""Real Cython libraries end to end: their sdists scanned, their errors provoked and matched.

msgpack and frozenlist are installed from wheels into a folder of errdex's test cache
(``pip install --target``, never into errdex's own environment); PyYAML is already in
it. ``errdex scan --package NAME --sdist`` fetches each installed version's sdist with
pip, and each error a user's misuse provokes in the compiled module is matched back
from its traceback to the ``.pyx`` line the traceback prints.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import errdex
from errdex.match import match

ROOT = Path(__file__).resolve().parents[2]
TEST_CACHE = Path(os.environ.get("ERRDEX_TEST_CACHE", Path.home() / ".cache" / "errdex-test"))
WHEELS = {"msgpack": "1.1.0", "frozenlist": "1.5.0"}

#: (library, code a user might write); each raises inside a compiled Cython module.
PROVOKED = [
    ("msgpack", "import msgpack; msgpack.unpackb(b'\\x91')"),
    ("msgpack", "import msgpack; msgpack.unpackb(b'\\x01\\x02')"),
    ("msgpack", "import msgpack; msgpack.unpackb(b'\\xc1')"),
    ("msgpack", "import msgpack; msgpack.packb(object())"),
    ("msgpack", "import msgpack; msgpack.packb(2**70)"),
    ("msgpack", "import msgpack; msgpack.Packer(default=3)"),
    ("msgpack", "import msgpack; msgpack.Unpacker(object_hook=3)"),
    ("msgpack", "import msgpack; msgpack.Unpacker(max_buffer_size=1, read_size=2)"),
    ("msgpack", "import msgpack; msgpack.Unpacker().unpack()"),
    ("frozenlist", "import frozenlist as f; x = f.FrozenList([1]); x.freeze(); x.append(2)"),
    ("frozenlist", "import frozenlist as f; hash(f.FrozenList([1]))"),
    ("PyYAML", "import yaml; yaml.CLoader('a: [b').get_single_data()"),
    ("PyYAML", "import yaml; yaml.CLoader('a: b\\n c: d').get_single_data()"),
]
_FRAME = re.compile(r'File "([^"]+\.pyx)", line (\d+)')


def _env(libs: Path, xdg: Path) -> dict[str, str]:
    return {
        **os.environ,
        # the errdex this process imported (a benchmark's baseline at another checkout's
        # ``src`` scans with that code, not this tree's)
        "PYTHONPATH": os.pathsep.join([str(Path(errdex.__file__).resolve().parents[1]), str(libs)]),
        "XDG_CACHE_HOME": str(xdg),
        "ERRDEX_OFFLINE": "1",
    }


def install_libs() -> Path:
    """msgpack and frozenlist wheels, installed into the test cache (not errdex's venv)."""
    target = TEST_CACHE / "cython-libs"
    if not all((target / f"{n}-{v}.dist-info").is_dir() for n, v in WHEELS.items()):
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--disable-pip-version-check", "--no-deps",
             "--only-binary", ":all:", "--target", str(target),
             *(f"{n}=={v}" for n, v in WHEELS.items())],
            check=True, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
    return target


def scan_sdists(db: Path, libs: Path) -> None:
    """``errdex scan --package NAME --sdist`` of the three libraries into ``db``."""
    xdg = TEST_CACHE / "xdg"  # the sdists stay cached between runs
    for name in ("msgpack", "frozenlist", "PyYAML"):
        done = subprocess.run(
            [sys.executable, "-m", "errdex", "scan", "--package", name, "--sdist",
             "--db", str(db), "--no-progress", "--json"],
            env=_env(libs, xdg), capture_output=True, text=True, timeout=900,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr


@pytest.fixture(scope="session")
def libs() -> Path:
    return install_libs()


@pytest.fixture(scope="session")
def catalogue(libs: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The three libraries' sdists, scanned with ``errdex scan --package NAME --sdist``."""
    db = tmp_path_factory.mktemp("cython-real") / "errdex.db"
    scan_sdists(db, libs)
    return db


def _provoke(libs: Path, code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code],
        env={**os.environ, "PYTHONPATH": str(libs)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1 and "Traceback" in done.stderr, done.stderr
    return done.stderr


@pytest.mark.parametrize(
    ("library", "code"), PROVOKED, ids=[f"{lib}:{c[-40:]}" for lib, c in PROVOKED]
)
def test_a_provoked_cython_error_is_matched_to_its_pyx_line(
    catalogue: Path,
    libs: Path,
    library: str,
    code: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    traceback = _provoke(libs, code)
    path, line = _FRAME.findall(traceback)[-1]  # the innermost Cython frame: where it raised
    best = match(traceback, catalogue)[0]
    assert best.filePath.endswith(path) and best.lineNumber == int(line), (best, traceback)


def test_the_sdists_cython_sits_beside_its_python(catalogue: Path) -> None:
    from errdex.store import SqliteStore

    with SqliteStore(catalogue) as store:
        paths = {e["record"]["filePath"] for e in store.iter_envelopes()}
        languages = {
            e["record"]["filePath"]: e["evidence"]["site"]["language"]
            for e in store.iter_envelopes()
        }
    assert {
        "msgpack/_unpacker.pyx",
        "msgpack/_packer.pyx",
        "frozenlist/_frozenlist.pyx",
        "yaml/_yaml.pyx",
    } <= paths
    assert any(p.endswith(".py") for p in paths if p.startswith("msgpack/"))
    assert languages["yaml/_yaml.pyx"] == "cython"
