"""Recall on real errors: networkx 3.6.1's own test suite, each error with its true raise site.

    .venv/bin/pip install -e '.[bench]'        # networkx==3.6.1
    .venv/bin/python bench/recall_networkx.py [--data ../shared/bench/networkx.jsonl] [--misses]

(a) share of distinct Python raise sites (file:line) with a record at exactly that
    file:line; (b) share of observed messages that match that record's messagePattern.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import re2

from errdex.scan import scan_checkout
from errdex.source import open_source
from errdex.source.stdlib import stdlib_checkout

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "bench" / "networkx.jsonl"


def load(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA)
    parser.add_argument("--misses", action="store_true", help="print every miss")
    args = parser.parse_args()
    rows = load(args.data)
    version = {r["package_version"] for r in rows}
    import networkx

    assert networkx.__version__ in version, f"install networkx=={version.pop()} first"

    checkout = open_source(package="networkx")
    started = time.perf_counter()
    result = scan_checkout(checkout, repo=checkout.repo or "networkx/networkx")
    seconds = time.perf_counter() - started
    # Some errors surface from the standard library underneath networkx (Lib/random.py):
    # the catalogue of the running Python covers those.
    stdlib = scan_checkout(stdlib_checkout(), repo="python/cpython")
    at: dict[tuple[str, int], list[dict[str, Any]]] = defaultdict(list)
    for record, _ in [*result.items, *stdlib.items]:
        at[(record["filePath"], record["lineNumber"])].append(record)

    python_raises = [r for r in rows if r["is_python_raise"]]
    sites = {(r["raise_file"], r["raise_line"]) for r in python_raises}
    found = {s for s in sites if s in at}
    missing_by_style: Counter[str] = Counter()
    missed_examples: dict[str, list[str]] = defaultdict(list)
    for row in python_raises:
        key = (row["raise_file"], row["raise_line"])
        if key not in at:
            style = row["raise_style"] or row["site_kind"]
            missing_by_style[style] += 1
            missed_examples[style].append(f"{key[0]}:{key[1]}  {row['raise_source'].strip()[:100]}")

    matched = 0
    unmatched: list[str] = []
    checked = 0
    for row in python_raises:
        records = at.get((row["raise_file"], row["raise_line"]))
        if not records or row.get("message_truncated"):
            continue
        checked += 1
        message = row["message"]
        if any(re2.fullmatch(r["messagePattern"], message) for r in records):
            matched += 1
            assert any(re.fullmatch(r["messagePattern"], message, re.S) for r in records)
        else:
            unmatched.append(
                f"{row['raise_file']}:{row['raise_line']} [{row['raise_style']}]\n"
                f"      message: {message[:150]!r}\n"
                f"      patterns: {[r['messagePattern'][:150] for r in records]}"
            )

    print(
        f"networkx {networkx.__version__}: scanned {result.files_read} files, {result.sites} sites in {seconds:.2f} s"
    )
    print(
        f"(a) raise sites with a record at exactly file:line: {len(found)}/{len(sites)} = {len(found) / len(sites):.2%}  (goal ≥ 99%)"
    )
    print(
        f"(b) observed messages matching their record's pattern: {matched}/{checked} = {matched / max(checked, 1):.2%}  (goal ≥ 97%)"
    )
    if missing_by_style:
        print("misses of (a) by how the raise is written:", dict(missing_by_style.most_common()))
        for style, examples in missed_examples.items():
            for example in sorted(set(examples))[: None if args.misses else 3]:
                print(f"   [{style}] {example}")
    if unmatched:
        print(f"misses of (b): {len(unmatched)}")
        for text in unmatched[: None if args.misses else 8]:
            print("   " + text)


if __name__ == "__main__":
    main()
