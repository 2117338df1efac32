"""Cython: recall against independent counts, speed beside Cython's bare parse, matching.

Recall: on real packages' sdists (fetched with pip into errdex's test cache), the raise,
message-bearing assert, warn and ``PyErr_*`` sites that two counts written apart from
the extractor find, against the sites the extractor catalogues:

* a *token count*: Python's tokenizer over each file, a ``raise`` keyword that starts a
  statement and is followed by a value, an ``assert`` with a top-level comma, a
  ``warn(``/``PyErr_SetString(``/… call that starts a statement;
* a *tree count*: a plain walk of Cython's own tree counting ``RaiseStatNode`` with a
  value, ``AssertStatNode`` with a message, and expression statements calling
  ``warn``/``PyErr_*``.

Speed: files and lines per second of ``extract`` beside ``parse_cython`` (Cython's
``parse_from_strings`` after the includes are blanked) of the same files in the same run,
in CPU time, file by file in turn, the best of 3 of each, with the cyclic GC paused as the
scan pauses it; and the ratio.

Matching: real errors provoked in msgpack's, frozenlist's and PyYAML's compiled
modules (scripts that misuse their APIs); top-1 from the traceback and from the last
line alone, and wrong answers with confidence ≥ 0.9. Beside each top-1, as
``bench/match_realerrors.py`` gives them: the expected top-1 were the answer's group
drawn in a random order (the sites the answer says it cannot tell apart), the share whose
true site is in that group, and, for the message alone, the ceiling (``bench/_ceiling.py``:
per error 1/(1 + k), k the other sites of the class whose template renders the message
with as many literal characters), so that a tie the text cannot break is counted as the
tie it is, not as a miss of the ranker.

Run: ``PYTHONPATH=src .venv/bin/python bench/cython_languages.py`` (first run fetches
sdists and wheels: a minute or two).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import subprocess
import sys
import tempfile
import time
import tokenize
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "extract"))
sys.path.insert(0, str(ROOT / "bench"))

from test_cython_real import PROVOKED, TEST_CACHE, install_libs, scan_sdists  # noqa: E402

from _ceiling import ceiling as message_ceiling  # noqa: E402
from errdex._gc import gc_paused  # noqa: E402
from errdex.extract.cython import extract_cython  # noqa: E402
from errdex.extract.cython.parse import parse_cython  # noqa: E402
from errdex.match.api import answers, errors_in, index_for  # noqa: E402
from errdex.source.sdist import fetch_sdist, unpacked_once  # noqa: E402
from errdex.store import SqliteStore  # noqa: E402

#: Real packages for recall and speed (name, version); lxml is the large one.
PACKAGES = [("lxml", "5.3.0"), ("msgpack", "1.1.0"), ("frozenlist", "1.5.0"), ("PyYAML", "6.0.4")]
SUFFIXES = (".pyx", ".pxi", ".pxd")
_CALLS = {
    "warn",
    "PyErr_SetString",
    "PyErr_Format",
    "PyErr_SetObject",
    "PyErr_WarnEx",
    "PyErr_WarnFormat",
}


def token_sites(text: str) -> set[int]:
    """Lines of sites by Python's tokenizer alone (no parser, no extractor code)."""
    found: set[int] = set()
    try:
        tokens = [
            t
            for t in tokenize.generate_tokens(io.StringIO(text).readline)
            if t.type not in (tokenize.COMMENT, tokenize.NL)
        ]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return found
    starts = {0} | {
        i + 1
        for i, t in enumerate(tokens)
        if t.type in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT)
        or (t.type == tokenize.OP and t.string in (":", ";") and _header_colon(tokens, i))
    }
    for i in sorted(starts):
        if i >= len(tokens):
            continue
        tok = tokens[i]
        nxt = tokens[i + 1] if i + 1 < len(tokens) else None
        if (
            tok.string == "raise"
            and nxt is not None
            and nxt.type not in (tokenize.NEWLINE, tokenize.ENDMARKER)
            and nxt.string != ";"
        ) or (tok.string == "assert" and _top_level_comma(tokens, i + 1)):
            found.add(tok.start[0])
        elif tok.type == tokenize.NAME:
            j = i
            while (
                j + 2 < len(tokens)
                and tokens[j + 1].string == "."
                and tokens[j + 2].type == tokenize.NAME
            ):
                j += 2
            if tokens[j].string in _CALLS and j + 1 < len(tokens) and tokens[j + 1].string == "(":
                found.add(tok.start[0])
    return found


def _header_colon(tokens: list[tokenize.TokenInfo], i: int) -> bool:
    """A ``:`` that ends a compound header at depth 0 (``if x: raise …``)."""
    depth = 0
    for t in reversed(tokens[:i]):
        if t.type in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
            break
        if t.string in ")]}":
            depth += 1
        elif t.string in "([{":
            depth -= 1
    return depth == 0 and tokens[i].string in (":", ";")


