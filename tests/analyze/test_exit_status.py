"""A ``SystemExit`` with a message exits with status 1: an error exit, not the program's
normal end (paired blind review, stop 38: zipapp's "Nothing to fix if the program is meant
to end here" judged false)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from errdex.analyze.exit_status import ExitStatus, status_of

from .stdlib_items import one_file_items

CLI = """\
def main(argv):
    if not argv:
        raise SystemExit("Cannot change the main function when copying")
    if argv[0] == "-h":
        raise SystemExit
    if argv[0] == "-x":
        raise SystemExit(3)
    try:
        run(argv)
    except KeyboardInterrupt:
        if argv:
            raise SystemExit("interrupted")
    return 0


def run(argv):
    return argv
"""


def _exc(source: str) -> ast.expr | None:
    node = ast.parse(source).body[0]
    assert isinstance(node, ast.Raise)
    return node.exc


def _exits(where: Path, module: str, argv: str) -> int:
    """The status the process gets from ``module.main(argv)``."""
    done = subprocess.run(
        [sys.executable, "-c", f"from {module} import main; main({argv})"],
        cwd=where,
        capture_output=True,
        check=False,
    )
    return done.returncode


def test_the_status_follows_the_argument() -> None:
    assert status_of(_exc("raise SystemExit('usage')")) == ExitStatus(1, message=True)
    assert status_of(_exc("raise SystemExit(f'bad {x}')")) == ExitStatus(1, message=True)
    assert status_of(_exc("raise SystemExit(2)")) == ExitStatus(2)
    assert status_of(_exc("raise SystemExit")) == ExitStatus(0)
    assert status_of(_exc("raise SystemExit(None)")) == ExitStatus(0)
    assert status_of(_exc("raise SystemExit(code)")) is None  # not known


def test_a_message_exit_is_an_error_exit(tmp_path: Path) -> None:
    items = one_file_items(tmp_path, "cli.py", CLI)
    by_line = {r["lineNumber"]: r for r, _ in items}
    record = by_line[3]
    assert "exit status 1, an error exit" in record["documentation"]
    solution = record["solutions"][0]
    assert solution.startswith("This is an error exit with status 1")
    assert "Cannot change the main function when copying" in solution
    assert not solution.startswith("Nothing to fix")
    assert "exit status 3" in by_line[7]["documentation"]
    assert "its message" not in by_line[7]["solutions"][0]  # an int is no message
    # in a handler (under a condition there too) it reports the error caught, no
    # argument to fix
    interrupted = by_line[12]["solutions"][0]
    assert "it reports the `KeyboardInterrupt` caught just before" in interrupted
    assert "fix the arguments" not in interrupted
    # no argument: the program's normal end, said as before
    assert by_line[5]["solutions"][0].startswith("Nothing to fix if the program is meant")
    # what it says, run
    for argv, status in (("[]", 1), ("['-x']", 3), ("['-h']", 0)):
        assert _exits(tmp_path, "cli", argv) == status


WRAPS = """\
def main(argv):
    if not argv:
        raise SystemExit(-1)
    if argv[0] == "x":
        raise SystemExit(256)
    raise SystemExit(2)
"""


def test_the_status_is_what_the_process_gets_on_posix(tmp_path: Path) -> None:
    # review rr6: c46 said "exit status -1" and called ``SystemExit(256)`` an error exit
    assert status_of(_exc("raise SystemExit(-1)")) == ExitStatus(255, argument=-1)
    assert status_of(_exc("raise SystemExit(256)")) == ExitStatus(0, argument=256)
    assert status_of(_exc("raise SystemExit(258)")) == ExitStatus(2, argument=258)
    items = one_file_items(tmp_path, "wraps.py", WRAPS)
    by_line = {r["lineNumber"]: r for r, _ in items}
    minus = by_line[3]
    assert "exit status 255 on POSIX" in minus["documentation"]
    assert "-1" not in minus["solutions"][0].partition(":")[0]
    assert minus["solutions"][0].startswith("This is an error exit with status 255 on POSIX")
    assert "`.code == -1`" in minus["solutions"][0]  # what the exception holds
    wrapped = by_line[5]
    assert "error exit" not in wrapped["documentation"] + wrapped["solutions"][0]
    assert wrapped["solutions"][0].startswith("Nothing to fix if the program is meant")
    assert "exit status 0 on POSIX" in wrapped["documentation"]
    assert "exit status 2" in by_line[6]["documentation"]
    # what it says, run (POSIX)
    for argv, status in (("[]", 255), ("['x']", 0), ("['y']", 2)):
        assert _exits(tmp_path, "wraps", argv) == status
