"""Errors raised by helpers whose class and/or message their callers pass.

    PYTHONPATH=$PWD/src .venv/bin/python bench/helper_raises.py [--baseline /work/main/src]

``_pydecimal``'s ``Context._raise_error(condition, explanation)`` raises
``_condition_map.get(condition, condition)(explanation)``: the line names neither class
nor message, each of its hundred calls does. Beside it, the other helper forms of the
standard library: runpy's ``_get_module_details(…, error=ImportError)``, statistics'
``_fail_neg(values, errmsg)``, re's ``raise source.error(…)``, ipaddress's
``_report_invalid_netmask(netmask_str)``.

Each case below is a line of user code that provokes the error for real (run under this
interpreter). Its traceback is matched whole and as ``Class: message`` against a
catalogue of the standard library's files involved (scanned by the errdex on the path), once with this checkout's code and once with the
``--baseline`` checkout's, in the same run. A first answer is right when it names the
pasted class and sits at the helper's raise line (the traceback's innermost frame) or at
the line that called the helper (the next frame out): a record at either place that says
the class and message is the raise. Printed per case and in total: top-1 of each, first
answers wrong at confidence >= 0.9, and how many right answers' ``messagePattern``
fullmatches the message the error really printed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve()
SRC = HERE.parent.parent / "src"
D = "import _pydecimal as D\n"
#: (name, code): each raises once, uncaught.
CASES: list[tuple[str, str]] = [
    ("decimal-literal", D + "D.Decimal('abc')"),
    ("decimal-sqrt", D + "D.Decimal(-4).sqrt()"),
    ("decimal-div0", D + "D.Decimal(1) / D.Decimal(0)"),
    ("decimal-0div0", D + "D.Decimal(0) / D.Decimal(0)"),
    ("decimal-inf-mul", D + "D.Decimal('Inf') * 0"),
    ("decimal-ln", D + "D.Decimal(-1).ln()"),
    ("decimal-log10", D + "D.Decimal(-1).log10()"),
    ("decimal-0pow0", D + "D.Decimal(0) ** 0"),
    ("decimal-negpow", D + "D.Decimal(-2) ** D.Decimal('0.5')"),
    ("decimal-overflow", D + "D.Decimal('9e999999') * 10"),
    (
        "decimal-quantize",
        D + "D.Decimal(123456).quantize(D.Decimal('1e-30'), context=D.Context(prec=5))",
    ),
    ("decimal-inf-mod", D + "D.Decimal('Inf') % 1"),
    ("decimal-mod0", D + "D.Decimal(5) % 0"),
    ("decimal-inf-sub", D + "D.Decimal('Inf') - D.Decimal('Inf')"),
    (
        "decimal-float",
        D + "D.setcontext(D.Context(traps=[D.FloatOperation]))\nD.Decimal(1.5)",
    ),
    ("decimal-divmod0", D + "divmod(D.Decimal(0), D.Decimal(0))"),
    ("runpy-missing", "import runpy\nrunpy.run_module('no_such_module_xyz')"),
    ("runpy-relative", "import runpy\nrunpy.run_module('.rel')"),
    ("statistics-neg", "import statistics\nstatistics.harmonic_mean([1, -1])"),
    ("re-paren", "import re\nre.compile('(a')"),
    ("re-escape", "import re\nre.compile('a\\\\')"),
    ("ipaddress-netmask", "import ipaddress\nipaddress.ip_network('1.2.3.0/33')"),
]
STDLIB_FILES = [
    "_pydecimal.py",
    "runpy.py",
    "statistics.py",
    "re/_parser.py",
    "re/__init__.py",
    "ipaddress.py",
]


def run_case(code: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd="/"
    )
    return done.stderr


def truth(tb: str) -> set[tuple[str, int]]:
    """(file name, line) of the innermost frame and of the one before it."""
    from errdex.match.api import errors_in

    frames = errors_in(tb)[-1].frames
    return {(_name(f.path), f.line) for f in frames[-2:] if f.line is not None}


def _name(path: str) -> str:
    """A frame's file name (``<frozen runpy>``: ``runpy.py``)."""
    if path.startswith("<frozen "):
        return path.removeprefix("<frozen ").removesuffix(">").rpartition(".")[2] + ".py"
    return Path(path).name


