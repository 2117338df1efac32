"""Solutions that say how to fix, main against a branch (issue 10, "fixes in the caller's terms").

    PYTHONPATH=$PWD/src .venv/bin/python bench/solution_kinds.py BASE.jsonl BRANCH.jsonl
        [--causes] [--sample N --seed S]

Reads two exports of the same catalogue (``errdex export --jsonl``), one built with
main's code and one with the branch's, and prints side by side, with the ratio:

- the records of each family: ``no real fix`` (no solution says what to change: only
  "errdex found no fix", a catch, or the message restated) and ``restates the message``
  (a solution that only quotes the message: "The message states the cause/requirement");
- each kind of solution, by how its text begins;
- with ``--causes``, the records of the two families by why nothing better was written:
  what the innermost condition reads (nothing, a handler, only ``self``'s or private
  state, locals, parameters that no entry point passes on unchanged...).

``--sample N`` prints N records (by ``--seed``) whose solutions the branch changed, each
with its old and new solutions, its guards and its file and line, to be read against the
source. Roles (abstract methods, control-flow signals) and warnings are not failures to
fix and count in neither family.
"""

from __future__ import annotations

import argparse
import ast
import json
import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

Envelope = dict[str, Any]

#: Solution kinds by how the text begins, first match wins.
KINDS: tuple[tuple[str, str], ...] = (
    ("errdex found no fix", "no fix"),
    ("The message states the requirement", "restates (requirement)"),
    ("The message states the cause", "restates (cause)"),
    ("Follow the message's own advice", "message advice"),
    # the families of analyze/message_fixes (issue 10): what the raise's shape states
    ("Objects of `", "the raise's shape"),
    ("A subclass of `", "the raise's shape"),
    ("Do not call `", "the raise's shape"),
    ("Do not pass this object", "the raise's shape"),
    ("Write `", "the raise's shape"),
    ("Pass the arguments of", "the raise's shape"),
    ("Pass the parameter the message names", "the raise's shape"),
    ("Use a value other than `None`", "the raise's shape"),
    # analyze/family_fixes, line_asserts, protocol_fixes (issue 10, stop 39)
    ("Make the generator function", "the raise's shape"),
    ("Remove the keyword argument the message names", "the raise's shape"),
    ("Make an instance of a subclass", "the raise's shape"),
    ("Correct the line of the file", "the raise's shape"),
    ("Pass an object whose class defines", "the raise's shape"),
    ("Set `", "the raise's shape"),
    ("The message marks a branch", "unreachable branch (no requirement)"),
    ("Pass `", "pass a parameter"),
    ("Pass at most one of", "pass a parameter"),
    ("When calling `", "pass a parameter"),
    ("One way out, where the call allows it", "pass a parameter (one way out)"),
    ("Use a ", "use a valid value"),
    ("The docstring of", "docstring of the entry point"),
    ("The docstring", "docstring (raises)"),
    ("Implement ", "implement (abstract)"),
    ("Nothing to fix", "signal (not a failure)"),
    ("Catch ", "catch"),
    ("It is raised while", "catch (in a handler)"),
    ("Callers of ", "catch (converted)"),
    ("It does not reach", "caught by the library"),
    ("The check reads only the object's own state", "object state (call order)"),
    ("Call `", "object state (a check the caller repeats)"),
)
#: Kinds that tell the caller what to change.
FIXES = frozenset(
    {
        "message advice",
        "pass a parameter (in words)",
        "pass a parameter (in code)",
        "pass a parameter (one way out)",
        "use a valid value",
        "docstring of the entry point",
        "implement (abstract)",
        "gate",
        "object state (a check the caller repeats)",
        "the raise's shape",
        "use a class that defines the hook",
    }
)
#: Kinds that are no failure to fix.
NOT_FAILURES = frozenset({"signal (not a failure)", "warning", "role"})
CONDITION_KINDS = frozenset({"if", "elif", "else", "assert", "while-else"})


def kind(text: str) -> str:
    for head, name in KINDS:
        if text.startswith(head) and name == "pass a parameter (one way out)":
            return name
        if text.startswith(head) and name == "pass a parameter":
            said = "in code" if " so that `" in text.split(":")[0] else "in words"
            return f"{name} ({said})"
        if text.startswith(head):
            return name
    if " is a warning" in text.split(":")[0]:
        return "warning"
    if " is how " in text or "do not treat it" in text:
        return "role"
    if "its handler lets" in text:
        return "gate"
    if " to its subclasses: " in text.split(".")[0]:  # analyze/hook_fixes
        return "use a class that defines the hook"
    return "other"


def kinds(env: Envelope) -> list[str]:
    return [kind(s) for s in env["record"]["solutions"]]


def families(env: Envelope) -> tuple[bool, bool]:
    """(no real fix, restates the message)."""
    found = set(kinds(env))
    if found & NOT_FAILURES:
        return False, False
    restates = any(k.startswith("restates") for k in found)
    return not (found & FIXES), restates


def _params(env: Envelope) -> set[str]:
    signature = (env["evidence"].get("function") or {}).get("signature") or ""
    try:
        node = ast.parse(signature.strip().rstrip(":") + ": pass").body[0]
    except SyntaxError:
        return set()
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return set()
    a = node.args
    return {x.arg for x in [*a.posonlyargs, *a.args, *a.kwonlyargs]} - {"self", "cls"}


