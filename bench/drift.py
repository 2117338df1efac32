"""Matching across releases (issue 13, item 2): real errors of one attrs release against
a catalogue of another.

    python3 bench/realerrors/collect.py attrs==25.4.0    # bench/data/attrs-25.4.0.jsonl
    PYTHONPATH=$PWD/src .venv/bin/python bench/drift.py [--old 25.4.0 --new 26.1.0]

Each ``bench/data/attrs-VER.jsonl`` holds the exceptions attrs' own test suite expected
under that release, with the true raise file and line. Both releases are fetched from
the package index (``errdex scan --package attrs==VER``'s fetch, into errdex's cache)
and scanned by errdex (the extractor's records: ``analyze=False``), the running
standard library beside them as rivals. A match is right when its top-1 record has the
id of the true site's record in the error's own release: ids survive the lines moving,
so this asks "the right raise, whatever line the catalogue holds it at". Where a
release rewords a message the id changes with it (the id hashes the message): the
record of the same raise is then the one site of the same file, function and class
(:func:`counterparts`; attrs 26.1.0 gave ``FrozenInstanceError`` the message "can't set
attribute" that 25.4.0 raised it without).

The paths in the tracebacks name the collector's folders (``/tmp/realerrors/attrs-26.1.0/``),
which would tell the release away: they are rewritten to ``/home/user/`` first, so the
release must be inferred from the lines.

Scenarios, each against the same errors:

- ``same``: the error's own release catalogued alone (the ceiling);
- ``other``: only the other release catalogued (lines drifted, no release information);
- ``both``: both releases catalogued into one store, the other release scanned last (so
  the index holds the other release's lines), its release tables attached
  (:mod:`errdex.match.versions`); ``both, tables off`` is the same index without them.

Figures: traceback top-1, the share whose true site the catalogue holds, and the mean
top-1 confidence where the innermost frame's line is (and is not) a raise site of the
catalogued lines, to show the confidence dropping when the lines disagree.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any

from errdex.match.api import clues_from
from errdex.match.index import MatchIndex
from errdex.match.paste import parse_paste
from errdex.match.rank import rank
from errdex.match.versions import attach, store_tables
from errdex.record import iso_now
from errdex.scan import ScanResult, scan_checkout, store_scan
from errdex.source.checkout import Checkout
from errdex.source.release import open_release
from errdex.source.stdlib import stdlib_checkout
from errdex.store import SqliteStore

DATA = Path(__file__).resolve().parent / "data"
Item = tuple[dict[str, Any], dict[str, Any]]
Row = dict[str, Any]
_COLLECTOR = re.compile(r"/tmp/[^\s\"']*?/attrs-\d[\w.]*/")


def _scan(checkout: Checkout) -> list[Item]:
    repo = checkout.repo or "python-attrs/attrs"
    return scan_checkout(checkout, repo=repo, analyze=False).items


def load(path: Path) -> list[Row]:
    rows = [json.loads(line) for line in path.open(encoding="utf-8") if line.strip()]
    return [r for r in rows if r["is_python_raise"] and r["kind"] == "exception"]


def truth_ids(rows: list[Row], items: list[Item], prefix: str) -> list[str | None]:
    """The id of each error's true site in its own release (None: no record there)."""
    at = {(r["filePath"], r["lineNumber"]): r["id"] for r, _ in items}
    return [at.get((prefix + row["raise_file"], int(row["raise_line"]))) for row in rows]


def _lineage_key(item: Item) -> tuple[str, str | None, str | None]:
    record, evidence = item
    return record["filePath"], evidence["site"].get("qualname"), record["errorClass"]


def counterparts(own: list[Item], other: list[Item]) -> dict[str, str]:
    """Each record of one release -> the same raise in another: the same id, else the one
    site of that file, function and class (a reworded message changes the id)."""
    ids = {r["id"] for r, _ in other}
    by_key: dict[tuple[str, str | None, str | None], list[str]] = {}
    for item in other:
        by_key.setdefault(_lineage_key(item), []).append(item[0]["id"])
    out: dict[str, str] = {}
    for item in own:
        rid = item[0]["id"]
        same = by_key.get(_lineage_key(item), [])
        if rid in ids:
            out[rid] = rid
        elif len(same) == 1:
            out[rid] = same[0]
    return out


def score(
    rows: list[Row], truths: list[str | None], index: MatchIndex, lines: set[tuple[str, int]]
) -> dict[str, Any]:
    ids = {index.entry(i).id for i in range(len(index))}
    out: dict[str, Any] = {"n": len(rows), "catalogued": 0, "top1": 0, "misses": []}
    conf: dict[bool, list[float]] = {True: [], False: []}
    for row, truth in zip(rows, truths, strict=True):
        text = _COLLECTOR.sub("/home/user/", row["traceback_text"])
        ranked = rank(clues_from(parse_paste(text)), index, top=5)
        out["catalogued"] += truth in ids
        first = index.entry(ranked[0].index).id if ranked else None
        out["top1"] += first is not None and first == truth
        if first != truth and ranked:
            got = index.entry(ranked[0].index)
            out["misses"].append(
                f"{row['exc_type']}: {row['message'][:70]!r} at {row['raise_file']}:"
                f"{row['raise_line']} -> {got.file_path}:{got.line} ({ranked[0].confidence:.2f})"
            )
        agree = (row["raise_file"], int(row["raise_line"])) in lines
        if ranked:
            conf[agree].append(ranked[0].confidence)
    out["conf_agree"] = sum(conf[True]) / len(conf[True]) if conf[True] else None
    out["conf_disagree"] = sum(conf[False]) / len(conf[False]) if conf[False] else None
    out["n_disagree"] = len(conf[False])
    return out


