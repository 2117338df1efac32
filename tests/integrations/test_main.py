"""``python -m errdex run SCRIPT [ARGS]`` behaves as ``python SCRIPT ARGS``, hook added;
``python -m errdex`` with anything else is the ``errdex`` command."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from tests.integrations.conftest import env_for, line_of

SCRIPT = """\
import sys
print("argv", sys.argv[1:], "name", __name__, "file", __file__ == {path!r})
if sys.argv[1:2] == ["exit"]:
    sys.exit(int(sys.argv[2]))
if sys.argv[1:2] == ["fail"]:
    from tinyshapes.core import reshape
    reshape(int(sys.argv[2]), (4, 2))
"""


def write(tmp_path: Path) -> Path:
    path = tmp_path / "prog.py"
    path.write_text(SCRIPT.format(path=str(path)))
    return path


def both(tmp_path: Path, shapes: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], ...]:
    prog = write(tmp_path)
    env = env_for(shapes, ERRDEX_DB=str(shapes / "errdex.db"))
    runs = []
    for prefix in ([sys.executable, "-m", "errdex", "run"], [sys.executable]):
        runs.append(
            subprocess.run(
                [*prefix, prog.name, *args],
                cwd=tmp_path,
                env=env,
                capture_output=True,
                text=True,
                timeout=120,
            )
        )
    return tuple(runs)


def test_argv_name_and_success(tmp_path: Path, shapes: Path) -> None:
    hooked, plain = both(tmp_path, shapes, "a", "--flag", "b c")
    assert hooked.returncode == plain.returncode == 0
    assert hooked.stdout == plain.stdout == "argv ['a', '--flag', 'b c'] name __main__ file True\n"
    assert hooked.stderr == plain.stderr == ""


@pytest.mark.parametrize("code", ["0", "3", "7"])
def test_exit_status_passes_through(tmp_path: Path, shapes: Path, code: str) -> None:
    hooked, plain = both(tmp_path, shapes, "exit", code)
    assert hooked.returncode == plain.returncode == int(code)


def test_an_uncaught_exception(tmp_path: Path, shapes: Path) -> None:
    hooked, plain = both(tmp_path, shapes, "fail", "6")
    assert hooked.returncode == plain.returncode == 1
    assert hooked.stdout == plain.stdout
    assert "Traceback (most recent call last)" in plain.stderr
    assert hooked.stderr.startswith(plain.stderr)  # the same traceback: no runner frames
    block = hooked.stderr[len(plain.stderr) :]
    assert f"ShapeError raised at src/tinyshapes/core.py:{line_of('raise ShapeError')}" in block


def test_a_syntax_error_in_the_script(tmp_path: Path, shapes: Path) -> None:
    (tmp_path / "bad.py").write_text("x = (\n")
    env = env_for(shapes)
    runs = [
        subprocess.run([*prefix, "bad.py"], cwd=tmp_path, env=env, capture_output=True, text=True)
        for prefix in ([sys.executable, "-m", "errdex", "run"], [sys.executable])
    ]
    assert runs[0].returncode == runs[1].returncode == 1
    assert runs[0].stderr == runs[1].stderr and "SyntaxError" in runs[0].stderr


def test_a_module_runs_with_dash_m(tmp_path: Path, shapes: Path) -> None:
    (tmp_path / "runme.py").write_text(
        textwrap.dedent("""\
            import sys
            print(__name__, sys.argv[1:])
            from tinyshapes.core import axis_of
            axis_of(1, int(sys.argv[1]))
        """)
    )
    env = env_for(shapes, ERRDEX_DB=str(shapes / "errdex.db"))
    env["PYTHONPATH"] += f":{tmp_path}"
    done = subprocess.run(
        [sys.executable, "-m", "errdex", "run", "-m", "runme", "4"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert done.stdout == "__main__ ['4']\n"
    assert (
        f"IndexError raised at src/tinyshapes/core.py:{line_of('raise IndexError')}" in done.stderr
    )


def test_usage_and_missing_script(tmp_path: Path, shapes: Path) -> None:
    env = env_for(shapes)
    usage = subprocess.run(
        [sys.executable, "-m", "errdex", "run"], env=env, capture_output=True, text=True
    )
    assert usage.returncode == 2 and "usage: python -m errdex run SCRIPT" in usage.stderr
    missing = subprocess.run(
        [sys.executable, "-m", "errdex", "run", "nope.py"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert missing.returncode == 2 and "can't open file" in missing.stderr


def test_other_arguments_are_the_errdex_command(shapes: Path) -> None:
    env = env_for(shapes)
    done = subprocess.run(
        [sys.executable, "-m", "errdex", "--help"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0 and "scan" in done.stdout and "explain" in done.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "errdex", "no-such-verb"], env=env, capture_output=True, text=True
    )
    assert bad.returncode == 2 and "No such command" in bad.stderr
