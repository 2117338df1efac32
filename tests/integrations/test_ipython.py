"""``%load_ext errdex`` in a real IPython shell (a subprocess fed on stdin) and in a real
Jupyter kernel (``jupyter_client``), each raising a live error from a catalogued package."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager

from tests.integrations.acme import GEAR_LINE, build_catalogue

SRC = Path(__file__).resolve().parents[2] / "src"
#: The block's title line (the traceback's own frame line also names the file and line).
GEAR_BLOCK = f"ValueError raised at widgets/__init__.py:{GEAR_LINE}"
GEAR_ERROR = "ValueError: a gear needs at least 3 teeth, got 1"


@pytest.fixture
def catalogue(tmp_path: Path) -> tuple[Path, Path]:
    return build_catalogue(tmp_path)


def _env(widgets: Path, db: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ERRDEX_")}
    env["ERRDEX_OFFLINE"] = "1"
    env["XDG_CACHE_HOME"] = str(db.parent / "cache")
    env["PYTHONPATH"] = os.pathsep.join([str(widgets), str(SRC)])
    env["ERRDEX_DB"] = str(db)
    env["IPYTHONDIR"] = str(db.parent / "ipython")  # no profile of the machine's
    env.pop("NO_COLOR", None)
    return env


def ipython(lines: list[str], widgets: Path, db: Path) -> str:
    """Feed ``lines`` to a real IPython shell; its stdout and stderr, interleaved."""
    done = subprocess.run(
        [sys.executable, "-m", "IPython", "--no-banner", "--colors=nocolor", "--simple-prompt"],
        input="\n".join([*lines, "exit", ""]),
        capture_output=False,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=_env(widgets, db),
        cwd=db.parent,
        timeout=120,
    )
    return done.stdout


def test_terminal_shell_shows_the_raise_site_under_the_traceback(
    catalogue: tuple[Path, Path],
) -> None:
    widgets, db = catalogue
    out = ipython(["%load_ext errdex", "import widgets", "widgets.gear(1)"], widgets, db)
    plain = ipython(["pass", "import widgets", "widgets.gear(1)"], widgets, db)
    # The shell's own traceback first, exactly as without errdex, then errdex's block.
    traceback, block = out.split("── errdex ", 1)
    assert traceback.rstrip() == plain.split("In [4]:", 1)[0].rstrip()
    assert "Traceback" in traceback and traceback.rstrip().endswith(GEAR_ERROR)
    assert block.count(GEAR_BLOCK) == 1
    assert "\x1b[" not in out  # --colors=nocolor and no terminal: plain text
    assert "Custom TB Handler failed" not in out


def ipython_in_a_terminal(lines: list[str], widgets: Path, db: Path, colors: str) -> str:
    """Like :func:`ipython`, with the shell's output going to a pseudo-terminal."""
    master, slave = os.openpty()
    with subprocess.Popen(
        [sys.executable, "-m", "IPython", "--no-banner", "--simple-prompt", f"--colors={colors}"],
        stdin=subprocess.PIPE,
        stdout=slave,
        stderr=slave,
        env=_env(widgets, db),
        cwd=db.parent,
    ) as shell:
        os.close(slave)
        assert shell.stdin is not None
        shell.stdin.write("\n".join([*lines, "exit", ""]).encode())
        shell.stdin.close()
        out = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # the terminal closed: the shell is gone
                break
            if not chunk:
                break
            out += chunk
        shell.wait(timeout=120)
    os.close(master)
    return out.decode("utf-8", errors="replace")


def test_a_terminal_gets_the_block_in_colour_as_the_shell_is(catalogue: tuple[Path, Path]) -> None:
    widgets, db = catalogue
    lines = ["%load_ext errdex", "import widgets", "widgets.gear(1)"]
    coloured = ipython_in_a_terminal(lines, widgets, db, "neutral")
    block = coloured.split("── errdex ", 1)[1]
    assert f"\x1b[1m{GEAR_BLOCK}\x1b[0m" in block
    plain = ipython_in_a_terminal(lines, widgets, db, "nocolor")
    block = plain.split("── errdex ", 1)[1]
    assert GEAR_BLOCK in block and "\x1b[" not in block


def test_errdex_magic_explains_the_last_error(catalogue: tuple[Path, Path]) -> None:
    widgets, db = catalogue
    out = ipython(
        [
            "%load_ext errdex",
            "%errdex",
            "import widgets",
            "widgets.gear(1)",
            "print('after' + 'wards')",
            "%errdex",
        ],
        widgets,
        db,
    )
    assert "errdex: no error to explain yet" in out
    before, after = out.split("afterwards\n", 1)
    assert GEAR_BLOCK in before  # under the traceback
    assert GEAR_BLOCK in after  # and again from %errdex
    assert "Traceback" not in after  # %errdex adds no second traceback


def test_unload_puts_back_the_usual_traceback(catalogue: tuple[Path, Path]) -> None:
    widgets, db = catalogue
    out = ipython(
        ["%load_ext errdex", "%unload_ext errdex", "import widgets", "widgets.gear(1)"],
        widgets,
        db,
    )
    assert GEAR_ERROR in out
    assert GEAR_BLOCK not in out