def child(db: Path) -> None:
    """Scan into ``db`` and match every case; one JSON line per case and paste kind."""
    from errdex.match.api import answers, errors_in
    from errdex.store import SqliteStore

    py = sys.executable
    for cmd in (["--stdlib", *(a for f in STDLIB_FILES for a in ("--include", f))],):
        done = subprocess.run(
            [py, "-m", "errdex", "scan", *cmd, "--db", str(db)], capture_output=True, text=True
        )
        if done.returncode:
            sys.exit(f"scan failed: {done.stderr[-2000:]}")
    with SqliteStore(db) as store:
        for name, code in CASES:
            tb = run_case(code)
            final = errors_in(tb)[-1]
            cls = (final.error_class or "").rpartition(".")[2]
            sites = truth(tb)
            for kind, paste in (("tb", tb), ("msg", f"{final.error_class}: {final.message}")):
                found = answers(paste, store)[-1]
                best = found.candidates[0] if found.candidates else None
                right = (
                    best is not None
                    and best.errorClass == cls
                    and (Path(best.filePath).name, best.lineNumber) in sites
                )
                envelope = store.get(best.id) if right and best is not None else None
                record = (envelope or {}).get("record") or {}
                fits = bool(record) and re.fullmatch(record["messagePattern"], final.message)
                print(
                    json.dumps(
                        {
                            "case": name,
                            "kind": kind,
                            "right": right,
                            "fits": bool(fits),
                            "conf": best.confidence if best else 0.0,
                            "best": f"{best.filePath}:{best.lineNumber} {best.errorClass}"
                            if best
                            else "-",
                            "error": f"{cls}: {final.message}"[:70],
                        }
                    )
                )


def measure(src: Path, tmp: Path) -> dict[tuple[str, str], dict[str, object]]:
    env = {**os.environ, "PYTHONPATH": str(src)}
    db = tmp / f"{abs(hash(str(src)))}.db"
    done = subprocess.run(
        [sys.executable, str(HERE), "--child", str(db)], capture_output=True, text=True, env=env
    )
    if done.returncode:
        sys.exit(f"child failed ({src}): {done.stderr[-3000:]}")
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return {(r["case"], r["kind"]): r for r in rows}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--baseline", type=Path, default=Path("/work/main/src"))
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    with tempfile.TemporaryDirectory() as tmp:
        base = measure(args.baseline, Path(tmp))
        mine = measure(SRC, Path(tmp))
    # right base, right mine, wrong90 base, wrong90 mine, right and the pattern fits base, mine
    totals = {k: [0, 0, 0, 0, 0, 0] for k in ("tb", "msg")}
    for name, _ in CASES:
        for kind in ("tb", "msg"):
            b, m = base[(name, kind)], mine[(name, kind)]
            t = totals[kind]
            t[0] += bool(b["right"])
            t[1] += bool(m["right"])
            t[2] += (not b["right"]) and float(b["conf"]) >= 0.9  # type: ignore[arg-type]
            t[3] += (not m["right"]) and float(m["conf"]) >= 0.9  # type: ignore[arg-type]
            t[4] += bool(b["fits"])
            t[5] += bool(m["fits"])
            mark = lambda r: "ok" if r["right"] else "--"  # noqa: E731
            print(
                f"[{kind:3}] {name:18} baseline {mark(b)} {b['best']:<38} "
                f"errdex {mark(m)} {m['best']:<38} | {m['error']}"
            )
    n = len(CASES)
    for kind, label in (("tb", "traceback"), ("msg", "message-only")):
        rb, rm, wb, wm, fb, fm = totals[kind]
        ratio = f"{rm / rb:.2f}x" if rb else "n/a"
        print(
            f"{label:13} top-1: baseline {rb}/{n}, errdex {rm}/{n} (ratio {ratio}); "
            f"wrong at >= 0.9: baseline {wb}, errdex {wm}; right with a messagePattern "
            f"that fullmatches str(exc): baseline {fb}, errdex {fm}"
        )


if __name__ == "__main__":
    main()
