"""The sandbox runs real child interpreters: limits, network, scratch folder, the result."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from errdex.verify.sandbox import RunResult, Sandbox, namespace_works


def test_a_raise_comes_back_with_class_message_and_innermost_frame() -> None:
    result = Sandbox().run("def f(x):\n    raise ValueError(f'bad {x}')\nf(3)\n")
    assert result.status == "raised"
    assert result.error_class == "builtins.ValueError"
    assert "builtins.Exception" in result.classes
    assert result.message == "bad 3"
    assert result.innermost == ("<reproducer>", 2)
    assert "raise ValueError(f'bad {x}')" in result.traceback_tail  # the snippet's own line
    assert "errdex_verify_child" not in result.traceback_tail


def test_what_a_snippet_prints_cannot_fake_the_result() -> None:
    result = Sandbox().run(
        'import sys\nprint(\'{"status": "ok"}\')\n'
        "sys.stderr.write('Traceback\\nKeyError: x\\n')\nraise TypeError('real')\n"
    )
    assert (result.status, result.error_class, result.message) == (
        "raised",
        "builtins.TypeError",
        "real",
    )


def test_a_snippet_that_finishes_is_ok() -> None:
    assert Sandbox().run("x = 1 + 1\n").status == "ok"


def test_time_limit_kills_the_snippet() -> None:
    result = Sandbox(timeout=1.5).run("while True:\n    pass\n")
    assert result.status == "timeout"


def test_memory_limit_turns_a_huge_allocation_into_memory_error() -> None:
    result = Sandbox(memory=300 << 20).run("x = bytearray(1 << 30)\n")
    assert result.error_class == "builtins.MemoryError"


def test_network_is_cut_with_and_without_a_namespace() -> None:
    program = "import socket\nsocket.create_connection(('127.0.0.1', 9), timeout=2)\n"
    for sandbox in (Sandbox(namespace=False), Sandbox()):
        result = sandbox.run(program)
        assert result.status == "raised"
        assert "OSError" in " ".join(result.classes), result
    raw = "import socket\ns = socket.socket()\ns.settimeout(2)\ns.connect(('127.0.0.1', 9))\n"
    assert "disabled by errdex verify" in (Sandbox(namespace=False).run(raw).message or "")


def test_namespace_is_used_when_it_works() -> None:
    assert Sandbox().isolation() == ("namespace" if namespace_works() else "bootstrap")
    assert Sandbox(namespace=False).isolation() == "bootstrap"


def test_scratch_folder_environment_and_isolated_mode() -> None:
    program = (
        "import os, sys, json\n"
        "raise RuntimeError(json.dumps([os.getcwd(), os.environ.get('HOME'), "
        "sorted(os.environ), sys.flags.isolated]))\n"
    )
    result = Sandbox().run(program)
    import json

    cwd, home, keys, isolated = json.loads(result.message or "")
    assert cwd == home and Path(cwd).name.startswith("errdex-verify-")
    assert cwd != os.getcwd()
    assert isolated == 1
    assert "PYTHONPATH" not in keys and "XDG_CACHE_HOME" not in keys
    assert not Path(cwd).exists()  # the scratch folder is gone afterwards


def test_sys_path_roots_are_importable(tmp_path: Path) -> None:
    (tmp_path / "mymod.py").write_text("def boom():\n    raise KeyError('k')\n")
    result = Sandbox(sys_path=(str(tmp_path),)).run("import mymod\nmymod.boom()\n")
    assert result.error_class == "builtins.KeyError"
    assert result.arg == "k" and result.message == "'k'"
    assert result.innermost == (str(tmp_path / "mymod.py"), 2)


def test_warnings_as_errors_raise_at_the_warn_call() -> None:
    program = "import warnings\ndef f():\n    warnings.warn('old', DeprecationWarning)\nf()\n"
    assert Sandbox().run(program).status == "ok"
    result = Sandbox().run(program, warnings_as_errors=True)
    assert result.error_class == "builtins.DeprecationWarning"
    assert result.innermost == ("<reproducer>", 3)


def test_a_child_that_dies_is_crashed_and_a_bad_interpreter_too() -> None:
    assert Sandbox().run("import os\nos._exit(3)\n").status == "crashed"
    bad = Sandbox(python=str(Path(sys.executable).with_name("no-such-python")), namespace=False)
    assert bad.run("pass").status == "crashed"


def test_results_round_trip_through_json() -> None:
    result = Sandbox().run("raise ValueError('x')\n")
    assert RunResult.from_json(result.to_json()) == result


def test_what_a_snippet_leaves_running_is_killed_with_it(tmp_path: Path) -> None:
    flag = tmp_path / "still-running"
    child = f"import time, pathlib; time.sleep(3); pathlib.Path({str(flag)!r}).write_text('x')"
    program = f"import subprocess, sys\nsubprocess.Popen([sys.executable, '-c', {child!r}])\n"
    assert Sandbox(namespace=False).run(program).status == "ok"
    import time

    time.sleep(4)
    assert not flag.exists()


def test_a_flood_on_stderr_is_bounded_by_the_file_size_limit() -> None:
    result = Sandbox(timeout=20).run("import sys\nwhile True:\n    sys.stderr.write('x' * 65536)\n")
    assert result.status in ("raised", "crashed"), result  # stopped by the limit, not the clock


PROGRAMS = [
    "def f(x):\n    raise ValueError(f'bad {x}')\nf(3)\n",
    "x = 1\n",
    "import socket\nsocket.getaddrinfo('example.org', 80)\n",
    "x = bytearray(1 << 31)\n",
    "import os\nos._exit(4)\n",
    "import os\nraise RuntimeError(str(os.getcwd() == os.environ['HOME']))\n",
    "import json\njson.loads('{')\n",
]


def _essence(result: RunResult) -> tuple[object, ...]:
    frames = tuple(f for f in result.frames if f[0] == "<reproducer>")
    return (result.status, result.error_class, result.message, frames)


def test_forked_children_give_what_fresh_interpreters_give() -> None:
    plain = Sandbox(memory=1 << 30)
    forked = Sandbox(memory=1 << 30, fork=True, preload=("json",))
    try:
        for program in PROGRAMS:
            assert _essence(forked.run(program)) == _essence(plain.run(program)), program
    finally:
        forked.close()


def test_a_forked_child_that_times_out_is_killed_and_the_server_goes_on() -> None:
    forked = Sandbox(timeout=1.5, fork=True)
    try:
        assert forked.run("while True:\n    pass\n").status == "timeout"
        assert forked.run("raise KeyError('after')\n").arg == "after"
    finally:
        forked.close()


def test_many_quick_snippets_in_a_row_each_get_their_own_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Both answers of a quick child arrive together (a slow reader here makes sure of
    it); each run must still read its own, not wait for one already read."""
    from errdex.verify import forkserver

    real = forkserver.select.select

    def slow(*args: Any, **kwargs: Any) -> Any:
        time.sleep(0.3)
        return real(*args, **kwargs)

    monkeypatch.setattr(forkserver.select, "select", slow)
    forked = Sandbox(fork=True, timeout=3)
    try:
        for i in range(3):
            result = forked.run(f"raise KeyError({i})\n")
            assert (result.status, result.message) == ("raised", str(i)), result
    finally:
        forked.close()