def test_a_broken_catalogue_never_breaks_the_shell(catalogue: tuple[Path, Path]) -> None:
    widgets, db = catalogue
    db.write_bytes(b"this is not a sqlite database" * 100)
    out = ipython(
        [
            "%load_ext errdex",
            "import widgets",
            "widgets.gear(1)",
            "widgets.gear(2)",
            "print(40 + 2)",
        ],
        widgets,
        db,
    )
    assert out.count("ValueError: a gear needs at least 3 teeth, got") == 2
    assert "42" in out
    assert "Custom TB Handler failed" not in out  # errdex's handler stayed installed


def test_syntax_errors_in_a_cell_look_as_usual(catalogue: tuple[Path, Path]) -> None:
    widgets, db = catalogue
    # One the cell's parser finds, one that running the cell meets (shown with its frames).
    cells = ["1 +* 2", "compile('1 +* 2', 'typo.py', 'exec')"]
    plain = ipython(["pass", *cells], widgets, db)
    assert plain.count("SyntaxError: invalid syntax") == 2 and "typo.py" in plain
    assert ipython(["%load_ext errdex", *cells], widgets, db) == plain


# -- a real Jupyter kernel --------------------------------------------------------------


@pytest.fixture
def kernel(catalogue: tuple[Path, Path], tmp_path: Path) -> Iterator[Any]:
    """A real ipykernel of this Python, started through jupyter_client."""
    widgets, db = catalogue
    spec = tmp_path / "kernels" / "errdex-test"
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    spec.joinpath("kernel.json").write_text(
        json.dumps({"argv": argv, "display_name": "errdex test", "language": "python"})
    )
    manager = KernelManager(
        kernel_name="errdex-test",
        kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(tmp_path / "kernels")]),
    )
    manager.start_kernel(env=_env(widgets, db), cwd=str(tmp_path))
    client = manager.blocking_client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=120)
        yield client
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def execute(client: Any, code: str) -> list[dict[str, Any]]:
    """Run ``code``; the iopub messages it caused, in order, until the kernel is idle."""
    msg_id = client.execute(code)
    messages = []
    while True:
        message = client.get_iopub_msg(timeout=120)
        if message["parent_header"].get("msg_id") != msg_id:
            continue
        messages.append(message)
        content = message["content"]
        if message["msg_type"] == "status" and content["execution_state"] == "idle":
            return messages


def test_kernel_publishes_the_block_as_html_after_the_error(kernel: Any) -> None:
    messages = execute(kernel, "%load_ext errdex\nimport widgets\nwidgets.gear(1)")
    kinds = [m["msg_type"] for m in messages]
    assert "error" in kinds
    error = messages[kinds.index("error")]["content"]
    assert error["ename"] == "ValueError"
    assert error["evalue"] == "a gear needs at least 3 teeth, got 1"
    shown = [m for m in messages[kinds.index("error") :] if m["msg_type"] == "display_data"]
    assert len(shown) == 1
    data = shown[0]["content"]["data"]
    assert GEAR_BLOCK in data["text/plain"]
    assert "\x1b[" not in data["text/plain"]
    assert "<" in data["text/html"] and "widgets/__init__.py" in data["text/html"]

    again = execute(kernel, "%errdex")
    (shown_again,) = [m for m in again if m["msg_type"] == "display_data"]
    assert shown_again["content"]["data"]["text/html"] == data["text/html"]
    assert not [m for m in again if m["msg_type"] == "error"]


def test_kernel_error_without_a_match_adds_nothing(kernel: Any) -> None:
    messages = execute(kernel, "%load_ext errdex\n{}['missing']")
    kinds = [m["msg_type"] for m in messages]
    assert "error" in kinds
    assert "display_data" not in kinds


def test_errdex_magic_says_why_there_is_no_block(catalogue: tuple[Path, Path]) -> None:
    widgets, db = catalogue
    lines = ["%load_ext errdex", "{}['missing']", "%errdex"]
    assert f"errdex: nothing in {db} matches KeyError: 'missing'" in ipython(lines, widgets, db)
    missing = db.with_name("nowhere.db")
    assert f"errdex: no catalogue at {missing}" in ipython(lines, widgets, missing)


def test_a_custom_handler_already_there_keeps_its_exceptions(
    catalogue: tuple[Path, Path],
) -> None:
    widgets, db = catalogue
    own = (
        "get_ipython().set_custom_exc((ValueError,), "
        "lambda shell, etype, value, tb, tb_offset=None: print('own handler:', value))"
    )
    lines = [own, "%load_ext errdex", "import widgets", "widgets.gear(1)"]
    out = ipython([*lines, "%unload_ext errdex", "widgets.gear(2)", "{}['x']"], widgets, db)
    loaded, unloaded = out.split("In [6]:", 1)
    assert "own handler: a gear needs at least 3 teeth, got 1" in loaded
    assert "Traceback" not in loaded  # the handler that was there decides what is shown
    assert loaded.index("own handler:") < loaded.index(GEAR_BLOCK)
    assert "own handler: a gear needs at least 3 teeth, got 2" in unloaded
    assert GEAR_BLOCK not in unloaded and "KeyError" in unloaded
