"""Errors made in one place and raised in another: jsonschema's ``yield ValidationError(…)``.

    PYTHONPATH=$PWD/src .venv/bin/python bench/yield_sites.py [--keep DIR]

(``--keep bench/data/yield-jsonschema-4.26.0`` wrote the stderr kept there, jsonschema
4.26.0 under CPython 3.11.7.)

Every message a jsonschema user sees is made by a ``yield ValidationError(f"…")`` in a
keyword function (``_keywords.py``) and raised by a relay, ``raise error`` in
``validators.validate`` or ``Validator.validate``, whose line is the traceback's innermost.
Each script of ``realerrors/yield_scripts/`` misuses jsonschema once, the way people do;
its second line names where the error was made (``# made at: FILE:LINE``, found at run
time by wrapping ``_Error.__init__``: the first frame outside ``exceptions.py`` that built
an exception with the final message; ``A or B`` where the final error is a ``SchemaError``
copied from it by ``create_from`` and raised at B, either counts).

The catalogue is the installed jsonschema scanned by the errdex on ``PYTHONPATH`` (run it
with another checkout's ``src`` for the baseline). Each script runs under this interpreter
(which must have jsonschema) as a user runs it; its stderr is matched as a whole
traceback and as the last error alone (``Class: message``, the message's lines included):
top-1, the true site anywhere in the answer's group, and wrong first answers at
confidence >= 0.9.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from errdex.match.api import answers, errors_in
from errdex.match.rank import Candidate
from errdex.store import SqliteStore

SCRIPTS = Path(__file__).resolve().parent / "realerrors" / "yield_scripts"


def made_at(script: Path) -> list[tuple[str, int]]:
    """The (file, line) pairs the script's header accepts."""
    header = next(ln for ln in script.read_text().splitlines() if ln.startswith("# made at: "))
    out = []
    for place in header.removeprefix("# made at: ").split(" or "):
        path, _, line = place.strip().rpartition(":")
        out.append((path, int(line)))
    return out


def _is(candidate: Candidate | None, sites: list[tuple[str, int]]) -> bool:
    return candidate is not None and (candidate.filePath, candidate.lineNumber) in sites


def scan(db: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "errdex", "scan", "--package", "jsonschema", "--db", str(db)],
        capture_output=True,
        text=True,
    )
    if done.returncode:
        sys.exit(f"scan failed:\n{done.stderr}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--keep", type=Path, help="write each script's stderr here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "errdex.db"
        scan(db)
        counts = dict.fromkeys(("n", "tb", "msg", "tb_group", "msg_group", "wrong90"), 0)
        with SqliteStore(db) as store:
            for script in sorted(SCRIPTS.glob("*.py")):
                sites = made_at(script)
                done = subprocess.run(
                    [sys.executable, script.name], capture_output=True, text=True, cwd=SCRIPTS
                )
                tb = done.stderr
                if args.keep:
                    args.keep.mkdir(parents=True, exist_ok=True)
                    (args.keep / f"{script.stem}.txt").write_text(tb)
                final = errors_in(tb)[-1]
                last = f"{final.error_class}: {final.message}"
                counts["n"] += 1
                for key, paste in (("tb", tb), ("msg", last)):
                    answer = answers(paste, store)[-1]
                    best = answer.candidates[0] if answer.candidates else None
                    group = answer.group or ([best] if best else [])
                    right = _is(best, sites)
                    counts[key] += right
                    counts[f"{key}_group"] += any(_is(c, sites) for c in group)
                    wrong = best is not None and not right and best.confidence >= 0.9
                    counts["wrong90"] += wrong
                    shown = (
                        f"{best.filePath}:{best.lineNumber} {best.confidence:.2f}" if best else "-"
                    )
                    print(
                        f"  [{key:3}] {'ok' if right else '--'}{' WRONG>=0.9' if wrong else ''}"
                        f" {script.stem}: {last.splitlines()[0][:60]!r} -> {shown}"
                    )
    n = counts["n"]
    print(
        f"yield sites: {n} provoked jsonschema errors: traceback top-1 {counts['tb']}/{n}, "
        f"message top-1 {counts['msg']}/{n} (true site in the answer's group: traceback "
        f"{counts['tb_group']}/{n}, message {counts['msg_group']}/{n}); "
        f"wrong first answers at >= 0.9: {counts['wrong90']}"
    )


if __name__ == "__main__":
    main()
