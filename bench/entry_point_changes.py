"""Entry points main's catalogue names against a branch's (issue 10 deliver 3).

    PYTHONPATH=$PWD/src .venv/bin/python bench/entry_point_changes.py BASE.jsonl BRANCH.jsonl
        [--list]

Reads two exports of the same catalogue (``errdex export --jsonl``), one built with
main's code and one with the branch's, and prints side by side, with the ratio, the
entry points named, the records with none, and what changed: entry points added and
dropped, records whose first entry point changes, by top-level package. ``--list``
prints each changed record (file, line, message) with both lists, to be read against
the source.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from typing import Any

Entries = dict[str, tuple[dict[str, Any], list[str]]]


def load(path: str) -> Entries:
    """Record id -> (record, its entry points' qualnames in order)."""
    out: Entries = {}
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            envelope = json.loads(line)
            record, evidence = envelope["record"], envelope["evidence"]
            out[record["id"]] = (record, [e["qualname"] for e in evidence.get("entryPoints", [])])
    return out


def _row(name: str, base: int, branch: int) -> str:
    ratio = f"{branch / base:.3f}" if base else "-"
    return f"{name:<40} {base:>8} {branch:>8} {ratio:>7}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base")
    parser.add_argument("branch")
    parser.add_argument("--list", action="store_true")
    args = parser.parse_args()
    base, branch = load(args.base), load(args.branch)
    common = sorted(base.keys() & branch.keys())
    print(f"{'':<40} {'main':>8} {'branch':>8} {'ratio':>7}")
    print(_row("records", len(base), len(branch)))
    print(_row("entry points named", *(sum(len(d[k][1]) for k in common) for d in (base, branch))))
    print(_row("records with none", *(sum(not d[k][1] for k in common) for d in (base, branch))))
    added = dropped = first = 0
    changed: list[tuple[dict[str, Any], list[str], list[str]]] = []
    for key in common:
        record, old = base[key]
        new = branch[key][1]
        added += len(set(new) - set(old))
        dropped += len(set(old) - set(new))
        first += old[:1] != new[:1]
        if old != new:
            changed.append((record, old, new))
    print(
        f"entry points added {added}, dropped {dropped}; records changed {len(changed)}, "
        f"whose first entry point changes {first}"
    )
    packages = Counter(r["filePath"].removeprefix("Lib/").split("/")[0] for r, _, _ in changed)
    print("by package:", ", ".join(f"{p} {n}" for p, n in packages.most_common()))
    if args.list:
        for record, old, new in sorted(
            changed, key=lambda c: (c[0]["filePath"], c[0]["lineNumber"])
        ):
            print(f"{record['filePath']}:{record['lineNumber']} {record['errorMessage'][:60]}")
            print(f"    main:   {old}")
            print(f"    branch: {new}")


if __name__ == "__main__":
    main()