@pytest.mark.parametrize("fork", [False, True])
def test_sigint_raises_keyboard_interrupt_when_verify_was_started_with_it_ignored(
    fork: bool,
) -> None:
    """A background job (CI, ``nohup``, ``verify &``) starts with SIGINT ignored, and its
    children inherited it: a snippet that sends itself SIGINT waited for ever."""
    import signal

    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    sandbox = Sandbox(timeout=10, fork=fork)
    try:
        result = sandbox.run("import signal, time\nsignal.raise_signal(signal.SIGINT)\n")
    finally:
        sandbox.close()
        signal.signal(signal.SIGINT, before)
    assert (result.status, result.error_class) == ("raised", "builtins.KeyboardInterrupt")


def test_a_frame_without_a_line_is_read_as_line_zero() -> None:
    """A frame whose line Python does not know (None in the wrapper's JSON) ended a whole
    stdlib verify with a TypeError out of ``from_json``."""
    data = {
        "status": "raised",
        "errorClass": "builtins.ValueError",
        "frames": [{"file": "<reproducer>", "line": 3}, {"file": "x.py", "line": None}],
    }
    assert RunResult.from_json(data).frames == (("<reproducer>", 3), ("x.py", 0))
    cached = {**data, "frames": [["x.py", None]]}
    assert RunResult.from_json(cached).frames == (("x.py", 0),)
