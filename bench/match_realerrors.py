"""Matching on real errors nobody tuned for: the benchmarks of ``bench/data/``.

    python3 bench/realerrors/collect.py click==8.5.1 ...   # builds the /tmp venvs too
    python3 bench/realerrors/run_stdlib.py
    PYTHONPATH=$PWD/src .venv/bin/python bench/match_realerrors.py [--data bench/data]

For each ``NAME-VER.jsonl`` (and its ``.env.json``) the catalogue is what a user of that
library has: the library's installed files, those of every distribution it requires to
run (from the collector's virtualenv in /tmp), and the running standard library, all
scanned by errdex. ``stdlib-*.jsonl`` is matched against the standard library alone.
The standard library's scan is kept in the bench cache (``_stdlib_cache.py``: keyed by
errdex's source hash and the Python version) and reused by the next run of the same code.
Only errors at a Python ``raise``/``warn`` statement count (``is_python_raise``), and
only exceptions (warnings have no traceback). A site is right when ``(filePath,
lineNumber)`` equals the error's ``(catalogue_file or raise_file, raise_line)``.

Figures per benchmark and overall: traceback top-1; message-only (``Class: message``)
top-1, its ceiling, the expected top-1 were the returned group's order drawn at random
(what the ceiling assumes of ties, so the two compare), the share whose true site is
inside the returned group (the sites rank names as the best answer's group, or the best
alone); the share with no answer at all although the true site is catalogued; wrong
first answers at confidence ≥ 0.9. Then the tie prior's held-out check
(bench/prior_fit.py: fitted on the errors of some test files, scored on the others', with
and without), and the misses of the message-only run grouped by cause, a few of each
(``--dump FILE`` writes every miss with its true template and the first answers;
``--only NAME`` runs the benchmarks named so).

The ceiling (bench/_ceiling.py, shared with ``match_accuracy.py``) is the expected top-1
when each group of indistinguishable sites is broken at random and all else is right: per
error, 1/(1 + k), k the other sites of the pasted class whose template renders the
message with at least as many literal characters as the true site's. The true site
always counts, with its right template: a site the extractor reads wrong is the
extractor's miss, not the text's. Top-1 can exceed the ceiling, by the order in which
ties happen to fall: it is an expectation over random orders.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import errdex
from errdex.match.api import clues_from
from errdex.match.index import MatchIndex
from errdex.match.paste import parse_paste
from errdex.match.prior import Prior, prior_key
from errdex.match.rank import Clue, Scored, rank
from errdex.scan import scan_checkout
from errdex.source.local import open_directory
from errdex.source.stdlib import stdlib_checkout

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _ceiling import ceiling as message_ceiling
from _stdlib_cache import cached_stdlib
from prior_fit import CANDIDATES, fold_of, held_out

sys.path.insert(0, str(Path(__file__).resolve().parent / "realerrors"))
from pytest_render import FORMATS, render

DATA = Path(__file__).resolve().parent / "data"
Envelope = dict[str, Any]
Row = dict[str, Any]
SAMPLES = 3


def _scan(checkout: Any, repo: str) -> list[Envelope]:
    return [{"record": r, "evidence": e} for r, e in scan_checkout(checkout, repo=repo).items]


_STDLIB: list[Envelope] = []


def _scan_stdlib() -> list[Envelope]:
    checkout = stdlib_checkout()
    return _scan(checkout, checkout.repo or "python/cpython")


def stdlib_envelopes() -> list[Envelope]:
    """The running stdlib's catalogue, scanned by the errdex on ``PYTHONPATH`` or read
    from the bench cache when that errdex and this Python scanned it before
    (``_stdlib_cache.py``)."""
    if not _STDLIB:
        envelopes, path, reused = cached_stdlib(_scan_stdlib, Path(errdex.__file__).parent)
        print(f"standard library: {'reused' if reused else 'scanned, kept in'} {path}", flush=True)
        _STDLIB.extend(envelopes)
    return _STDLIB


class MissingVenv(Exception):
    """The collector's virtualenv of one benchmark is gone: that benchmark is skipped."""


