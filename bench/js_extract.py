"""JavaScript extraction: recall against an independent tree-sitter count, speed beside the
bare parse, and matching of real errors provoked from axios and express.

PYTHONPATH=$PWD/src .venv/bin/python bench/js_extract.py [--repeat 3]

The corpus is every package npm installs for axios 1.7.9 and express 4.21.2 (their
dependencies included), listed as ``errdex scan`` lists each (tests, ``dist/`` and
minified files left out). The reference count is a query written here, apart from the
extractor: every ``throw`` statement and every ``reject(...)``/``Promise.reject(...)``
except one that passes on its own ``catch`` parameter, every ``console.error``/
``console.warn``, every ``next``/``done``/``cb``/``callback(new …)``, every
``createError(…)`` outside a throw, and every ``res.status(4xx|5xx).…(…)`` and
``sendStatus(4xx|5xx)``, each counted once per line.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import tree_sitter
import tree_sitter_javascript
import tree_sitter_typescript

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.extract.test_javascript_npm import npm_packages
from tests.match.test_node_traces import PROVOKED, js_catalogue, provoke, true_line

from errdex._gc import gc_paused
from errdex.extract.javascript import extract, minified_reason
from errdex.extract.registry import extractor_for, source_suffixes
from errdex.match.api import answers
from errdex.source import iter_source_files, open_source

REFERENCE = r"""
(throw_statement) @throw
(call_expression function: (member_expression object: (identifier) @o property: (property_identifier) @p)
  (#eq? @o "console") (#any-of? @p "error" "warn")) @console
(call_expression function: (identifier) @f (#eq? @f "reject")) @reject
(call_expression function: (member_expression property: (property_identifier) @f) (#eq? @f "reject")) @reject
(call_expression function: (identifier) @f (#any-of? @f "next" "done" "cb" "callback")
  arguments: (arguments . (new_expression))) @callback
(call_expression function: (identifier) @f (#any-of? @f "createError" "createHttpError")) @create
(call_expression function: (member_expression object: (call_expression
    function: (member_expression property: (property_identifier) @s) arguments: (arguments . (number) @n)))
  (#eq? @s "status") (#match? @n "^[45][0-9][0-9]$")) @status
(call_expression function: (member_expression property: (property_identifier) @s)
  arguments: (arguments . (number) @n) (#eq? @s "sendStatus") (#match? @n "^[45][0-9][0-9]$")) @status
"""


_LANGUAGES = {
    "tsx": tree_sitter.Language(tree_sitter_typescript.language_tsx()),
    "typescript": tree_sitter.Language(tree_sitter_typescript.language_typescript()),
    "javascript": tree_sitter.Language(tree_sitter_javascript.language()),
}
_QUERIES = {name: tree_sitter.Query(language, REFERENCE) for name, language in _LANGUAGES.items()}


def dialect(path: str) -> str:
    if path.endswith(".tsx"):
        return "tsx"
    if path.endswith((".ts", ".mts", ".cts")):
        return "typescript"
    return "javascript"


def grammar(path: str) -> tree_sitter.Language:
    return _LANGUAGES[dialect(path)]


def corpus(node_modules: Path) -> list[tuple[str, str]]:
    """(repo-relative path prefixed by the package, text) of every listed JS/TS file."""
    suffixes = source_suffixes(["javascript", "typescript"])
    files: list[tuple[str, str]] = []
    for package in sorted(
        p for p in node_modules.iterdir() if p.is_dir() and not p.name.startswith(".")
    ):
        listing = iter_source_files(
            open_source(str(package), repo=f"npm/{package.name}"), suffixes=suffixes
        )
        for rel in listing.files:
            text = (package / rel).read_text(encoding="utf-8", errors="surrogateescape")
            if minified_reason(text, rel, text.splitlines()) is None:
                files.append((f"{package.name}/{rel}", text))
    return files


def _rethrow(node: tree_sitter.Node) -> bool:
    """``catch (e) { … throw e; }`` (or ``reject(e)``): the reference does not count an
    error passed on by the ``catch`` that caught it."""
    if node.type == "call_expression":
        args = node.child_by_field_name("arguments")
        node = args if args is not None else node
    arg = node.named_children[0] if node.named_children else None
    if arg is None or arg.type != "identifier":
        return False
    parent = node.parent
    while parent is not None:
        if parent.type == "catch_clause":
            param = parent.child_by_field_name("parameter")
            if param is not None and param.text == arg.text:
                return True
        parent = parent.parent
    return False


def _inside_throw(node: tree_sitter.Node) -> bool:
    parent = node.parent
    while parent is not None and parent.type not in ("statement_block", "program"):
        if parent.type == "throw_statement":
            return True
        parent = parent.parent
    return False


def reference(files: list[tuple[str, str]]) -> dict[str, set[tuple[str, int]]]:
    """The sites by kind, as (file, line), from the query above."""
    found: dict[str, set[tuple[str, int]]] = {}
    for path, text in files:
        query = _QUERIES[dialect(path)]
        tree = tree_sitter.Parser(grammar(path)).parse(text.encode("utf-8", "surrogateescape"))
        captures = tree_sitter.QueryCursor(query).captures(tree.root_node)
        for kind in ("throw", "console", "reject", "callback", "create", "status"):
            for node in captures.get(kind, ()):
                if kind in ("throw", "reject") and _rethrow(node):
                    continue
                if kind == "create" and _inside_throw(node):
                    continue
                found.setdefault(kind, set()).add((path, node.start_point[0] + 1))
    return found


def recall(files: list[tuple[str, str]]) -> None:
    ref = reference(files)
    sites: set[tuple[str, int]] = set()
    worded = total_sites = 0
    for path, text in files:
        found = extract(text, path, text.splitlines())
        sites.update((path, s.line) for s in found)
        total_sites += len(found)
        worded += sum(not s.template.is_opaque for s in found)
    total = set().union(*ref.values())
    print(f"\nrecall on {len(files)} files ({sum(t.count(chr(10)) for _, t in files)} lines)")
    print(f"{'kind':10}{'reference':>10}{'errdex':>8}{'recall':>9}")
    for kind, wanted in sorted(ref.items()):
        hit = len(wanted & sites)
        print(f"{kind:10}{len(wanted):>10}{hit:>8}{hit / len(wanted):>9.1%}")
    hit = len(total & sites)
    print(f"{'all':10}{len(total):>10}{hit:>8}{hit / len(total):>9.1%}")
    missed = sorted(total - sites)
    for path, line in missed[:15]:
        text = dict(files)[path].splitlines()[line - 1].strip()
        print(f"  missed {path}:{line}: {text[:90]}")
    print(f"sites whose template has literal text: {worded}/{total_sites}")
    extra = sites - total
    print(
        f"errdex sites the reference does not count: {len(extra)} (rejections and callbacks of a bound error, re-throws excluded by both)"
    )


def speed(files: list[tuple[str, str]], repeat: int) -> None:
    """Wall and CPU seconds (this thread's: the machine is shared, so the CPU ratio is
    the steadier one) of each step, the cyclic GC paused as ``errdex scan`` pauses it."""
    prepared = [(p, t, t.splitlines(), t.encode("utf-8", "surrogateescape")) for p, t in files]
    parsers = {p: tree_sitter.Parser(grammar(p)) for p, _ in files}
    keywords = extractor_for("x.js").keywords  # type: ignore[union-attr]
    steps = ("tree-sitter parse", "encode + parse", "extract, every file", "extract, as scan")
    wall: dict[str, list[float]] = {name: [] for name in steps}
    cpu: dict[str, list[float]] = {name: [] for name in steps}

    def timed(name: str, run: Callable[[], None]) -> None:
        started, cpu_started = time.perf_counter(), time.thread_time()
        run()
        wall[name].append(time.perf_counter() - started)
        cpu[name].append(time.thread_time() - cpu_started)

    def parse() -> None:
        for path, _, _, data in prepared:
            parsers[path].parse(data)

    def encode_parse() -> None:  # the extractor is handed text, as the scan reads it
        for path, text, _, _ in prepared:
            parsers[path].parse(text.encode("utf-8", "surrogateescape"))

    def every() -> None:
        for path, text, lines, _ in prepared:
            extract(text, path, lines)

    def as_scan() -> None:
        for path, text, lines, _ in prepared:
            if any(word in text for word in keywords):  # the scan's cheap skip
                extract(text, path, lines)

    with gc_paused():
        for _ in range(repeat):  # interleaved, so the machine's load hits all alike
            for name, run in zip(steps, (parse, encode_parse, every, as_scan), strict=True):
                timed(name, run)
    line_count = sum(len(x[2]) for x in prepared)
    base = statistics.median(wall["tree-sitter parse"])
    cpu_base = statistics.median(cpu["tree-sitter parse"])
    print(f"\nspeed, median of {repeat} (same files, same process)")
    print(f"{'':22}{'s':>8}{'files/s':>10}{'lines/s':>11}{'x parse':>9}{'cpu x parse':>13}")
    for name in steps:
        seconds = statistics.median(wall[name])
        print(
            f"{name:22}{seconds:>8.3f}{len(prepared) / seconds:>10.0f}"
            f"{line_count / seconds:>11.0f}{seconds / base:>9.2f}"
            f"{statistics.median(cpu[name]) / cpu_base:>13.2f}"
        )


def matching(node_modules: Path, work: Path) -> None:
    db = js_catalogue(node_modules, work / "errdex.db")
    tallies: Counter[str] = Counter()
    for package, kind, script, path, needle in PROVOKED:
        text = provoke(node_modules, kind, script)
        want = (f"{package}/{package}", path, true_line(node_modules / package / path, needle))
        final = answers(text, db)[-1]
        header = f"{final.error_class}: {final.message}" if final.error_class else final.message
        for form, paste in (("trace", text), ("message", header)):
            best = answers(paste, db)[-1].candidates[:1]
            got = (best[0].repo, best[0].filePath, best[0].lineNumber) if best else None
            tallies[f"{form} total"] += 1
            if got == want:
                tallies[f"{form} top1"] += 1
            else:
                strong = bool(best) and best[0].confidence >= 0.9
                tallies[f"{form} wrong>=0.9"] += strong
                confidence = best[0].confidence if best else None
                print(
                    f"  miss ({form}): {header[:70]} -> {got} at {confidence}, want line {want[2]}"
                )
    print(f"\nmatching {len(PROVOKED)} real errors provoked from axios and express")
    for form in ("trace", "message"):
        total = tallies[f"{form} total"]
        print(
            f"{form:8} top-1 {tallies[f'{form} top1']}/{total} "
            f"({tallies[f'{form} top1'] / total:.1%}), wrong at >= 0.9: {tallies[f'{form} wrong>=0.9']}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    node_modules = npm_packages()
    files = corpus(node_modules)
    recall(files)
    speed(files, args.repeat)
    import tempfile

    with tempfile.TemporaryDirectory() as work:
        matching(node_modules, Path(work))


if __name__ == "__main__":
    main()
