"""The hook in real processes: real scripts, the real catalogue, stderr compared with the
same script run without the hook."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.integrations.conftest import env_for, index, line_of

RESHAPE = f"src/tinyshapes/core.py:{line_of('raise ShapeError')}"
INSTALL = "import errdex; errdex.install()"


def script(tmp_path: Path, body: str, *, hook: bool = True, name: str = "main.py") -> Path:
    """``body`` with ``{install}`` replaced by the install line, or by ``pass`` (so that
    line numbers, hence tracebacks, are the same with and without the hook)."""
    path = tmp_path / name
    path.write_text(textwrap.dedent(body).replace("{install}", INSTALL if hook else "pass"))
    return path


def run(path: Path, env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(path)], env=env, cwd=cwd, capture_output=True, text=True, timeout=120
    )


def with_and_without(
    tmp_path: Path, body: str, env: dict[str, str]
) -> tuple[subprocess.CompletedProcess[str], subprocess.CompletedProcess[str]]:
    hooked = run(script(tmp_path, body, name="hooked.py"), env, tmp_path)
    plain = run(script(tmp_path, body, hook=False, name="hooked.py"), env, tmp_path)
    return hooked, plain


def block_after(hooked: str, plain: str) -> str:
    """The traceback is printed unchanged, and the block follows it."""
    assert hooked.startswith(plain), hooked
    block = hooked[len(plain) :]
    assert block.startswith("── errdex"), block
    return block


MAIN = """\
    {install}
    from tinyshapes.core import reshape
    print("before")
    reshape(6, (4, 2))
"""


def answered(tmp_path: Path, shapes: Path, body: str, code: int, stdout: str, header: str) -> str:
    """Run ``body`` with and without the hook: same exit status and output, the plain
    traceback (with ``header``) unchanged; returns the block printed after it."""
    hooked, plain = with_and_without(
        tmp_path, body, env_for(shapes, ERRDEX_DB=str(shapes / "errdex.db"))
    )
    assert hooked.returncode == plain.returncode == code
    assert hooked.stdout == plain.stdout == stdout
    assert header in plain.stderr
    return block_after(hooked.stderr, plain.stderr)


def test_uncaught_exception_prints_traceback_then_block(tmp_path: Path, shapes: Path) -> None:
    block = answered(tmp_path, shapes, MAIN, 1, "before\n", "Traceback (most recent call last)")
    assert f"ShapeError raised at {RESHAPE}" in block
    assert f"here   {shapes / 'src' / 'tinyshapes' / 'core.py'}" in block
    assert "when   if total != size" in block
    assert "{size} = 6" in block and "{shape} = (4, 2)" in block
    assert "link   https://github.com/example/tinyshapes/blob/" in block


def test_a_chained_error_is_answered_for_the_error_that_escaped(
    tmp_path: Path, shapes: Path
) -> None:
    body = "{install}\nfrom tinyshapes.core import wrapped\nwrapped(6, (4, 2))\n"
    hooked, plain = with_and_without(
        tmp_path, body, env_for(shapes, ERRDEX_DB=str(shapes / "errdex.db"))
    )
    block = block_after(hooked.stderr, plain.stderr)
    assert f"RuntimeError raised at src/tinyshapes/core.py:{line_of('raise RuntimeError')}" in block


THREAD = """\
    {first}
    {install}
    import threading
    from tinyshapes.core import axis_of
    worker = threading.Thread(target=axis_of, args=(2, 5), name="worker")
    worker.start()
    worker.join()
    print("main goes on")
"""


@pytest.mark.parametrize("first", ["", "import threading"], ids=["after", "before"])
def test_an_error_in_a_thread(tmp_path: Path, shapes: Path, first: str) -> None:
    body = THREAD.replace("{first}", first)
    block = answered(tmp_path, shapes, body, 0, "main goes on\n", "Exception in thread worker")
    assert f"IndexError raised at src/tinyshapes/core.py:{line_of('raise IndexError')}" in block
    assert "{axis} = 5" in block and "{ndim} = 2" in block


ASYNC = """\
    {first}
    {install}
    import asyncio
    from tinyshapes.core import axis_of

    async def main():
        asyncio.get_running_loop().call_soon(axis_of, 1, 3)
        await asyncio.sleep(0.05)

    asyncio.run(main())
    print("loop done")
