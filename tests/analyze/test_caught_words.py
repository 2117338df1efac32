"""A caught exception is said with what its class's docstring says it means (paired blind
review, stop 35: "Triggered after `DistutilsExecError` was caught", misleading twice: it
did not say that the compiler command failed)."""

from __future__ import annotations

from pathlib import Path

from errdex.scan import scan_checkout
from errdex.source import open_source

ERRORS = '''\
class ExecError(Exception):
    """Any problems executing an external program (such as the C compiler). More."""


class CompileError(Exception):
    """Failure to compile one or more C source files."""
'''

BUILD = """\
from pkg.errors import CompileError, ExecError


def spawn(cmd):
    raise ExecError(cmd)


def compile_all(sources, flags):
    try:
        spawn(["cc", *flags,
               *sources])
    except ExecError as msg:
        raise CompileError(msg)


def parse(text):
    try:
        return int(text)
    except ValueError:
        raise CompileError("not a number")
"""


def _records(root: Path) -> dict[str, tuple[dict, dict]]:
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "errors.py").write_text(ERRORS)
    (root / "pkg" / "build.py").write_text(BUILD)
    result = scan_checkout(open_source(str(root), repo="o/pkg"), repo="o/pkg")
    return {r["errorMessage"]: (r, e) for r, e in result.items}


def test_a_repository_class_caught_is_said_with_its_docstring(tmp_path: Path) -> None:
    records = _records(tmp_path)
    record, evidence = records["{msg}"]
    assert record["triggerScenarios"].startswith(
        "Triggered after `spawn(...)` raised `ExecError` (its docstring: “Any problems"
        " executing an external program (such as the C compiler)”)."
    )
    # what it quotes is evidence, and the field says it rests on it
    assert evidence["caughtDocs"] == {
        "ExecError": "Any problems executing an external program (such as the C compiler)."
    }
    assert "caughtDocs" in evidence["provenance"]["triggerScenarios"]["basis"]
    # a builtin's docstring says no more than its name
    record, evidence = records["not a number"]
    assert "its docstring" not in record["triggerScenarios"]
    assert "caughtDocs" not in evidence
