"""The run cache: where it lives, what its key depends on, what survives a reopen."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.verify.cache import VerifyCache, default_cache_path, run_key
from errdex.verify.sandbox import RunResult


def test_it_lives_in_errdex_cache_dir_unless_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("ERRDEX_VERIFY_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_cache_path() == tmp_path / "errdex" / "verify-cache.sqlite"
    monkeypatch.setenv("ERRDEX_VERIFY_CACHE", str(tmp_path / "x.sqlite"))
    assert default_cache_path() == tmp_path / "x.sqlite"


def test_the_key_changes_with_program_interpreter_warnings_and_version() -> None:
    base = {"warns": False, "interpreter": ("/py", "3.11.7"), "context": ["o/n", "1.0"]}
    key = run_key("x()", **base)  # type: ignore[arg-type]
    assert key == run_key("x()", **base)  # type: ignore[arg-type]
    assert key != run_key("y()", **base)  # type: ignore[arg-type]
    assert key != run_key("x()", **{**base, "warns": True})  # type: ignore[arg-type]
    assert key != run_key("x()", **{**base, "interpreter": ("/py", "3.12.0")})  # type: ignore[arg-type]
    assert key != run_key("x()", **{**base, "context": ["o/n", "1.1"]})  # type: ignore[arg-type]


def test_results_survive_a_reopen(tmp_path: Path) -> None:
    result = RunResult(
        "raised", "builtins.ValueError", ("builtins.ValueError",), "m", "m", (("f.py", 3),)
    )
    cache = VerifyCache(tmp_path / "c.sqlite")
    cache.put("k", result)
    cache.close()
    again = VerifyCache(tmp_path / "c.sqlite")
    assert again.get("k") == result
    assert again.get("other") is None
    again.close()


def test_a_put_is_committed_without_an_fsync_and_a_killed_writer_keeps_it(
    tmp_path: Path,
) -> None:
    """A commit per run (an interrupted verify keeps what it finished), but in WAL mode
    with ``synchronous=NORMAL``: no fsync per run, which only an OS crash could need."""
    import subprocess
    import sys

    path = tmp_path / "c.sqlite"
    program = (
        "import os, sys\nfrom errdex.verify.cache import VerifyCache\n"
        "from errdex.verify.sandbox import RunResult\n"
        "c = VerifyCache(sys.argv[1])\n"
        "assert c._db.execute('PRAGMA synchronous').fetchone()[0] == 1\n"
        "c.put('k', RunResult('blocked', detail='accept'))\nos._exit(0)\n"
    )
    done = subprocess.run([sys.executable, "-c", program, str(path)], check=False)
    assert done.returncode == 0
    again = VerifyCache(path)
    try:
        assert again.get("k") == RunResult("blocked", detail="accept")
    finally:
        again.close()
