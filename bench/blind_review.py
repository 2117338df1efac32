"""Blind review of records: draw the sample reviewers judge, and score their verdicts.

Why here: the review is how issue 10's goals (false and misleading statements per 100,
usefulness) are measured, and a sample or instructions rebuilt from memory make figures
that do not compare (docs/blind_review.md says how a review is run).

    python bench/blind_review.py sample CATALOGUE.jsonl OUT_DIR [--n 50] [--seed 2212]
    python bench/blind_review.py score RESULTS   # a folder of NN.json, or one .jsonl
    python bench/blind_review.py paired BASE.jsonl NEW.jsonl OUT_DIR [--n 50] [--seed S]
    python bench/blind_review.py score RESULTS --key OUT_DIR/key.json   # base beside new

``paired`` is the same-run baseline: it draws from the new catalogue and finds each record
in the base one (by id, else by repository, file, line and class). A record both sides
write alike is one ``NN.json``, judged once for both; one that differs is ``NN-a.json``
and ``NN-b.json``, which side is which drawn at random and kept in ``key.json`` (not for
reviewers), so a reviewer judges the two versions without knowing which is new.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any


def sample(catalogue: Path, out: Path, n: int, seed: int) -> int:
    """Write ``n`` envelopes drawn uniformly (seeded) from an ``errdex export`` file."""
    rows = catalogue.read_text().splitlines()
    picked = random.Random(seed).sample(rows, min(n, len(rows)))
    out.mkdir(parents=True, exist_ok=True)
    for number, line in enumerate(picked):
        (out / f"{number:02d}.json").write_text(json.dumps(json.loads(line), indent=1))
    return len(picked)


def _place(envelope: dict[str, Any]) -> tuple[str, str, int, str]:
    r = envelope["record"]
    return (r["repo"], r["filePath"], r["lineNumber"], r.get("errorClass") or "")


#: When a build or a run happened: two builds of the same code differ only there.
_STAMPS = frozenset({"analyzedAt", "ranAt", "verifiedAt"})


def _unstamped(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _unstamped(v) for k, v in value.items() if k not in _STAMPS}
    if isinstance(value, list):
        return [_unstamped(v) for v in value]
    return value


def _shown(envelope: dict[str, Any]) -> dict[str, Any]:
    """What a reviewer judges: the record and evidence, without when they were made."""
    return _unstamped({"record": envelope["record"], "evidence": envelope.get("evidence")})


def paired(base: Path, new: Path, out: Path, n: int, seed: int) -> dict[str, int]:
    """Draw ``n`` records of ``new``, each beside its version in ``base``, blinded."""
    rows = [json.loads(line) for line in new.read_text().splitlines() if line.strip()]
    by_id: dict[str, dict[str, Any]] = {}
    by_place: dict[tuple[str, str, int, str], dict[str, Any]] = {}
    for line in base.read_text().splitlines():
        if line.strip():
            envelope = json.loads(line)
            by_id[envelope["record"]["id"]] = envelope
            by_place.setdefault(_place(envelope), envelope)
    rng = random.Random(seed)
    picked = rng.sample(rows, min(n, len(rows)))
    out.mkdir(parents=True, exist_ok=True)
    key: dict[str, dict[str, str]] = {}
    counts = Counter[str]()
    for number, envelope in enumerate(picked):
        name = f"{number:02d}"
        old = by_id.get(envelope["record"]["id"]) or by_place.get(_place(envelope))
        if old is not None and _shown(old) == _shown(envelope):
            (out / f"{name}.json").write_text(json.dumps(_shown(envelope), indent=1))
            key[name] = {"": "both"}
            counts["same"] += 1
            continue
        sides = [("new", envelope), ("base", old)]
        rng.shuffle(sides)
        key[name] = {}
        for letter, (side, version) in zip("ab", sides, strict=True):
            if version is not None:
                (out / f"{name}-{letter}.json").write_text(json.dumps(_shown(version), indent=1))
                key[name][letter] = side
        counts["differ" if old is not None else "new only"] += 1
    (out / "key.json").write_text(json.dumps(key, indent=1))
    return dict(counts)


def by_side(results: list[dict[str, Any]], key: dict[str, dict[str, str]]) -> dict[str, Any]:
    """Each side's score over the same draw: a result named ``NN`` counts for both sides,
    ``NN-a``/``NN-b`` for the side the key gives it (a record only one side has counts for
    that side alone)."""
    sides: dict[str, list[dict[str, Any]]] = {"base": [], "new": []}
    for result in results:
        number, _, letter = str(result["n"]).partition("-")
        side = key.get(number, {}).get(letter)
        if side == "both":
            sides["base"].append(result)
            sides["new"].append(result)
        elif side in sides:
            sides[side].append(result)
    return {side: score(rows) for side, rows in sides.items()}


def _results(path: Path) -> list[dict[str, Any]]:
    if path.is_dir():
        return [json.loads(p.read_text()) for p in sorted(path.glob("*.json"))]
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def score(results: list[dict[str, Any]]) -> dict[str, Any]:
    """The review's figures: verdicts per 100 statements, usefulness, families by field."""
    verdicts: Counter[str] = Counter()
    false_by: Counter[str] = Counter()
    misleading_by: Counter[str] = Counter()
    with_false = 0
    for result in results:
        kinds = [s["verdict"] for s in result["statements"]]
        verdicts.update(kinds)
        with_false += "false" in kinds
        for s in result["statements"]:
            field = s["field"].split("[")[0].split(" ")[0]
            if s["verdict"] == "false":
                false_by[field] += 1
            elif s["verdict"] == "misleading":
                misleading_by[field] += 1
    total = sum(verdicts.values()) or 1
    return {
        "records": len(results),
        "statements": sum(verdicts.values()),
        "verdicts": dict(verdicts),
        "falsePer100": round(100 * verdicts["false"] / total, 1),
        "misleadingPer100": round(100 * verdicts["misleading"] / total, 1),
        "usefulness": round(sum(r["usefulness"] for r in results) / max(len(results), 1), 2),
        "vsSeed": dict(Counter(r["vs_seed"] for r in results)),
        "recordsWithFalse": with_false,
        "falseByField": dict(false_by.most_common()),
        "misleadingByField": dict(misleading_by.most_common()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    verbs = parser.add_subparsers(dest="verb", required=True)
    draw = verbs.add_parser("sample", help="draw the records to review")
    draw.add_argument("catalogue", type=Path, help="an `errdex export --jsonl` file")
    draw.add_argument("out", type=Path, help="folder for NN.json")
    draw.add_argument("--n", type=int, default=50)
    draw.add_argument("--seed", type=int, default=2212)
    scoring = verbs.add_parser("score", help="score reviewers' results")
    scoring.add_argument("results", type=Path, help="a folder of NN.json or a .jsonl file")
    scoring.add_argument("--key", type=Path, help="a paired draw's key.json: score each side")
    pair = verbs.add_parser("paired", help="draw records of NEW beside their BASE versions")
    pair.add_argument("base", type=Path, help="the baseline's `errdex export --jsonl` file")
    pair.add_argument("new", type=Path, help="the catalogue under review")
    pair.add_argument("out", type=Path, help="folder for NN.json / NN-a.json / NN-b.json")
    pair.add_argument("--n", type=int, default=50)
    pair.add_argument("--seed", type=int, default=2212)
    args = parser.parse_args(argv)
    if args.verb == "sample":
        print(f"wrote {sample(args.catalogue, args.out, args.n, args.seed)} records to {args.out}")
        return 0
    if args.verb == "paired":
        counts = paired(args.base, args.new, args.out, args.n, args.seed)
        print(f"wrote {sum(counts.values())} records to {args.out}: {counts}")
        return 0
    if not args.results.exists():
        print(f"no results at {args.results}", file=sys.stderr)
        return 2
    results = _results(args.results)
    if args.key is not None:
        print(json.dumps(by_side(results, json.loads(args.key.read_text())), indent=1))
        return 0
    print(json.dumps(score(results), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
