"""Accelerators blocked the way CPython's tests block them, checked in a real interpreter."""

from __future__ import annotations

import subprocess
import sys

from errdex.verify.accelerators import Accelerators
from errdex.verify.from_tests import Candidate

PROGRAM = "import json.decoder\nprint(json.decoder.scanstring is json.decoder.py_scanstring)"


def _cand(path: str, program: str = PROGRAM, blocked: tuple[str, ...] = ()) -> Candidate:
    return Candidate(program, f"{path}::test_a", path, 3, "assertRaises", False, blocked, ("json",))


def _run(program: str) -> str:
    # json imported first, as the fork server has imported it before the snippet runs
    done = subprocess.run(
        [sys.executable, "-I", "-c", "import json\n" + program],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout.strip()


def test_the_blocked_run_reaches_the_python_code_even_after_an_earlier_import() -> None:
    accelerators = Accelerators("python/cpython", [])
    cand = _cand("Lib/test/test_json/test_scanstring.py")
    assert accelerators.for_candidate(cand) == ["_json"]
    assert _run(cand.program) == "False"  # as it is: C's scanstring
    blocked = accelerators.blocked_run(cand, "_json")
    assert blocked.blocked == ("_json",)
    assert _run(blocked.program) == "True"
    record = {"record": {"filePath": "Lib/json/decoder.py"}, "evidence": {}}
    assert accelerators.reached_with(record, blocked) == "the C accelerator `_json` blocked"
    other = {"record": {"filePath": "Lib/tarfile.py"}, "evidence": {}}
    assert accelerators.reached_with(other, blocked) is None


def test_only_tests_about_the_module_are_run_again() -> None:
    accelerators = Accelerators("python/cpython", [])
    assert accelerators.for_candidate(_cand("Lib/test/test_tarfile.py")) == []
    done = _cand("Lib/test/test_json/test_scanstring.py", blocked=("_json",))
    assert accelerators.for_candidate(done) == []
    assert Accelerators("someone/else", []).for_candidate(_cand("tests/test_json.py")) == []


def test_the_analysts_shadowed_by_adds_an_accelerator() -> None:
    shadowed = {
        "record": {"filePath": "Lib/heapq.py"},
        "evidence": {"shadowedBy": {"module": "_heapq", "line": 580, "conditional": True}},
    }
    accelerators = Accelerators("someone/else", [shadowed])
    cand = Candidate("import heapq\nheapq.heappop([])", "t", "tests/test_heapq.py", 1, "k", False)
    assert accelerators.for_candidate(cand) == ["_heapq"]
    blocked = accelerators.blocked_run(cand, "_heapq")
    assert accelerators.reached_with(shadowed, blocked) == "the C accelerator `_heapq` blocked"


def test_a_module_imported_only_as_a_fallback_adds_none() -> None:
    """``_threading_local`` is imported by ``threading`` only where ``_thread`` fails
    (``evidence.shadowedBy.kind == "module"``): a test imports it by name, and blocking
    ``_thread`` would only break ``threading`` itself."""
    twin = {
        "record": {"filePath": "Lib/_threading_local.py"},
        "evidence": {
            "shadowedBy": {
                "module": "_thread",
                "line": 1609,
                "conditional": True,
                "kind": "module",
                "path": "Lib/threading.py",
            }
        },
    }
    accelerators = Accelerators("someone/else", [twin])
    cand = Candidate(
        "import _threading_local\n_threading_local.local(1)",
        "t",
        "Lib/test/test_threading_local.py",
        1,
        "k",
        False,
    )
    assert accelerators.for_candidate(cand) == []