def installed_envelopes(env: dict[str, Any]) -> tuple[list[Envelope], list[str]]:
    """The library's and its run-time requirements' installed files, scanned as one directory."""
    site = Path(env["site_packages"])
    if not site.is_dir():
        lib = env["library"]
        raise MissingVenv(
            f"{site} is gone: rebuild it with "
            f"python3 bench/realerrors/collect.py {lib['name']}=={lib['version']}"
        )
    names: list[str] = []
    files: list[str] = []
    for dist in [env["library"], *env["requires"]]:
        names.append(f"{dist['name']} {dist['version']}")
        for top in dist["top_level"]:
            path = site / top
            if path.is_file() and path.suffix == ".py":
                files.append(top)
            elif path.is_dir():
                files += sorted(str(p.relative_to(site)) for p in path.rglob("*.py"))
    checkout = dataclasses.replace(
        open_directory(site, repo=f"pypi/{env['library']['name']}"), files=tuple(files)
    )
    return _scan(checkout, checkout.repo or "pypi/library"), names


def _site(index: MatchIndex, s: Scored) -> tuple[str, int]:
    """The raise an answer names: its line, or for a record at a call of a helper raising
    what the call passes (``context._raise_error(InvalidOperation, '…')``) the helper's
    raise line, which a traceback prints innermost (an older errdex has no such record)."""
    entry = index.entry(s.index)
    raised_at = getattr(index, "raised_at", None)
    line = raised_at(s.index) if raised_at is not None else None
    return entry.file_path, line if line is not None else entry.line


def _group(ranked: list[Scored]) -> list[Scored]:
    """The answer: the group rank returned (its members lead, ``group_size`` > 1), else the
    best candidate alone."""
    return [s for s in ranked if s.group_size > 1] or ranked[:1]


def _random_top1(index: MatchIndex, ranked: list[Scored], truth: tuple[str, int]) -> float:
    """The expected top-1 of this answer were its group's order drawn at random: what the
    ceiling assumes of the ties, so the two compare whatever order the prior gives."""
    sites = {_site(index, s) for s in _group(ranked)}
    return 1 / len(sites) if truth in sites else 0.0


def _prior_top(index: MatchIndex, ranked: list[Scored], prior: Prior) -> tuple[str, int] | None:
    """The first answer under ``prior`` of a ranking made with none: the group's members
    sorted by the prior, stably, as :func:`errdex.match.group.order_group` sorts them."""
    group = _group(ranked)
    if not group:
        return None
    key = prior_key(index, prior)
    return _site(index, min(group, key=lambda s: key(s.index)))


def _cause(ranked: list[Scored], index: MatchIndex, truth: tuple[str, int], known: bool) -> str:
    if not known:
        return "true site not catalogued"
    if not ranked:
        return "nothing matched"
    got = [_site(index, s) for s in ranked]
    if truth in got:
        mine = ranked[got.index(truth)]
        if mine in _group(ranked):
            return "tied with other sites (true site in the returned group)"
        return "ranked below another site"
    return "true site not among the candidates"


def ceiling(row: Row, index: MatchIndex) -> float:
    """The expected top-1 of this error from its text alone, ties broken at random and all
    else right (bench/_ceiling.py)."""
    return message_ceiling(index, row["exc_type"], row["message"], _truth(row))


def _truth(row: Row) -> tuple[str, int]:
    return row.get("catalogue_file") or row["raise_file"], int(row["raise_line"])


def _dumped(
    index: MatchIndex, ranked: list[Scored], sites: dict[tuple[str, int], str]
) -> list[dict[str, Any]]:
    """The first answers of a miss, as ``--dump`` writes them."""
    out = []
    for s in ranked[:4]:
        entry = index.entry(s.index)
        out.append(
            {
                "site": f"{entry.file_path}:{entry.line}",
                "class": entry.error_class,
                "template": sites.get((entry.file_path, entry.line)),
                "score": round(s.score, 4),
                "confidence": round(s.confidence, 4),
            }
        )
    return out


def _pastes(row: Row, formats: Sequence[str], where: tuple[str, str]) -> list[tuple[str, str]]:
    """The row pasted each way scored: its CPython traceback, ``Class: message``, and each
    pytest format asked for (``realerrors/pytest_render.py``; ``where``: run dir, site)."""
    out = [("tb", row["traceback_text"]), ("msg", f"{row['exc_type']}: {row['message']}")]
    test_id = row.get("test_id") or "test_error"
    return out + [(f, render(row["traceback_text"], f, test_id, *where)) for f in formats]