"""


@pytest.mark.parametrize("first", ["", "import asyncio"], ids=["asyncio-after", "asyncio-before"])
def test_an_error_in_an_asyncio_callback(tmp_path: Path, shapes: Path, first: str) -> None:
    body = ASYNC.replace("{first}", first)
    block = answered(
        tmp_path, shapes, body, 0, "loop done\n", "Exception in callback axis_of(1, 3)"
    )
    assert f"IndexError raised at src/tinyshapes/core.py:{line_of('raise IndexError')}" in block
    assert "{axis} = 3" in block


def test_opt_out(tmp_path: Path, shapes: Path) -> None:
    env = env_for(shapes, ERRDEX_DB=str(shapes / "errdex.db"), ERRDEX_DISABLE="1")
    hooked, plain = with_and_without(tmp_path, MAIN, env)
    assert (hooked.returncode, hooked.stderr) == (plain.returncode, plain.stderr)
    assert hooked.returncode == 1


def test_no_catalogue_is_silent_and_creates_none(tmp_path: Path, shapes: Path) -> None:
    hooked, plain = with_and_without(tmp_path, MAIN, env_for(shapes))
    assert (hooked.returncode, hooked.stderr) == (1, plain.stderr)
    assert not (tmp_path / "errdex.db").exists()
    assert not (shapes / "xdg-data").exists()


def test_the_catalogue_in_the_working_directory_is_found(tmp_path: Path, shapes: Path) -> None:
    (tmp_path / "errdex.db").write_bytes((shapes / "errdex.db").read_bytes())
    index(shapes, tmp_path / "errdex.db")
    hooked, plain = with_and_without(tmp_path, MAIN, env_for(shapes))
    assert f"ShapeError raised at {RESHAPE}" in block_after(hooked.stderr, plain.stderr)


def test_nothing_matched_is_silent(tmp_path: Path, shapes: Path) -> None:
    body = "{install}\nimport tinyshapes\n1 / 0\n"
    hooked, plain = with_and_without(
        tmp_path, body, env_for(shapes, ERRDEX_DB=str(shapes / "errdex.db"))
    )
    assert "ZeroDivisionError" in plain.stderr
    assert (hooked.returncode, hooked.stderr) == (1, plain.stderr)


@pytest.mark.parametrize("kind", ["text", "empty", "corrupt", "directory"])
def test_a_broken_catalogue_is_silent(tmp_path: Path, shapes: Path, kind: str) -> None:
    broken = tmp_path / "broken.db"
    if kind == "text":
        broken.write_text("this is not a database\n")
    elif kind == "empty":
        broken.write_bytes(b"")
    elif kind == "corrupt":
        broken.write_bytes((shapes / "errdex.db").read_bytes()[:100] + b"\x07" * 8192)
    else:
        broken.mkdir()
    env = env_for(shapes, ERRDEX_DB=str(broken))
    hooked, plain = with_and_without(tmp_path, MAIN, env)
    assert (hooked.returncode, hooked.stdout, hooked.stderr) == (1, plain.stdout, plain.stderr)
    if kind == "empty":
        assert broken.read_bytes() == b""
    debug = run(script(tmp_path, MAIN, name="hooked.py"), {**env, "ERRDEX_DEBUG": "1"}, tmp_path)
    assert debug.returncode == 1
    assert debug.stderr.startswith(plain.stderr)
    extra = debug.stderr[len(plain.stderr) :].splitlines()
    assert len(extra) == 1 and extra[0].startswith("errdex: the hook failed: StoreError: "), extra


def test_a_previous_excepthook_still_runs_first(tmp_path: Path, shapes: Path) -> None:
    body = """\
        import sys
        def mine(t, e, tb):
            print("mine:", t.__name__, file=sys.stderr)
        sys.excepthook = mine
        {install}
        from tinyshapes.core import reshape
        reshape(6, (4, 2))
    """
    hooked, plain = with_and_without(
        tmp_path, body, env_for(shapes, ERRDEX_DB=str(shapes / "errdex.db"))
    )
    assert plain.stderr == "mine: ShapeError\n"
    assert f"ShapeError raised at {RESHAPE}" in block_after(hooked.stderr, plain.stderr)


def test_installing_loads_nothing_heavy(shapes: Path) -> None:
    code = (
        "import sys, errdex; errdex.install();"
        "heavy = [m for m in sys.modules if m.split('.')[0] in ('rich', 'fastapi', 'asyncio', 'pydantic', 'threading', 'typing', 'pathlib')"
        " or m.startswith(('errdex.match.', 'errdex.store', 'errdex.terminal'))];"
        "print(heavy)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env_for(shapes), capture_output=True, text=True
    )
    assert done.stdout == "[]\n", done.stdout + done.stderr


def test_uninstall_puts_the_hooks_back() -> None:
    code = """\
