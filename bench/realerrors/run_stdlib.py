"""The standard library as users hit it: run each script of ``stdlib_scripts/``, keep its traceback.

    python3 bench/realerrors/run_stdlib.py [--python python3] [--out bench/data/stdlib-3.11.jsonl]

Each script misuses a stdlib API the way people do. It runs under the installed
interpreter exactly as a user would run it (``python script.py``), so ``traceback_text`` is
stderr as printed. The true site comes from the live traceback: a ``sitecustomize`` put on
``PYTHONPATH`` wraps ``sys.excepthook`` to write the final exception's frames to a file and
then prints as the default hook does, so the printed text is unchanged. The site is the
innermost frame inside the stdlib directory (``raise_file`` relative to it, ``argparse.py``;
``catalogue_file`` the same path as errdex catalogues CPython, ``Lib/argparse.py``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from frames import describe_line, pick_site

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]

SITECUSTOMIZE = r"""
import json, os, sys, sysconfig
def _hook(exc_type, value, tb, _default=sys.__excepthook__):
    try:
        frames = []
        while tb is not None:
            code = tb.tb_frame.f_code
            frames.append((os.path.abspath(code.co_filename), tb.tb_lineno, code.co_name))
            tb = tb.tb_next
        frames.reverse()
        module = exc_type.__module__
        name = exc_type.__qualname__ if module in ("builtins", "__main__") else f"{module}.{exc_type.__qualname__}"
        with open(os.environ["REALERRORS_OUT"], "w") as f:
            json.dump({"frames": frames, "exc_type": name, "message": str(value),
                       "stdlib": sysconfig.get_paths()["stdlib"], "version": sys.version.split()[0]}, f)
    except Exception:
        pass
    _default(exc_type, value, tb)
sys.excepthook = _hook
"""


def run_script(python: str, script: Path, hook_dir: Path) -> dict[str, Any] | None:
    """One benchmark line for ``script``, or None when it raised nothing in the stdlib."""
    out = hook_dir / "capture.json"
    out.unlink(missing_ok=True)
    env = {**os.environ, "PYTHONPATH": str(hook_dir), "REALERRORS_OUT": str(out)}
    env.pop("PYTHONSTARTUP", None)
    done = subprocess.run(
        [python, script.name],
        cwd=script.parent,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    if done.returncode == 0 or not out.exists():
        print(f"{script.name}: raised nothing (exit {done.returncode})")
        return None
    capture = json.loads(out.read_text(encoding="utf-8"))
    stdlib = capture["stdlib"]
    site = pick_site([tuple(f) for f in capture["frames"]], [stdlib], stdlib)
    if site is None:
        print(f"{script.name}: no stdlib frame ({capture['exc_type']})")
        return None
    return {
        **site_fields(site, capture["version"], describe_line(site[3], site[1])),
        "kind": "exception",
        "exc_type": capture["exc_type"],
        "message": capture["message"],
        "message_truncated": False,
        "traceback_text": done.stderr,
        "test_id": f"stdlib_scripts/{script.name}",
        "capture_source": "script",
        "expected": None,
        "expected_match": None,
        "python_version": capture["version"],
    }


def site_fields(
    site: tuple[str, int, str, str], version: str, described: dict[str, object]
) -> dict[str, Any]:
    """A stdlib row's site: ``pick_site``'s answer, the line as ``describe_line`` read it, and
    the path errdex catalogues CPython's file under (``Lib/argparse.py``)."""
    rel, line, function, absolute = site
    return {
        "package": "python",
        "package_version": version,
        "raise_file": rel,
        "catalogue_file": f"Lib/{rel}",
        "raise_line": line,
        "raise_function": function,
        **described,
        "frame_filename": absolute,
        "source_from": "installed",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", default="python3")
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "data" / "stdlib-3.11.jsonl")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        hook_dir = Path(tmp)
        (hook_dir / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
        for script in sorted((HERE / "stdlib_scripts").glob("*.py")):
            row = run_script(args.python, script, hook_dir)
            if row is not None:
                rows.append(row)
    with args.out.open("w", encoding="utf-8") as handle:
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=True) + "\n")
    raises = sum(bool(r["is_python_raise"]) for r in rows)
    print(f"wrote {len(rows)} errors ({raises} at Python raise statements) to {args.out}")


if __name__ == "__main__":
    main()
