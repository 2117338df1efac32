"""Records that name the call of a generator or coroutine function as where the error
comes from or where to catch it, main against a branch (issue 10; blind review of stop
39: "It comes from a call of restore()", "Catch … around the call to select_or_reject()").

    PYTHONPATH=$PWD/src .venv/bin/python bench/lazy_call_points.py BASE.jsonl BRANCH.jsonl \
        --source DIR [--sample N --seed S]

``DIR`` is the checkout the catalogue was read from (for the stdlib: the directory whose
files the records' ``filePath`` names, without its leading ``Lib/``). An entry point counts
as lazy where its definition (``path``, ``line`` of the evidence) is an ``async def`` or
holds a ``yield``, under no decorator but ``staticmethod``/``classmethod`` (judged from the
source here, independently of errdex's own rule). A record counts where commonSituations
says "a call of `…f()`" or a solution says "around the call to `…f()`" for such an ``f``,
not preceded by the iteration or ``await`` words. Chains with a lazy function in the middle
are not counted here (errdex's own rule for them is what is measured).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import random
import re
from typing import Any

_PLAIN = {"staticmethod", "classmethod"}
#: A call named as where it comes from (not "awaiting a call of", "the result of a call
#: of") with the calls "or `g()`" it runs on to, or as the place to catch.
_SAID = re.compile(
    r"(?<!awaiting )(?<!result of )a call of (`[^`]+`(?: or `[^`]+`)*)|around the call to (`[^`]+`)"
)
_NAME = re.compile(r"`([^`]+)\(\)`")


def _lazy_defs(path: str, cache: dict[str, dict[int, str]]) -> dict[int, str]:
    if path not in cache:
        found: dict[int, str] = {}
        try:
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read())
        except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
            tree = None
        for node in ast.walk(tree) if tree is not None else ():
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            names = {ast.unparse(d).split("(")[0].rpartition(".")[2] for d in node.decorator_list}
            if names - _PLAIN:
                continue
            yields = any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in _own_nodes(node))
            if isinstance(node, ast.AsyncFunctionDef) or yields:
                found[node.lineno] = "async" if isinstance(node, ast.AsyncFunctionDef) else "gen"
        cache[path] = found
    return cache[path]


def _own_nodes(node: ast.AST) -> list[ast.AST]:
    out: list[ast.AST] = []
    stack = list(ast.iter_child_nodes(node))
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        out.append(n)
        stack.extend(ast.iter_child_nodes(n))
    return out


def _file(source: str, rel: str) -> str:
    rel = rel[4:] if rel.startswith("Lib/") else rel
    return os.path.join(source, rel)


def flagged(env: dict[str, Any], source: str, cache: dict[str, dict[int, str]]) -> list[str]:
    """The statements of ``env`` that name a lazy function's call as raising or to catch."""
    record, evidence = env["record"], env.get("evidence") or {}
    lazy: set[str] = set()
    for entry in evidence.get("entryPoints") or []:
        path, line = entry.get("path"), entry.get("line")
        if path and line and line in _lazy_defs(_file(source, path), cache):
            lazy.add(entry["qualname"].rpartition(".")[2])
    if not lazy:
        return []
    out = []
    texts = [("commonSituations", record["commonSituations"])]
    texts += [("solutions", s) for s in record["solutions"]]
    for field, text in texts:
        names = [
            n.rpartition(".")[2]
            for found in _SAID.finditer(text)
            for n in _NAME.findall(found.group(1) or found.group(2))
        ]
        if set(names) & lazy:
            out.append(f"{field}: {text[:160]}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("branch")
    parser.add_argument("--source", required=True)
    parser.add_argument("--sample", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    cache: dict[str, dict[int, str]] = {}
    counts = []
    by_id: list[dict[str, list[str]]] = []
    for name in (args.base, args.branch):
        found = {}
        with open(name, encoding="utf-8") as f:
            for line in f:
                env = json.loads(line)
                said = flagged(env, args.source, cache)
                if said:
                    found[env["record"]["id"]] = said
        counts.append(len(found))
        by_id.append(found)
    base, branch = counts
    ratio = f"{branch / base:.2f}" if base else "n/a"
    print("records naming a generator's/coroutine's call as the raise or catch point")
    print(f"  main {base}  branch {branch}  ratio {ratio}")
    left = sorted(set(by_id[1]))
    for rid in left[:20]:
        print(f"  still: {rid}: {by_id[1][rid][0]}")
    if args.sample:
        changed = sorted(set(by_id[0]) - set(by_id[1]))
        for rid in random.Random(args.seed).sample(changed, min(args.sample, len(changed))):
            print(f"  fixed: {rid}: {by_id[0][rid][0]}")


if __name__ == "__main__":
    main()