def _top_level_comma(tokens: list[tokenize.TokenInfo], i: int) -> bool:
    depth = 0
    for t in tokens[i:]:
        if t.type == tokenize.NEWLINE:
            return False
        if t.string in "([{":
            depth += 1
        elif t.string in ")]}":
            depth -= 1
        elif t.string == "," and depth == 0:
            return True
    return False


def tree_sites(tree: Any) -> set[int]:
    """Lines of sites by a plain walk of Cython's tree (every node, no scopes)."""
    found: set[int] = set()
    stack = [tree]
    while stack:
        node = stack.pop()
        kind = type(node).__name__
        if (kind == "RaiseStatNode" and node.exc_type is not None) or (
            kind == "AssertStatNode" and node.value is not None
        ):
            found.add(node.pos[1])
        elif kind == "ExprStatNode" and type(node.expr).__name__ in (
            "SimpleCallNode",
            "GeneralCallNode",
        ):
            func = node.expr.function
            name = getattr(func, "attribute", None) or getattr(func, "name", None)
            if str(name) in _CALLS:
                found.add(min(_lines(node)))
        for attr in node.child_attrs:
            value = getattr(node, attr, None)
            for child in value if isinstance(value, list) else [value]:
                if child is not None and hasattr(child, "child_attrs"):
                    stack.append(child)
    return found


def _lines(node: Any) -> list[int]:
    out = [node.pos[1]]
    for attr in node.child_attrs:
        value = getattr(node, attr, None)
        for child in value if isinstance(value, list) else [value]:
            if child is not None and hasattr(child, "child_attrs"):
                out.extend(_lines(child))
    return out


def sources() -> list[tuple[str, str, str]]:
    """(package, path, text) of every Cython file of the packages' sdists."""
    out = []
    for name, version in PACKAGES:
        archive = fetch_sdist(name, version, cache_dir=TEST_CACHE / "sdist")
        root = unpacked_once(archive)  # under the cache entry's lock, never deleted in place
        for path in sorted(root.rglob("*")):
            rel = path.relative_to(root).as_posix()
            if path.suffix in SUFFIXES and "/test" not in f"/{rel}":
                out.append((name, rel, path.read_text(encoding="utf-8", errors="replace")))
    return out


def recall_and_speed(files: list[tuple[str, str, str]]) -> None:
    print("recall (sites found by the reference count that errdex catalogues at that line)")
    totals: dict[str, list[int]] = {}
    misses: list[str] = []
    for package, rel, text in files:
        try:
            sites = {s.line for s in extract_cython(text, rel)}
            tree = tree_sites(parse_cython(text, pxd=rel.endswith(".pxd")))
        except Exception as exc:
            print(f"  {rel}: refused ({exc})")
            sites, tree = set(), set()
        tokens = token_sites(text)
        row = totals.setdefault(package, [0, 0, 0, 0, 0])
        row[0] += len(tokens)
        row[1] += len(tokens & sites)
        row[2] += len(tree)
        row[3] += len(tree & sites)
        row[4] += len(sites)
        misses += [f"{rel}:{n}" for n in sorted((tokens | tree) - sites)]
    print(f"  {'package':12} {'token':>6} {'found':>6} {'tree':>6} {'found':>6} {'errdex':>7}")
    for package, (t, tf, r, rf, e) in totals.items():
        print(f"  {package:12} {t:6} {tf:6} {r:6} {rf:6} {e:7}")
    t, tf, r, rf, e = (sum(v[k] for v in totals.values()) for k in range(5))
    print(
        f"  {'all':12} {t:6} {tf:6} {r:6} {rf:6} {e:7}   recall: token {tf / t:.2%}, tree {rf / r:.2%}"
    )
    if misses:
        print(f"  missed ({len(misses)}): {', '.join(misses[:12])}")

    lines = sum(text.count("\n") + 1 for _, _, text in files)
    parse = extract = 0.0
    clock = time.process_time  # CPU time of this process: the machine is shared
    # file by file, parse and extract in turn, the best of 3 of each (a burst of load from
    # other jobs then hits both sides alike), the cyclic GC paused as ``errdex scan``
    # pauses it: with it on, its passes over Cython's nodes are most of both sides' time
    with gc_paused():
        for _, rel, text in files:
            parse_times, extract_times = [], []
            for _ in range(3):
                start = clock()
                with contextlib.suppress(Exception):
                    parse_cython(text, pxd=rel.endswith(".pxd"))
                middle = clock()
                with contextlib.suppress(Exception):
                    extract_cython(text, rel)
                parse_times.append(middle - start)
                extract_times.append(clock() - middle)
            parse += min(parse_times)
            extract += min(extract_times)
    print(f"speed ({len(files)} files, {lines} lines, CPU time, best of 3 per file, GC paused)")
    print(
        f"  Cython parse_from_strings: {len(files) / parse:8.1f} files/s {lines / parse:10.0f} lines/s"
    )
    print(
        f"  errdex extract_cython:     {len(files) / extract:8.1f} files/s {lines / extract:10.0f} lines/s"
    )
    print(f"  ratio extract / parse: {extract / parse:.2f}x")