def _lines(items: list[Item], prefix: str) -> set[tuple[str, int]]:
    """(installed path, line) of each record: where a frame agrees with the catalogue."""
    return {(r["filePath"].removeprefix(prefix), r["lineNumber"]) for r, _ in items}


def _catalogue(db: Path, order: list[tuple[Checkout, list[Item]]]) -> tuple[list[Any], Any]:
    """Scan the releases into one store in ``order`` (the last is current): its
    envelopes and its release tables."""
    with SqliteStore(db) as store:
        for checkout, items in order:
            result = ScanResult(items, 0, 0, len(items), [], 0.0)
            store_scan(store, checkout, checkout.repo or "", result, iso_now())
        return list(store.iter_envelopes()), store_tables(store)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--old", default="25.4.0")
    parser.add_argument("--new", default="26.1.0")
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--no-stdlib", action="store_true", help="no standard-library rivals")
    args = parser.parse_args()
    os.environ.setdefault("ERRDEX_OFFLINE", "1")  # no forge lookups: the index only
    stdlib: list[Item] = []
    if not args.no_stdlib:
        checkout = stdlib_checkout()
        stdlib = scan_checkout(checkout, repo="python/cpython", analyze=False).items
        print(f"standard library (rivals): {len(stdlib):,} records", flush=True)
    releases: dict[str, tuple[Checkout, list[Item]]] = {}
    for version in (args.old, args.new):
        checkout = open_release(f"attrs=={version}")
        releases[version] = (checkout, _scan(checkout))
        print(f"attrs {version}: {len(releases[version][1])} records", flush=True)
    moved = _moved_share(releases[args.old][1], releases[args.new][1])
    print(
        f"records in both releases: {moved[0]}, of which at another line in {args.new}: "
        f"{moved[1]} ({moved[1] / max(1, moved[0]):.0%})"
    )
    rival_envelopes = [{"record": r, "evidence": e} for r, e in stdlib]
    table: list[tuple[str, str, dict[str, Any]]] = []
    for errors_of, other in ((args.new, args.old), (args.old, args.new)):
        path = args.data / f"attrs-{errors_of}.jsonl"
        if not path.exists():
            print(f"{path} is missing: collect it with bench/realerrors/collect.py")
            continue
        rows = load(path)
        own_checkout, own_items = releases[errors_of]
        other_items = releases[other][1]
        prefix = own_checkout.path_prefix
        truths = truth_ids(rows, own_items, prefix)
        pairs = counterparts(own_items, other_items)
        moved_truths = [pairs.get(t) if t else None for t in truths]
        print(
            f"\nerrors of attrs {errors_of}: {len(rows)}; true site has a record: "
            f"{sum(t is not None for t in truths)}; the same raise is in {other}: "
            f"{sum(t is not None for t in moved_truths)} "
            f"(under another id: {sum(bool(t and pairs.get(t) != t) for t in truths)})",
            flush=True,
        )

        def build(items: list[Item]) -> MatchIndex:
            return MatchIndex.build(
                [{"record": r, "evidence": e} for r, e in items] + rival_envelopes
            )

        same = score(rows, truths, build(own_items), _lines(own_items, prefix))
        table.append((errors_of, f"same ({errors_of})", same))
        drift = score(rows, moved_truths, build(other_items), _lines(other_items, prefix))
        table.append((errors_of, f"other ({other})", drift))
        with tempfile.TemporaryDirectory() as tmp:
            db = Path(tmp) / "both.db"
            # the error's own release first: the other one is current in the index
            envelopes, tables = _catalogue(db, [releases[errors_of], releases[other]])
            rivals = MatchIndex.build([*envelopes, *rival_envelopes])
            off = score(rows, moved_truths, rivals, _lines(other_items, prefix))
            table.append((errors_of, f"both, {other} current, tables off", off))
            attach(rivals, tables)
            on = score(rows, moved_truths, rivals, _lines(other_items, prefix))
            table.append((errors_of, f"both, {other} current, tables on", on))
    print(
        "\n| errors of | catalogue | errors | site catalogued | traceback top-1 |"
        " top-1 conf., lines agree | top-1 conf., lines disagree (n) |"
    )
    print("|---|---|---|---|---|---|---|")
    for errors_of, name, r in table:
        agree = f"{r['conf_agree']:.2f}" if r["conf_agree"] is not None else "-"
        disagree = (
            f"{r['conf_disagree']:.2f} ({r['n_disagree']})"
            if r["conf_disagree"] is not None
            else "-"
        )
        print(
            f"| attrs {errors_of} | {name} | {r['n']} | {r['catalogued'] / r['n']:.1%} | "
            f"{r['top1'] / r['n']:.1%} | {agree} | {disagree} |"
        )
    _print_misses(table)


def _print_misses(table: list[tuple[str, str, dict[str, Any]]]) -> None:
    print("\nmisses (up to 3 per scenario):")
    for errors_of, name, result in table:
        for miss in result["misses"][:3]:
            print(f"  attrs {errors_of}, {name}: {miss}")


def _moved_share(old: list[Item], new: list[Item]) -> tuple[int, int]:
    lines = {r["id"]: r["lineNumber"] for r, _ in old}
    both = [r for r, _ in new if r["id"] in lines]
    return len(both), sum(lines[r["id"]] != r["lineNumber"] for r in both)


if __name__ == "__main__":
    main()
