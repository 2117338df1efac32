"""Real errors from a unittest suite: CPython's own test suite, run module by module.

    python3 bench/realerrors/run_unittest.py --python VENV/bin/python --every 10 \
        --out /work/heldout/cpython/cpython-test-3.11.7.jsonl

Each module runs in its own process (``unittest_child.py``, a timeout each) under
``--python``, an interpreter whose standard library is the one errdex catalogues as
``python/cpython`` (a virtualenv of it with pytest installed: the plugin imports pytest).
Every exception or warning a test expected with ``assertRaises``/``assertRaisesRegex``/
``assertWarns`` (context or callable form) becomes a row in the format of
``run_stdlib.py``'s: the site is the innermost frame inside the standard library and
outside its test directories (``Lib/test``, ``Lib/unittest/test``, …;
``frames.test_dirs``); ``is_python_raise`` is false when that line is no ``raise``/``warn``
(C code underneath, as a callable-form ``assertRaises(TypeError, int, …)`` whose innermost
stdlib frame is ``unittest/case.py``) and when the innermost frame of all is test code or
other code outside the stdlib, which the stdlib only passed on (``site_kind:
from_test_code``).

The modules: ``--modules`` names them, else regrtest's own list (``findtests()`` of the
interpreter under test, sorted, the split packages such as ``test_asyncio`` one entry per
file) taken every ``--every``-th from ``--offset``. Resources as a default ``python -m
test`` run: none (``REALERRORS_RESOURCES=""``), so tests needing network, GUI, CPU-heavy
runs or large files skip themselves. Repeats of one test, site and message are one row.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from collect import distinct
from frames import describe_line, is_under, pick_site, test_dirs
from run_stdlib import site_fields

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
BASE_PLUGIN = ROOT / "src" / "errdex" / "analyze" / "harvest" / "plugin.py"

_PROBE = r"""
import json, sys, sysconfig
from test.libregrtest.findtests import findtests
print(json.dumps({"stdlib": sysconfig.get_paths()["stdlib"], "version": sys.version.split()[0],
                  "tests": findtests()}))
"""


def probe(python: str) -> dict[str, Any]:
    """The stdlib directory, version and regrtest's test list of ``python``."""
    done = subprocess.run([python, "-c", _PROBE], check=True, text=True, capture_output=True)
    found: dict[str, Any] = json.loads(done.stdout)
    return found


def choose(tests: list[str], every: int, offset: int) -> list[str]:
    """Every ``every``-th test module from ``offset``: a sample fixed before any result."""
    return sorted(tests)[offset::every]


def _module_name(test: str) -> str:
    return test if test.startswith("test.") else f"test.{test}"


def run_module(
    python: str, module: str, plugin_dir: Path, captures: Path, log: Path, timeout: int
) -> str:
    """Run one module; its captures are appended to ``captures``. The outcome, one word."""
    env = {
        **os.environ,
        "PYTHONPATH": str(plugin_dir),
        "REALERRORS_RESOURCES": "",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    env.pop("PYTHONSTARTUP", None)
    with tempfile.TemporaryDirectory() as cwd, log.open("w") as out:
        try:
            done = subprocess.run(
                [python, str(plugin_dir / "unittest_child.py"), str(captures), module],
                cwd=cwd,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            return "timeout"
    return "ok" if done.returncode == 0 else f"exit {done.returncode}"


def record(
    capture: dict[str, Any], stdlib: str, excluded: list[str], version: str
) -> dict[str, Any] | None:
    """One row from one capture, or None when no frame lies in the stdlib outside its tests."""
    frames = [(str(f[0]), int(f[1]), str(f[2])) for f in capture["frames"]]
    site = pick_site(frames, [stdlib], stdlib, excluded)
    if site is None:
        return None
    described = describe_line(site[3], site[1])
    innermost = os.path.realpath(next(f[0] for f in frames if os.path.isabs(f[0])))
    if is_under(innermost, excluded) or not is_under(innermost, [os.path.realpath(stdlib)]):
        # raised by the tests' own code (or other code outside the stdlib), passed on
        described.update(is_python_raise=False, site_kind="from_test_code")
    return {
        **site_fields(site, version, described),
        "kind": capture["kind"],
        "exc_type": capture["errorClass"],
        "message": capture["message"],
        "message_truncated": capture["truncated"],
        "traceback_text": capture.get("traceback_text", ""),
        "test_id": capture["test"],
        "capture_source": capture["via"],
        "expected": capture["expected"],
        "expected_match": capture["match"],
        "python_version": version,
    }


def rows_of(captures: Path, stdlib: str, version: str) -> tuple[list[dict[str, Any]], int]:
    """The rows of a captures file and how many captures had no site outside the tests."""
    excluded = [os.path.realpath(d) for d in test_dirs(stdlib)]
    rows: list[dict[str, Any]] = []
    outside = 0
    for line in captures.read_text(encoding="utf-8").splitlines():
        capture = json.loads(line)
        if capture.get("type") != "capture":
            continue
        row = record(capture, stdlib, excluded, version)
        if row is None:
            outside += 1
        else:
            rows.append(row)
    return distinct(rows), outside


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", required=True, help="interpreter under test, with pytest")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--modules", nargs="*", help="test modules (default: the sample)")
    parser.add_argument("--every", type=int, default=10)
    parser.add_argument("--offset", type=int, default=0)
    parser.add_argument("--timeout", type=int, default=600, help="seconds per module")
    parser.add_argument("--reuse", action="store_true", help="re-derive rows, no rerun")
    args = parser.parse_args()
    found = probe(args.python)
    work = args.out.with_suffix(".work")
    captures = work / "captures.jsonl"
    if not args.reuse:
        modules = args.modules or choose(found["tests"], args.every, args.offset)
        if work.exists():
            shutil.rmtree(work)
        (work / "logs").mkdir(parents=True)
        for name in ("plugin.py", "unittest_child.py"):
            target = "realerrors_plugin.py" if name == "plugin.py" else name
            shutil.copy2(HERE / name, work / target)
        shutil.copy2(BASE_PLUGIN, work / "errdex_harvest_base.py")
        outcomes = {}
        for test in modules:
            module = _module_name(test)
            start = time.monotonic()
            outcome = run_module(
                args.python, module, work, captures, work / "logs" / f"{module}.log", args.timeout
            )
            outcomes[module] = outcome
            print(f"{module}: {outcome} ({time.monotonic() - start:.0f}s)", flush=True)
        (work / "modules.json").write_text(json.dumps(outcomes, indent=1) + "\n")
    rows, outside = rows_of(captures, found["stdlib"], found["version"])
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=True) + "\n")
    raises = sum(bool(r["is_python_raise"]) and r["kind"] == "exception" for r in rows)
    print(
        f"wrote {len(rows)} rows ({raises} exceptions at Python raise statements; "
        f"{outside} captures with no stdlib site outside the tests) to {args.out}"
    )


if __name__ == "__main__":
    main()
