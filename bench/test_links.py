"""Test links, main against a branch (issue 10, deliver 2: "test links that find the tests
that exist").

    PYTHONPATH=$PWD/src .venv/bin/python bench/test_links.py BASE.jsonl BRANCH.jsonl
        [--list]

Reads two exports of the same catalogue (``errdex export --jsonl``), one built with
main's code and one with the branch's, and prints side by side, with the ratio: the test
links (``evidence.tests`` entries), the records with at least one, and the links the
branch gained and lost; ``--list`` names each gained and lost link (the record's file,
line and class, the test's file, line and name), to be read against the tests.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

Key = tuple[str, int, str, str]
Link = tuple[str, int, str]


def load(path: Path) -> dict[Key, set[Link]]:
    """Each record (file, line, class, message) -> its linked tests (path, line, name)."""
    out: dict[Key, set[Link]] = {}
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            row = json.loads(line)
            record, evidence = row["record"], row["evidence"]
            key = (
                record["filePath"],
                int(record["lineNumber"]),
                str(record["errorClass"]),
                str(record["errorMessage"]),
            )
            tests = evidence.get("tests") or []
            out.setdefault(key, set()).update(
                (str(t.get("path")), int(t.get("line") or 0), str(t.get("name"))) for t in tests
            )
    return out


def _ratio(new: int, old: int) -> str:
    return f"{new / old:.3f}" if old else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("base", type=Path)
    parser.add_argument("branch", type=Path)
    parser.add_argument("--list", action="store_true", help="name each gained and lost link")
    args = parser.parse_args()
    base, branch = load(args.base), load(args.branch)
    rows = [
        ("records", len(base), len(branch)),
        ("test links", sum(map(len, base.values())), sum(map(len, branch.values()))),
        (
            "records with a link",
            sum(1 for v in base.values() if v),
            sum(1 for v in branch.values() if v),
        ),
    ]
    print(f"{'':24}{'main':>10}{'branch':>10}{'ratio':>8}")
    for name, old, new in rows:
        print(f"{name:24}{old:>10,}{new:>10,}{_ratio(new, old):>8}")
    gained = sorted((k, t) for k, v in branch.items() for t in v - base.get(k, set()))
    lost = sorted((k, t) for k, v in base.items() for t in v - branch.get(k, set()))
    print(f"gained {len(gained):,} links, lost {len(lost):,}")
    if args.list:
        for tag, found in (("+", gained), ("-", lost)):
            for (path, line, cls, _), (test_path, test_line, name) in found:
                short = name.rpartition("::")[2]
                print(f"{tag} {path}:{line} {cls} <- {test_path}:{test_line} {short}")


if __name__ == "__main__":
    main()