#: Scripts that misuse msgpack's, frozenlist's and PyYAML's compiled APIs, one error each.
SCRIPTS = ROOT / "bench" / "realerrors" / "cython_scripts"


def provoked() -> list[tuple[str, str]]:
    """(name, code): the inline errors of the tests, then every script of SCRIPTS."""
    inline = [(f"{library}:{code[-40:]}", code) for library, code in PROVOKED]
    return inline + [(p.stem, p.read_text()) for p in sorted(SCRIPTS.glob("*.py"))]


def _group_sites(answer: Any) -> set[tuple[str, int]]:
    """The answer's group (the sites it cannot tell apart), else its best alone."""
    return {(c.filePath, c.lineNumber) for c in answer.group or answer.candidates[:1]}


def _is(site: tuple[str, int], expected: tuple[str, str]) -> bool:
    return site[0].endswith(expected[0]) and site[1] == int(expected[1])


def matching() -> None:
    libs = install_libs()
    errors = provoked()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "errdex.db"
        scan_sdists(db, libs)
        os.environ["XDG_CACHE_HOME"] = tmp
        negative = ("negative", "import msgpack; msgpack.Unpacker(file_like=3)")  # no raise site
        top1 = {"traceback": 0, "message": 0}
        grouped = {"traceback": 0, "message": 0}
        expected_top1 = {"traceback": 0.0, "message": 0.0}
        ceiling = 0.0
        wrong_confident = 0
        with SqliteStore(db) as store:
            index = index_for(store)
            paths = {index.entry(i).file_path for i in range(len(index))}
            for name, code in [*errors, negative]:
                done = subprocess.run(
                    [sys.executable, "-c", code],
                    capture_output=True,
                    text=True,
                    env={**os.environ, "PYTHONPATH": str(libs)},
                )
                tb = done.stderr
                frames = re.findall(r'File "([^"]+\.pyx)", line (\d+)', tb)
                final = errors_in(tb)[-1]
                last = (
                    f"{final.error_class}: {final.message}" if final.message else final.error_class
                )
                expected = frames[-1] if name != "negative" else None
                if expected is not None:
                    truth = (next(p for p in paths if p.endswith(expected[0])), int(expected[1]))
                    own = message_ceiling(
                        index, final.error_class or "", final.message or "", truth
                    )
                    ceiling += own
                    if own < 1:
                        print(
                            f"  tie in the text ({name}): {(last or '')[:50]!r}, ceiling {own:.2f}"
                        )
                for mode, text in (("traceback", tb), ("message", last or "")):
                    answer = answers(text, store)[-1]
                    best = answer.candidates[0] if answer.candidates else None
                    hit = (
                        best is not None
                        and expected is not None
                        and _is((best.filePath, best.lineNumber), expected)
                    )
                    top1[mode] += hit
                    sites = _group_sites(answer)
                    in_group = expected is not None and any(_is(x, expected) for x in sites)
                    grouped[mode] += in_group
                    expected_top1[mode] += 1 / len(sites) if in_group else 0.0
                    if best is not None and not hit and best.confidence >= 0.9:
                        wrong_confident += 1
                        print(
                            f"  wrong at {best.confidence:.2f} ({mode}): {(last or '')[:60]!r} -> {best.filePath}:{best.lineNumber}"
                        )
                    elif expected is not None and not hit:
                        got = (
                            f"{best.filePath}:{best.lineNumber} at {best.confidence:.2f}"
                            if best
                            else "nothing"
                        )
                        tie = f" (in the group of {len(sites)})" if in_group else ""
                        print(
                            f"  miss ({mode}) {name}: {(last or '')[:60]!r} -> {got}, want "
                            f"{expected[0]}:{expected[1]}{tie}"
                        )
        n = len(errors)
        print(
            f"matching ({n} provoked errors from msgpack, frozenlist, PyYAML: {len(PROVOKED)} "
            f"inline, {n - len(PROVOKED)} scripts in {SCRIPTS.relative_to(ROOT)}; 1 uncatalogued)"
        )
        for mode in ("traceback", "message"):
            print(
                f"  top-1 from the {mode + ':':10} {top1[mode]}/{n} = {top1[mode] / n:.0%}"
                f" (true site in the answer's group: {grouped[mode]}/{n}; expected top-1, the"
                f" group in a random order: {expected_top1[mode]:.2f}/{n}"
                f" = {expected_top1[mode] / n:.1%})"
            )
        print(
            f"  message ceiling (ties the text cannot break, drawn at random): "
            f"{ceiling:.2f}/{n} = {ceiling / n:.1%}"
        )
        print(f"  wrong answers with confidence >= 0.9: {wrong_confident}")


def main() -> None:
    files = sources()
    recall_and_speed(files)
    matching()


if __name__ == "__main__":
    main()