import sys, threading
from errdex.integrations.hook import install, installed, uninstall
before = (sys.excepthook, threading.excepthook)
assert install() and installed()
assert sys.excepthook is not before[0] and threading.excepthook is not before[1]
import asyncio.base_events as b
assert b.BaseEventLoop.default_exception_handler.__module__ == "errdex.integrations.hook"
uninstall()
assert (sys.excepthook, threading.excepthook) == before and not installed()
assert b.BaseEventLoop.default_exception_handler.__module__ == "asyncio.base_events"
print("ok")
"""
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=env_for(Path("/nonexistent")),
        capture_output=True,
        text=True,
    )
    assert done.stdout == "ok\n", done.stderr


def test_an_unindexed_catalogue_gets_a_hint_not_a_minute_long_build(
    tmp_path: Path, shapes: Path
) -> None:
    fresh = tmp_path / "fresh.db"
    fresh.write_bytes((shapes / "errdex.db").read_bytes())
    env = env_for(shapes, ERRDEX_DB=str(fresh))
    hooked, plain = with_and_without(tmp_path, MAIN, env)
    assert hooked.returncode == plain.returncode == 1
    assert hooked.stderr == plain.stderr + (
        f"errdex: {fresh} is not indexed yet; run `errdex match --db {fresh} x` once to index it\n"
    )
    assert not (tmp_path / "fresh.db.matchindex").exists()
    index(shapes, fresh)
    hooked = run(script(tmp_path, MAIN, name="hooked.py"), env, tmp_path)
    assert f"ShapeError raised at {RESHAPE}" in block_after(hooked.stderr, plain.stderr)


def test_an_answer_from_the_saved_index_reads_it_ahead_and_loads_no_fuzzy_matcher(
    tmp_path: Path, shapes: Path
) -> None:
    """The hook's first answer pays only for what it uses: the index beside the catalogue
    is read (and its MAC checked) in a thread while the matcher imports, the saved
    automaton is used (not rebuilt from the anchors), and a message that matches its
    template imports neither the fuzzy matcher (rapidfuzz), nor the tag table
    (errdex.source) to find the local file, nor shutil (which loads lzma and bz2)."""
    body = """\
        import atexit, sys
        {install}
        def _after():
            from errdex.match import index_file
            heavy = [m for m in ("rapidfuzz", "errdex.source", "shutil") if m in sys.modules]
            print("heavy:", heavy, "ahead:", sorted(index_file._prefetched))
        atexit.register(_after)
        from errdex.match import index_file
        def _no_rebuild(anchors):
            raise AssertionError("rebuilt")
        index_file._automaton = _no_rebuild
        started = []
        real = index_file.prefetch
        def _prefetch(directory, **options):
            started.append(directory)
            real(directory, **options)
            print("ahead:", directory.name, directory in index_file._prefetched, options)
        index_file.prefetch = _prefetch
        from tinyshapes.core import reshape
        reshape(6, (4, 2))
    """
    db = shapes / "errdex.db"
    index(shapes, db)
    hooked = run(script(tmp_path, body), env_for(shapes, ERRDEX_DB=str(db)), tmp_path)
    assert hooked.returncode == 1
    assert f"ShapeError raised at {RESHAPE}" in hooked.stderr
    assert "rebuilt" not in hooked.stderr
    assert hooked.stdout.splitlines() == [
        # started before the matcher was imported, for one answer (its automaton deferred)
        "ahead: errdex.db.matchindex True {'one_answer': True}",
        "heavy: [] ahead: []",  # and consumed by the load
    ]
