"""Concurrent runs sharing errdex's sdist cache: one fetch, one unpack, whole trees."""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
import tarfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from errdex.source.sdist import fetch_sdist, unpacked_once

ROOT = Path(__file__).resolve().parents[2]
#: enough members that an unpack takes long enough for runs to overlap
FILES = {f"pkg-1.0/pkg/m{i:03}.py": f"x = {i}\n".encode() * 200 for i in range(300)}
FILES["pkg-1.0/PKG-INFO"] = b"Metadata-Version: 2.1\nName: pkg\nVersion: 1.0\n"


def _tar(path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with tarfile.open(path, "w:gz") as tar:
        for name, data in FILES.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return path


def _read_whole_tree(root: Path) -> list[str]:
    """What a scan would miss: every member of the archive read back through ``root``."""
    wrong = []
    for name, data in FILES.items():
        try:
            if (root / name.partition("/")[2]).read_bytes() != data:
                wrong.append(f"{name}: other contents")
        except OSError as exc:
            wrong.append(f"{name}: {exc.strerror}")
    return wrong


def _together(count: int, job: Callable[[], list[str]]) -> list[str]:
    """Run ``job`` in ``count`` threads started at once; what each got wrong, or raised."""
    start, wrong = threading.Barrier(count), []

    def run() -> None:
        start.wait()
        try:
            wrong.extend(job())
        except Exception as exc:  # a failure to report, not to hide
            wrong.append(f"raised {exc!r}")

    threads = [threading.Thread(target=run) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return wrong


def test_concurrent_unpacks_of_one_archive_each_read_the_whole_tree(tmp_path: Path) -> None:
    for round_ in range(3):  # fresh cache entries: every run starts with nothing unpacked
        archive = _tar(tmp_path / f"round{round_}" / "pkg-1.0" / "pkg-1.0.tar.gz")
        wrong = _together(4, lambda archive=archive: _read_whole_tree(unpacked_once(archive)))
        assert wrong == [], wrong[:5]
        assert sorted(p.name for p in archive.parent.iterdir()) == [
            ".unpacked",
            "pkg-1.0.tar.gz",
            "unpacked",
        ]


def test_concurrent_fetches_run_pip_once_and_share_its_archive(tmp_path: Path) -> None:
    calls = []

    def slow_pip(command: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        calls.append(command)
        time.sleep(0.3)  # a download in flight while the other run looks at the cache
        _tar(Path(command[command.index("-d") + 1]) / "pkg-1.0.tar.gz")
        return subprocess.CompletedProcess(command, 0, "", "")

    got: list[Path] = []

    def fetch() -> list[str]:
        archive = fetch_sdist("pkg", "1.0", cache_dir=tmp_path, runner=slow_pip)
        got.append(archive)
        return _read_whole_tree(unpacked_once(archive))

    assert _together(2, fetch) == []
    assert len(calls) == 1  # the later run waited for the earlier one's archive
    assert got == [tmp_path / "pkg-1.0" / "pkg-1.0.tar.gz"] * 2
    assert not list(tmp_path.glob(".download-*"))


KILLED_MIDWAY = """
import os, signal, sys
from pathlib import Path
import errdex.source.sdist as sdist

def untar_then_die(archive, dest, max_bytes):
    (dest / "pkg-1.0").mkdir()
    (dest / "pkg-1.0" / "PKG-INFO").write_text("half")
    os.kill(os.getpid(), signal.SIGKILL)

sdist._untar = untar_then_die
sdist.unpacked_once(Path(sys.argv[1]))
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_an_unpack_killed_midway_leaves_nothing_a_later_run_trusts(tmp_path: Path) -> None:
    archive = _tar(tmp_path / "pkg-1.0" / "pkg-1.0.tar.gz")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_MIDWAY, str(archive)], env=env, check=False
    )
    assert killed.returncode == -signal.SIGKILL
    assert not (archive.parent / "unpacked").exists()  # the half tree is not under its name
    assert _read_whole_tree(unpacked_once(archive)) == []
    assert not list(archive.parent.glob(".unpack-*"))  # the dead run's folder is cleared