def score(
    rows: list[Row],
    index: MatchIndex,
    sites: dict[tuple[str, int], str],
    dump: list[Row] | None = None,
    below: Sequence[Row] = (),
    formats: Sequence[str] = (),
    where: tuple[str, str] = ("/", "/"),
) -> dict[str, Any]:
    """``sites``: each catalogued site's ``errorMessage``; ``below``: errors raised by C under
    a library line (:func:`load_below`), whose every Python answer is wrong; ``formats``:
    pytest's report formats scored beside (:func:`_pastes`)."""
    out: dict[str, Any] = defaultdict(int)
    misses: dict[str, list[str]] = defaultdict(list)
    priors: list[tuple[int, dict[str, bool]]] = []
    for row in rows:
        truth = _truth(row)
        known = truth in sites
        for mode, text in _pastes(row, formats, where):
            clues: list[Clue] = clues_from(parse_paste(text))
            ranked = rank(clues, index, top=50)
            got = [_site(index, s) for s in ranked]
            first = bool(got) and got[0] == truth
            out[f"{mode}_top1"] += first
            out[f"{mode}_empty_known"] += (not ranked) and known
            if ranked and ranked[0].confidence >= 0.9 and not first:
                out[f"{mode}_conf_wrong"] += 1
            if mode != "msg":
                out[f"{mode}_in_group"] += truth in {_site(index, s) for s in _group(ranked)}
                if mode != "tb" and not first and dump is not None:
                    dump.append(
                        {
                            "format": mode,
                            "paste": text,
                            "truth": f"{truth[0]}:{truth[1]}",
                            "answers": _dumped(index, ranked, sites),
                        }
                    )
            if mode == "msg":
                out["msg_in_group"] += truth in {_site(index, s) for s in _group(ranked)}
                out["msg_random_top1"] += _random_top1(index, ranked, truth)
                plain = rank(clues, index, top=50, prior=())
                tops = {name: _prior_top(index, plain, p) for name, p in CANDIDATES.items()}
                priors.append((fold_of(row), {name: top == truth for name, top in tops.items()}))
                if not first:
                    cause = _cause(ranked, index, truth, known)
                    answer = f"{got[0][0]}:{got[0][1]}" if got else "-"
                    misses[cause].append(
                        f"{row['exc_type']}: {row['message'][:90]!r} at {truth[0]}:{truth[1]}"
                        f" -> {answer}"
                    )
                    if dump is not None:
                        dump.append(
                            {
                                "cause": cause,
                                "exc_type": row["exc_type"],
                                "message": row["message"],
                                "truth": f"{truth[0]}:{truth[1]}",
                                "truth_template": sites.get(truth),
                                "answers": _dumped(index, ranked, sites),
                            }
                        )
    for row in below:
        ranked = [
            s
            for s in rank(clues_from(parse_paste(row["traceback_text"])), index)
            if not getattr(s, "ruled_out", False)  # (older errdex: no such flag)
        ]
        if ranked and _site(index, ranked[0]) != _truth(row):
            out["below_wrong50"] += ranked[0].confidence >= 0.5
            out["below_wrong90"] += ranked[0].confidence >= 0.9
    out["below_n"] = len(below)
    out["n"] = len(rows)
    out["catalogued"] = sum(_truth(r) in sites for r in rows)
    out["ceiling"] = sum(ceiling(row, index) for row in rows)
    out["misses"] = misses
    out["priors"] = priors
    return out


COLUMNS = (
    ("n", "errors"),
    ("catalogued", "site catalogued"),
    ("tb_top1", "traceback top-1"),
    ("msg_top1", "message top-1"),
    ("ceiling", "msg ceiling"),
    ("msg_random_top1", "msg top-1, group order at random"),
    ("msg_in_group", "msg in group"),
    ("msg_empty_known", "msg no answer, catalogued"),
    ("tb_empty_known", "tb no answer, catalogued"),
    ("msg_conf_wrong", "msg wrong @≥0.9"),
    ("tb_conf_wrong", "tb wrong @≥0.9"),
    ("below_n", "C below: errors"),
    ("below_wrong50", "C below: tb wrong @≥0.5"),
    ("below_wrong90", "C below: tb wrong @≥0.9"),
)
#: Columns that are counts, not shares of the benchmark's errors.
COUNTS = frozenset(
    {"n", "msg_conf_wrong", "tb_conf_wrong", "below_n", "below_wrong50", "below_wrong90"}
)


def _cell(key: str, value: float, n: int) -> str:
    if key in COUNTS:
        return f"{int(value)}"
    return f"{value / n:.1%}" if n else "-"


