"""Share of message templates that are a single hole or a tuple repr (issue 10, item 6).

    PYTHONPATH=$PWD/src .venv/bin/python bench/template_shares.py [--packages click attrs ...]
        [--families]

Scans (extraction only, no analyst) the running standard library and a few installed
distributions, then counts per catalogue and overall: templates that are one hole and
nothing else (``{key}``), and of those the ones whose notes say they are irreducible
(``raise KeyError(key)``: the value is all the runtime prints); templates that are the
tuple repr ``BaseException.__str__`` prints for several arguments (``('a', {k})``). Run it
on two checkouts (``PYTHONPATH=<other>/src``) for a before/after on the same machine.
``--families`` adds, per catalogue, the reducible single holes and the tuple reprs grouped
by why they remain (the derivation note, else the message's style), most common first.
"""

from __future__ import annotations

import argparse
from collections import Counter
from typing import Any

from errdex.scan import scan_checkout
from errdex.source import open_source
from errdex.source.stdlib import stdlib_checkout
from errdex.template import Hole, MessageTemplate

PACKAGES = ("click", "attrs", "packaging", "httpx", "jinja2")


def kind_of(envelope: dict[str, Any]) -> str:
    """``single hole (irreducible)``, ``single hole``, ``tuple repr`` or ``other``."""
    site = (envelope.get("evidence") or {}).get("site") or {}
    if site.get("template") is None:
        return "other"
    template = MessageTemplate.from_json(site["template"])
    if len(template.parts) == 1 and isinstance(template.parts[0], Hole):
        notes = site.get("notes") or ()
        irreducible = any(str(n).startswith("irreducible") for n in notes)
        return "single hole (irreducible)" if irreducible else "single hole"
    display = template.display
    if site.get("style") == "multiple_args" and display.startswith("(") and display.endswith(")"):
        return "tuple repr"
    return "other"


KINDS = ("single hole", "single hole (irreducible)", "tuple repr")


def family_of(kind: str, envelope: dict[str, Any]) -> str:
    """Why a single hole or tuple repr remains: the note saying what was not followed or
    resolved (its module's file beside it), else the message's style."""
    site = (envelope.get("evidence") or {}).get("site") or {}
    notes = [str(n) for n in site.get("notes") or ()]
    why = next((n for n in notes if "not followed" in n or "not resolved" in n), None)
    where = str(envelope["record"].get("filePath", "")).rpartition("/")[2]
    return f"{kind}: {why or site.get('style')} ({where})"


def count(checkout: Any, repo: str, families: Counter[str] | None = None) -> Counter[str]:
    result = scan_checkout(checkout, repo=repo, analyze=False, read_tests=False)
    counts: Counter[str] = Counter()
    for r, e in result.items:
        kind = kind_of({"record": r, "evidence": e})
        counts[kind] += 1
        if families is not None and kind in ("single hole", "tuple repr"):
            families[family_of(kind, {"record": r, "evidence": e})] += 1
    counts["templates"] = len(result.items)
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--packages", nargs="*", default=list(PACKAGES))
    parser.add_argument("--families", action="store_true", help="group what remains")
    args = parser.parse_args()
    rows: dict[str, Counter[str]] = {}
    families: dict[str, Counter[str]] = {}
    stdlib = stdlib_checkout()
    families["stdlib"] = Counter()
    rows["stdlib"] = count(stdlib, stdlib.repo or "python/cpython", families["stdlib"])
    for name in args.packages:
        checkout = open_source(package=name)
        families[name] = Counter()
        rows[name] = count(checkout, checkout.repo or name, families[name])
    rows["overall"] = sum(rows.values(), Counter())
    print("| catalogue | templates | " + " | ".join(KINDS) + " |")
    print("|---" * (len(KINDS) + 2) + "|")
    for name, counts in rows.items():
        n = counts["templates"]
        cells = [f"{counts[k]} ({counts[k] / n:.1%})" if n else "-" for k in KINDS]
        print(f"| {name} | {n} | " + " | ".join(cells) + " |")
    if args.families:
        for name, found in families.items():
            print(f"\n{name}:")
            for family, n in found.most_common():
                print(f"  {n:4d}  {family}")


if __name__ == "__main__":
    main()