def _names(text: str) -> tuple[set[str], bool] | None:
    """Free names of a condition, and whether it reads a private attribute."""
    try:
        node = ast.parse(text, mode="eval")
    except SyntaxError:
        return None
    names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
    private = any(
        isinstance(n, ast.Attribute) and n.attr.startswith("_") and not n.attr.endswith("__")
        for n in ast.walk(node)
    ) or any(x.startswith("_") and not x.endswith("__") for x in names)
    return names, private


def cause(env: Envelope) -> str:
    """Why a record of the two families has no fix in the caller's terms."""
    site = env["evidence"]["site"]
    guards = site.get("guards") or []
    if site.get("kind") == "warn":
        return "a warning"
    inner = next(
        (g for g in reversed(guards) if g["kind"] == "except" or g["kind"] in CONDITION_KINDS),
        None,
    )
    if inner is None:
        return "no condition on the way"
    if inner["kind"] == "except":
        return "raised in a handler"
    if inner["kind"] == "else":
        return "an else branch"
    read = _names(str(inner["text"]))
    if read is None:
        return "condition does not parse"
    names, private = read
    names -= {"len", "isinstance", "type", "hasattr", "callable", "getattr", "None"}
    params = _params(env)
    over_params = names & params
    entries = env["evidence"].get("entryPoints") or []
    passed = any(over_params <= set((e.get("passes") or {}).keys()) for e in entries)
    if over_params and passed and not (names - params - {"self", "cls"}) and not private:
        return "over passed parameters (worded elsewhere)"
    if over_params and not entries:
        return "over parameters, no entry point found"
    if over_params and not passed:
        return "over parameters no entry point passes on unchanged"
    if over_params:
        return "over parameters and other names"
    if private:
        return "reads private state"
    if names <= {"self", "cls"} and names:
        return "reads public attributes of self"
    if names:
        return "reads locals or globals only"
    return "constant condition"


def _row(name: str, base: int, branch: int) -> str:
    ratio = f"{branch / base:.2f}" if base else "-"
    return f"  {name:<52} {base:>7} {branch:>7} {ratio:>6}"


def _table(title: str, base: Counter[str], branch: Counter[str], keys: Iterable[str]) -> None:
    print(f"{title:<54} {'main':>7} {'branch':>7} {'ratio':>6}")
    for key in keys:
        print(_row(key, base[key], branch[key]))


def load(path: str) -> dict[str, Envelope]:
    with open(path, encoding="utf-8") as f:
        return {e["record"]["id"]: e for e in map(json.loads, f)}


def tally(records: dict[str, Envelope]) -> tuple[Counter[str], Counter[str], Counter[str]]:
    fam: Counter[str] = Counter()
    sol: Counter[str] = Counter()
    why: Counter[str] = Counter()
    for env in records.values():
        fam["records"] += 1
        none, restates = families(env)
        fam["no real fix"] += none
        fam["restates the message"] += restates
        fam["has a fix in the caller's terms"] += bool(set(kinds(env)) & FIXES)
        sol.update(kinds(env))
        if none:
            why[f"no real fix: {cause(env)}"] += 1
        if restates:
            why[f"restates: {cause(env)}"] += 1
    return fam, sol, why


def sample(base: dict[str, Envelope], branch: dict[str, Envelope], n: int, seed: int) -> None:
    changed = sorted(
        i
        for i, env in branch.items()
        if i in base
        and env["record"]["solutions"] != base[i]["record"]["solutions"]
        and set(kinds(env)) - set(kinds(base[i]))
    )
    print(f"\n{len(changed)} records with a new kind of solution; {min(n, len(changed))} drawn")
    for i in random.Random(seed).sample(changed, min(n, len(changed))):
        env = branch[i]
        r, s = env["record"], env["evidence"]["site"]
        print(f"\n== {r['filePath']}:{r['lineNumber']} {s['qualname']} {r['errorClass']}")
        print(f"   message: {r['errorMessage'][:160]}")
        print(f"   guards:  {[g['text'] for g in s.get('guards') or []]}")
        for old in base[i]["record"]["solutions"]:
            print(f"   - {old[:300]}")
        for new in r["solutions"]:
            print(f"   + {new[:300]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("base")
    parser.add_argument("branch")
    parser.add_argument("--causes", action="store_true")
    parser.add_argument("--sample", type=int, default=0)
    parser.add_argument("--seed", type=int, default=10)
    args = parser.parse_args()
    base, branch = load(args.base), load(args.branch)
    fb, sb, wb = tally(base)
    fn, sn, wn = tally(branch)
    _table("records", fb, fn, fb.keys())
    _table("solutions by kind", sb, sn, sorted(set(sb) | set(sn), key=lambda k: -sb[k] - sn[k]))
    if args.causes:
        keys = sorted(set(wb) | set(wn), key=lambda k: (k.split(":")[0], -wb[k]))
        _table("families by cause", wb, wn, keys)
    if args.sample:
        sample(base, branch, args.sample, args.seed)


if __name__ == "__main__":
    main()
