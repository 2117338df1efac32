"""Which family each stdlib record whose way in is "not known" belongs to (issue 10).

    PYTHONPATH=$PWD/src .venv/bin/python bench/unknown_ways.py BASE.jsonl [BRANCH.jsonl]
        [--list FAMILY]

Reads exports of this Python's stdlib catalogue (``errdex export --jsonl``), picks the
records whose commonSituations says "Which public call leads here is not known", and
sorts each into one family by walking the calls up from its raise in this Python's
stdlib, every function counted (public or not):

* ``c-twin``: a C module runs in the raising function's place (``evidence.shadowedBy``);
* ``c-twin-callers``: nothing resolved calls the top of the walk, and the module's
  public names are bound to C code here (``datetime._check_utc_offset``, whose callers
  are methods of the pure-Python ``datetime``, which ``_datetime`` replaces);
* ``private-base``: a method on the way belongs to a private class (``_ConnectionBase``)
  and a public class below it inherits it unchanged (``Connection.recv``);
* ``private-made``: a public-named method on the way that is no way in by itself
  belongs to a class (or is inherited by one) a public function of the library returns
  an instance of (argparse's ``_MutuallyExclusiveGroup``);
* ``singledispatch``: functools' dispatch (``_find_impl``, ``_compose_mro``);
* ``private-module``: the raise is in a module with a private path (``_pyio``);
* ``nested``: the raise is in a nested function (``namedtuple.<locals>._replace``);
* ``no-caller``: the top of the walk is called by nothing the walk resolves (a
  callback, a method table, a C caller);
* ``cut``: the top has callers the walk did not take (depth, a handler, a name-only
  call).

With two exports, prints each family's count in both and the ratio.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from typing import Any

from errdex.analyze.chains import Chains
from errdex.analyze.classes import ClassTree
from errdex.analyze.entrypoints import FAR_DEPTH, PublicApi
from errdex.analyze.repo import RepoIndex, build_index
from errdex.source.stdlib import stdlib_checkout

NOT_KNOWN = "Which public call leads here is not known"
FAMILIES = (
    "c-twin",
    "c-twin-callers",
    "private-base",
    "private-made",
    "singledispatch",
    "private-module",
    "nested",
    "no-caller",
    "cut",
)


def not_known(path: str) -> list[dict[str, Any]]:
    """The envelopes of ``path`` whose way in is said not known."""
    with open(path, encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    return [r for r in rows if NOT_KNOWN in r["record"]["commonSituations"]]


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _private_path(module: str) -> bool:
    return any(p.startswith("_") and p not in ("__init__", "__main__") for p in module.split("."))


class Families:
    """Sorts records into :data:`FAMILIES` over one index of this Python's stdlib."""

    def __init__(self) -> None:
        self.index: RepoIndex = build_index(stdlib_checkout())
        self.chains = Chains(self.index, ClassTree(self.index))
        self.api = PublicApi(self.index)
        self.below = self.chains.subclasses()
        self.made: set[str] = self._made()

    def _made(self) -> set[str]:
        """Classes a public function of the library returns an instance of."""
        out: set[str] = set()
        for defs in self.index.functions.values():
            for func in defs:
                if not self.api.is_public(func.qualname):
                    continue
                for ref in {r for values in func.returns for r in values if r}:
                    target = self.index.resolve(func.module, ref, func.local_imports)
                    if target is not None and target.kind == "class":
                        out.add(target.qualname)
        return out

    def family(self, envelope: dict[str, Any]) -> str:
        record, evidence = envelope["record"], envelope["evidence"]
        site = evidence.get("site", {})
        function = str(site.get("qualname") or "")
        func = self.index.function(function, record["lineNumber"])
        if func is None:
            return "cut"
        module = func.module
        if evidence.get("shadowedBy") and "kind" not in evidence["shadowedBy"]:
            return "c-twin"
        cls = self.index.canonical_class(module, (str(record.get("errorClass") or ""),))
        hops = self.chains.walk(function, cls, max_depth=FAR_DEPTH, at=record["lineNumber"]).hops
        for hop in hops:
            if self._inherited(hop.qualname):
                return "private-base"
        for hop in hops:
            func = self.index.function(hop.qualname)
            if func is None or func.cls is None or _private(func.name):
                continue
            if self.api.is_public(hop.qualname):
                continue
            if {func.cls, *self.below.get(func.cls, ())} & self.made:
                return "private-made"
        if any("singledispatch" in h.qualname or "_find_impl" in h.qualname for h in hops):
            return "singledispatch"
        if _private_path(module):
            return "private-module"
        if "<locals>" in function:
            return "nested"
        reached = {h.qualname for h in hops}
        tops = [h.qualname for h in hops if not self._callers(h.qualname) & reached]
        if tops and not any(self._callers(q) for q in tops):
            # the module's public classes are C code here (``datetime``'s): what called
            # the helper is replaced, and the call graph leaves it out
            shadowed = self.index.modules[module].shadowed
            return "c-twin-callers" if shadowed else "no-caller"
        return "cut"

    def _callers(self, qualname: str) -> set[str]:
        return {c.qualname for c, _ in self.chains.callers.get(qualname, ()) if not c.is_test}

    def _inherited(self, qualname: str) -> bool:
        """A public-named method of a private class a public class inherits unchanged."""
        func = self.index.function(qualname)
        if func is None or func.cls is None or _private(func.name):
            return False
        owner = self.index.classes.get(func.cls)
        if owner is None or not owner.name.startswith("_"):
            return False
        for sub in self.below.get(func.cls, ()):
            facts = self.index.classes.get(sub)
            if facts is None or facts.name.startswith("_") or _private_path(facts.module):
                continue
            if self.index.method(sub, func.name) == qualname:
                return True
        return False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base")
    parser.add_argument("branch", nargs="?")
    parser.add_argument("--list", choices=FAMILIES)
    args = parser.parse_args()
    families = Families()
    sides = [not_known(args.base)] + ([not_known(args.branch)] if args.branch else [])
    tallies = []
    for rows in sides:
        tally: Counter[str] = Counter()
        for row in rows:
            kind = families.family(row)
            tally[kind] += 1
            if args.list == kind and rows is sides[0]:
                rec = row["record"]
                where = f"{rec['filePath']}:{rec['lineNumber']}"
                print(f"  {rec['id']} {where} {row['evidence']['site'].get('qualname')}")
        tallies.append(tally)
    print(f"{'family':<16} " + " ".join(f"{n:>8}" for n in ("main", "branch")[: len(sides)]))
    for kind in (*FAMILIES, "total"):
        counts = [sum(t.values()) if kind == "total" else t[kind] for t in tallies]
        ratio = f" {counts[1] / counts[0]:.3f}" if len(counts) == 2 and counts[0] else ""
        print(f"{kind:<16} " + " ".join(f"{c:>8}" for c in counts) + ratio)


if __name__ == "__main__":
    main()
