"""Compiled errors nobody tuned the matcher on: lxml (Cython), python-rapidjson (C++ on
the C API), contourpy (C++ through pybind11), multidict and wrapt (C, each with a pure
Python twin of its compiled module).

    PYTHONPATH=$PWD/src .venv/bin/python bench/untuned_native.py

The scripts under ``realerrors/untuned_scripts/`` were written, and the line each raises
at was written into its header (``# raises: FILE:LINE``: the innermost ``.pyx``/``.pxi``
frame for lxml, the C/C++ call read in the sdist for the others), before anyone looked at
how errdex matches them. Each sdist is scanned in this process with the errdex on
``PYTHONPATH`` (tests and benchmarks left out), each script is run against the same
versions' wheels, and its traceback and its last line (``Class: message``) are matched:
top-1, the share whose true site is in the answer's group, the expected top-1 were that
group drawn in a random order, the message ceiling (``_ceiling.py``) and wrong first
answers at confidence >= 0.9. Run it with main's ``src`` on ``PYTHONPATH`` for the
baseline, in the same session.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

from _ceiling import ceiling as message_ceiling
from errdex.match.api import answers, errors_in, index_for
from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.source.sdist import fetch_sdist, unpacked_once
from errdex.store import SqliteStore

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "bench" / "realerrors" / "untuned_scripts"
CACHE = Path(os.environ.get("ERRDEX_TEST_CACHE", Path.home() / ".cache" / "errdex-test"))
#: (distribution, version, repository name in the catalogue, script prefix, language)
PACKAGES = [
    ("lxml", "5.3.0", "lxml/lxml", "lxml", "Cython"),
    ("python-rapidjson", "1.25", "python-rapidjson/python-rapidjson", "rapidjson", "C/C++"),
    ("contourpy", "1.3.3", "contourpy/contourpy", "contourpy", "C/C++"),
    ("multidict", "7.2.1", "aio-libs/multidict", "multidict", "C/C++"),
    ("wrapt", "2.5.2", "GrahamDumpleton/wrapt", "wrapt", "C/C++"),
]
EXCLUDE = ["**/tests/**", "**/test/**", "**/benchmarks/**", "**/doc/**", "**/docs/**"]


def wheels() -> Path:
    """The same versions' wheels (and numpy for contourpy) in the test cache."""
    target = CACHE / "untuned-libs"
    wanted = [f"{name}=={version}" for name, version, *_ in PACKAGES]
    if not all(
        any(target.glob(f"{w.split('==')[0].replace('-', '_')}-*.dist-info")) for w in wanted
    ):
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--disable-pip-version-check", "--no-deps",
             "--only-binary", ":all:", "--target", str(target), *wanted, "numpy"],
            check=True, capture_output=True, text=True, timeout=900,
        )  # fmt: skip
    return target


def catalogue(store: SqliteStore) -> None:
    for name, version, repo, *_ in PACKAGES:
        root = unpacked_once(fetch_sdist(name, version, cache_dir=CACHE / "sdist"))
        checkout = open_source(str(root), repo=repo, sha="0" * 40)
        result = scan_checkout(checkout, repo=repo, exclude=EXCLUDE)
        store_scan(store, checkout, repo, result, "2026-12-06T00:00:00.000Z")


def scripts() -> list[tuple[str, Path, str, tuple[str, int]]]:
    """(language, script, code, (file, line) it raises at) of every script."""
    language = {prefix: lang for *_, prefix, lang in PACKAGES}
    out = []
    for path in sorted(SCRIPTS.glob("*.py")):
        code = path.read_text()
        header = next(ln for ln in code.splitlines() if ln.startswith("# raises: "))
        file, _, line = header.removeprefix("# raises: ").strip().rpartition(":")
        out.append((language[path.stem.split("_")[0]], path, code, (file, int(line))))
    return out


def main() -> None:
    libs = wheels()
    rows: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="errdex-untuned-") as tmp:
        os.environ["XDG_CACHE_HOME"] = tmp
        with SqliteStore(Path(tmp) / "errdex.db") as store:
            catalogue(store)
            index = index_for(store)
            for language, path, _, truth in scripts():
                name = path.stem
                row = rows.setdefault(language, {"n": 0, "ceiling": 0.0, "wrong90": 0})
                row["n"] += 1
                done = subprocess.run(  # a file, as users run one: frames show its lines
                    [sys.executable, str(path)],
                    capture_output=True,
                    text=True,
                    cwd=tmp,
                    env={**os.environ, "PYTHONPATH": str(libs)},
                )
                final = errors_in(done.stderr)[-1]
                cls, msg = final.error_class or "", final.message or ""
                last = f"{cls}: {msg}" if msg else cls
                row["ceiling"] += message_ceiling(index, cls, msg, truth)
                for mode, paste in (("traceback", done.stderr), ("message", last)):
                    answer = answers(paste, store)[-1]
                    best = answer.candidates[0] if answer.candidates else None
                    # the sites the answer cannot tell apart (a site's records counted once)
                    group = {
                        (c.filePath, c.lineNumber) for c in answer.group or answer.candidates[:1]
                    }
                    hit = best is not None and (best.filePath, best.lineNumber) == truth
                    in_group = truth in group
                    row[mode] = row.get(mode, 0) + hit
                    row[f"{mode} group"] = row.get(f"{mode} group", 0) + in_group
                    row[f"{mode} expected"] = row.get(f"{mode} expected", 0.0) + (
                        1 / len(group) if in_group else 0.0
                    )
                    wrong = best is not None and not hit and best.confidence >= 0.9
                    row["wrong90"] += wrong
                    if not hit:
                        got = (
                            f"{best.filePath}:{best.lineNumber} at {best.confidence:.2f}"
                            if best
                            else "nothing"
                        )
                        tie = f" (in the group of {len(group)})" if in_group else ""
                        flag = "WRONG >= 0.9" if wrong else "miss"
                        print(
                            f"  {flag} ({mode}) {name}: {last[:60]!r} -> {got}, want {truth[0]}:{truth[1]}{tie}"
                        )
    for language, row in rows.items():
        n = int(row["n"])
        print(f"{language}: {n} errors")
        for mode in ("traceback", "message"):
            print(
                f"  top-1 from the {mode + ':':10} {row.get(mode, 0):.0f}/{n} = {row.get(mode, 0) / n:.0%}"
                f" (true site in the answer's group: {row.get(mode + ' group', 0):.0f}/{n}; expected"
                f" top-1, the group in a random order: {row.get(mode + ' expected', 0.0) / n:.1%})"
            )
        print(f"  message ceiling: {row['ceiling']:.2f}/{n} = {row['ceiling'] / n:.1%}")
        print(f"  wrong answers with confidence >= 0.9: {row['wrong90']:.0f}")


if __name__ == "__main__":
    main()
