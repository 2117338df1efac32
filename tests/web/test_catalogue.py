"""The site's readers: one per thread, closed when the thread ends."""

from __future__ import annotations

import gc
import os
import threading
import time
from pathlib import Path

from errdex.web.catalogue import Catalogue, ErrorFilters

from .catalogue import scan_into, write_tree


def open_files(path: Path) -> int:
    """Descriptors this process holds on ``path`` (SQLite keeps one per connection)."""
    fds = Path("/proc/self/fd")
    count = 0
    for fd in fds.iterdir():
        try:
            if os.readlink(fd) == str(path):
                count += 1
        except OSError:
            continue
    return count


def settled(path: Path, want: int) -> int:
    """The descriptor count once the ended threads' locals are gone (or after 20 s)."""
    deadline = time.monotonic() + 20
    while (count := open_files(path)) != want and time.monotonic() < deadline:
        gc.collect()
        time.sleep(0.05)
    return count


def test_a_thread_that_ends_closes_its_reader(tmp_path: Path) -> None:
    # A file of its own: SQLite defers closing a descriptor while another connection of
    # the process holds a lock on the same file, so a shared file would hide the count.
    db = tmp_path / "errdex.db"
    body = "def f():\n    raise ValueError('one')\n"
    ((record, _),) = scan_into(db, write_tree(tmp_path / "a", {"a/m.py": body}), "o/a", "6" * 40)
    catalogue = Catalogue(str(db))
    before = open_files(db)
    answers: list[int] = []
    release = threading.Event()

    def request() -> None:
        answers.append(len(catalogue.repos()) + int(catalogue.locate("0" * 16) is None))
        release.wait(30)

    threads = [threading.Thread(target=request) for _ in range(12)]
    for thread in threads:
        thread.start()
    try:
        while len(answers) < len(threads):
            threading.Event().wait(0.01)
        assert open_files(db) >= before + 1  # the live threads hold readers
    finally:
        release.set()
        for thread in threads:
            thread.join(30)
    assert answers == [2] * 12
    assert settled(db, before) == before
    assert catalogue.open_readers() == 0
    # The catalogue still works on a new thread, and closing it closes what is left.
    assert catalogue.locate(record["id"]) is not None
    assert open_files(db) == before + 1
    catalogue.close()
    assert settled(db, before) == before


def test_messages_with_a_nul_are_listed_whole(tmp_path: Path) -> None:
    db = tmp_path / "errdex.db"
    body = "def f():\n    raise ValueError('before \\x00 after the byte')\n"
    scan_into(db, write_tree(tmp_path / "a", {"a/m.py": body}), "o/a", "6" * 40)
    catalogue = Catalogue(str(db))
    try:
        rows, total = catalogue.repo_errors("o/a", ErrorFilters(), 10, 0)
        assert total == 1 and rows[0]["errorMessage"] == "before \x00 after the byte"
    finally:
        catalogue.close()
