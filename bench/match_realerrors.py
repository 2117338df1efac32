"""Matching on real errors nobody tuned for: the benchmarks of ``bench/data/``.

    python3 bench/realerrors/collect.py click==8.5.1 ...   # builds the /tmp venvs too
    python3 bench/realerrors/run_stdlib.py
    PYTHONPATH=$PWD/src .venv/bin/python bench/match_realerrors.py [--data bench/data]

For each ``NAME-VER.jsonl`` (and its ``.env.json``) the catalogue is what a user of that
library has: the library's installed files, those of every distribution it requires to
run (from the collector's virtualenv in /tmp), and the running standard library, all
scanned by errdex. ``stdlib-*.jsonl`` is matched against the standard library alone.
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
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

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
from prior_fit import CANDIDATES, fold_of, held_out

DATA = Path(__file__).resolve().parent / "data"
Envelope = dict[str, Any]
Row = dict[str, Any]
SAMPLES = 3


def _scan(checkout: Any, repo: str) -> list[Envelope]:
    return [{"record": r, "evidence": e} for r, e in scan_checkout(checkout, repo=repo).items]


_STDLIB: list[Envelope] = []


def stdlib_envelopes() -> list[Envelope]:
    if not _STDLIB:
        checkout = stdlib_checkout()
        _STDLIB.extend(_scan(checkout, checkout.repo or "python/cpython"))
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


def score(
    rows: list[Row],
    index: MatchIndex,
    sites: dict[tuple[str, int], str],
    dump: list[Row] | None = None,
    below: Sequence[Row] = (),
) -> dict[str, Any]:
    """``sites``: each catalogued site's ``errorMessage``; ``below``: errors raised by C under
    a library line (:func:`load_below`), whose every Python answer is wrong."""
    out: dict[str, Any] = defaultdict(int)
    misses: dict[str, list[str]] = defaultdict(list)
    priors: list[tuple[int, dict[str, bool]]] = []
    for row in rows:
        truth = _truth(row)
        known = truth in sites
        for mode, text in (
            ("tb", row["traceback_text"]),
            ("msg", f"{row['exc_type']}: {row['message']}"),
        ):
            clues: list[Clue] = clues_from(parse_paste(text))
            ranked = rank(clues, index, top=50)
            got = [_site(index, s) for s in ranked]
            first = bool(got) and got[0] == truth
            out[f"{mode}_top1"] += first
            out[f"{mode}_empty_known"] += (not ranked) and known
            if ranked and ranked[0].confidence >= 0.9 and not first:
                out[f"{mode}_conf_wrong"] += 1
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
    args = parser.parse_args()
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
            envelopes, names = [], []
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
        results[path.stem] = score(
            rows, index, sites, mine if args.dump else None, load_below(path)
        )
        dumped += [{"benchmark": path.stem, **row} for row in mine]
    if not results:
        raise SystemExit(f"no benchmark to run in {args.data} (skipped: {', '.join(skipped)})")
    total: dict[str, Any] = defaultdict(int)
    for result in results.values():
        for key, _ in COLUMNS:
            total[key] += result[key]
    results["overall"] = {**total, "misses": {}}
    print()
    print_table(results)
    if skipped:
        print(f"skipped (virtualenv gone, not in 'overall'): {', '.join(skipped)}")
    if args.dump:
        args.dump.write_text("".join(json.dumps(r) + "\n" for r in dumped), encoding="utf-8")
    print_prior({n: r["priors"] for n, r in results.items() if n != "overall"})
    print("\nmessage-only misses by cause (a sample of each):")
    for name, result in results.items():
        for cause, items in sorted(result["misses"].items(), key=lambda kv: -len(kv[1])):
            print(f"  {name}: {cause}: {len(items)}")
            for item in items[:SAMPLES]:
                print(f"      {item}")


if __name__ == "__main__":
    main()