def print_table(results: dict[str, dict[str, Any]]) -> None:
    print("| benchmark | " + " | ".join(label for _, label in COLUMNS) + " |")
    print("|---" * (len(COLUMNS) + 1) + "|")
    for name, result in results.items():
        cells = [_cell(k, result[k], result["n"]) for k, _ in COLUMNS]
        print(f"| {name} | " + " | ".join(cells) + " |")


def print_prior(per_benchmark: dict[str, Any]) -> None:
    """Message-only top-1 on held-out errors, without and with the tie prior fitted on the
    other test files (bench/prior_fit.py)."""
    out, chosen = held_out(per_benchmark)
    print(f"\ntie prior, fitted per fold on the other fold's test files: {' / '.join(chosen)}")
    print("| benchmark | errors | held-out msg top-1, no prior | with the fitted prior |")
    print("|---|---|---|---|")
    for name, (without, with_prior) in out.items():
        n = len(per_benchmark[name])
        print(f"| {name} | {n} | {without / n:.1%} | {with_prior / n:.1%} |")
    singles = [name for name, prior in CANDIDATES.items() if len(prior) < 2]
    print("\nmessage top-1 per candidate prior, all errors (what the fit chose among):")
    print("| benchmark | " + " | ".join(singles) + " |")
    print("|---" * (len(singles) + 1) + "|")
    for name, scores in per_benchmark.items():
        cells = [str(sum(hits[c] for _, hits in scores)) for c in singles]
        print(f"| {name} | " + " | ".join(cells) + " |")


FORMAT_COLUMNS = (
    ("top1", "top-1"),
    ("in_group", "in group"),
    ("empty_known", "no answer, catalogued"),
    ("conf_wrong", "wrong @≥0.9"),
)


def print_formats(results: dict[str, Any], formats: Sequence[str], base: dict[str, Any]) -> None:
    """Each pytest format's figures beside the CPython traceback's, and beside the
    ``--baseline`` checkout's (``main → errdex``) when one ran."""
    print("\nper paste format (pytest --tb=long/short/native, and the E line alone):")
    head = " | ".join(label for _, label in FORMAT_COLUMNS)
    print(f"| benchmark | format | {head} |")
    print("|---" * (len(FORMAT_COLUMNS) + 2) + "|")
    for name, result in results.items():
        n = result["n"]
        for fmt in ("tb", "msg", *formats):
            cells = []
            for key, _ in FORMAT_COLUMNS:
                full = f"{fmt}_{key}"
                mine = _cell(full, result.get(full, 0), n)
                if key == "conf_wrong":
                    mine = str(int(result.get(full, 0)))
                if name in base:
                    then = base[name].get(full, 0)
                    was = str(int(then)) if key == "conf_wrong" else _cell(full, then, n)
                    mine = f"{was} → {mine}"
                cells.append(mine)
            label = {"tb": "CPython traceback", "msg": "Class: message"}.get(fmt, fmt)
            print(f"| {name} | {label} | " + " | ".join(cells) + " |")


def baseline_run(src: Path, argv: list[str], out: Path) -> subprocess.Popen[bytes]:
    """This benchmark under another checkout's ``src`` (main's), in its own process, run
    beside this one; its figures land in ``out`` as JSON."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    cmd = [sys.executable, __file__, *argv, "--json", str(out)]
    return subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL)


def load(path: Path) -> list[Row]:
    rows = [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]
    return [r for r in rows if r["is_python_raise"] and r["kind"] == "exception"]


def load_below(path: Path) -> list[Row]:
    """The exceptions raised by code that prints no frame (C, the interpreter), below a
    library line (``site_kind`` implicit): those whose traceback's innermost line is printed
    and is no ``raise`` (not a dependency's Python raise): no Python site raised them. A
    frame that prints no line (``<frozen zipimport>``, ``<string>``) decides nothing: a
    frozen module's own ``raise`` prints so, and errdex catalogues it (``Lib/zipimport.py``)."""
    rows = [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]
    return [
        r
        for r in rows
        if r.get("site_kind") == "implicit"
        and r["kind"] == "exception"
        and (code := _innermost_code(r["traceback_text"]))
        and not code.startswith("raise")
    ]


def _innermost_code(traceback: str) -> str:
    """The code line printed under a traceback's innermost frame ('' when none is)."""
    lines = traceback.splitlines()
    heads = [i for i, line in enumerate(lines) if line.startswith('  File "')]
    if not heads or heads[-1] + 1 >= len(lines):
        return ""
    code = lines[heads[-1] + 1]
    return code.strip() if code.startswith("    ") else ""


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--only", help="run the benchmarks whose name starts so")
    parser.add_argument("--dump", type=Path, help="write every message-only miss here (JSONL)")
    parser.add_argument(
        "--format",
        default="",
        help=f"pytest formats to score beside (comma-separated of {', '.join(FORMATS)}, or all)",
    )
    parser.add_argument("--baseline", type=Path, help="another checkout's src/ (main's) beside")
    parser.add_argument("--json", type=Path, help=argparse.SUPPRESS)  # a baseline run's output
    args = parser.parse_args()
    formats = list(FORMATS) if args.format == "all" else [f for f in args.format.split(",") if f]
    if unknown := set(formats) - set(FORMATS):
        parser.error(f"unknown format(s): {', '.join(sorted(unknown))}")
    child = None
    if args.baseline is not None:
        argv = [f"--data={args.data}", f"--format={','.join(formats)}"]
        argv += [f"--only={args.only}"] if args.only else []
        tmp = Path(tempfile.mkdtemp(prefix="match_realerrors-")) / "baseline.json"
        child = baseline_run(args.baseline, argv, tmp)
    results: dict[str, dict[str, Any]] = {}
    dumped: list[Row] = []
    skipped: list[str] = []
    for path in sorted(args.data.glob(f"{args.only or ''}*.jsonl")):
        if path.name.startswith("review-"):
            continue  # a blind review's verdicts (bench/blind_review.py), not errors
        env_path = path.with_suffix(".env.json")
        if env_path.exists():
            env = json.loads(env_path.read_text(encoding="utf-8"))
            try:
                envelopes, names = installed_envelopes(env)
            except MissingVenv as gone:
                print(f"{path.stem}: skipped, {gone}", flush=True)
                skipped.append(path.stem)
                continue
        else:
            env, envelopes, names = {}, [], []
        rows = load(path)
        envelopes = envelopes + stdlib_envelopes()
        index = MatchIndex.build(envelopes)
        sites = {
            (e["record"]["filePath"], e["record"]["lineNumber"]): e["record"]["errorMessage"]
            for e in envelopes
        }
        print(
            f"{path.stem}: {len(rows)} errors; catalogue {len(index):,} records of "
            f"{', '.join([*names, 'the standard library'])}",
            flush=True,
        )
        mine: list[Row] = []
        venv = Path(env["venv"]) if "venv" in env else Path("/usr")
        where = (str(venv.parent / "run"), str(env.get("site_packages", venv)))
        results[path.stem] = score(
            rows, index, sites, mine if args.dump else None, load_below(path), formats, where
        )
        dumped += [{"benchmark": path.stem, **row} for row in mine]
    if not results:
        raise SystemExit(f"no benchmark to run in {args.data} (skipped: {', '.join(skipped)})")
    total: dict[str, Any] = defaultdict(int)
    for result in results.values():
        for key, _ in COLUMNS:
            total[key] += result[key]
    for result in results.values():
        for key in [f"{f}_{k}" for f in ("tb", "msg", *formats) for k, _ in FORMAT_COLUMNS]:
            if key in dict(COLUMNS):
                continue  # summed above
            total[key] += result.get(key, 0)
    results["overall"] = {**total, "misses": {}}
    if args.json is not None:
        plain = {
            n: {k: v for k, v in r.items() if k not in ("misses", "priors")}
            for n, r in results.items()
        }
        args.json.write_text(json.dumps(plain), encoding="utf-8")
        return
    print()
    print_table(results)
    if skipped:
        print(f"skipped (virtualenv gone, not in 'overall'): {', '.join(skipped)}")
    if args.dump:
        args.dump.write_text("".join(json.dumps(r) + "\n" for r in dumped), encoding="utf-8")
    if formats:
        base: dict[str, Any] = {}
        if child is not None and child.wait() == 0:
            base = json.loads(tmp.read_text(encoding="utf-8"))
            print(f"\nbaseline: {args.baseline} (left of each arrow)")
        elif child is not None:
            print(f"\nbaseline run at {args.baseline} failed")
        print_formats(results, formats, base)
    print_prior({n: r["priors"] for n, r in results.items() if n != "overall"})
    print("\nmessage-only misses by cause (a sample of each):")
    for name, result in results.items():
        for cause, items in sorted(result["misses"].items(), key=lambda kv: -len(kv[1])):
            print(f"  {name}: {cause}: {len(items)}")
            for item in items[:SAMPLES]:
                print(f"      {item}")


if __name__ == "__main__":
    main()
