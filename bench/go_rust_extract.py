"""Go and Rust extractors: recall against an independent count, speed beside the bare parse,
and matching of real panics provoked at run time.

    .venv/bin/python bench/go_rust_extract.py [--misses] [--rounds 3] [--no-provoke]

Corpus: every Go library Debian put under ``/usr/share/gocode/src`` and every crate under
``/usr/share/cargo/registry`` (install ``golang-github-spf13-pflag-dev``,
``golang-github-pkg-errors-dev``, ``librust-smallvec-dev``, ``librust-serde-xml-rs-dev``
… first), files listed as a scan lists them (tests, examples, vendored code left out).

(a) Recall: the sites that tree-sitter queries written here, apart from the extractor,
    find (each call, macro, ``.expect`` or ``#[error]`` the issue names, the outermost of
    nested ones, Rust test code left out), against the extractor's, by file and line.
    Rust test code, for the reference: items under a test-only cfg (``reference_sites``'
    three-valued cfg logic, ``#![cfg(test)]`` files too) and the files that a test-only
    ``mod x;`` declares, found by its own walk of the declarations to a fixed point
    (``rust_test_files``); the extractor's side is the files the scan lists.
(b) Speed: files and lines per second of ``extract()`` (parse included) and of the bare
    ``Parser.parse`` of the same bytes, file by file in turn, the best of ``--rounds``
    for each file; the ratio.
(c) Matching: the panics that tests/match/test_go_rust_traces.py provokes (pflag,
    smallvec, serde-xml-rs), matched top-1 from the whole trace and from the message alone.
"""

from __future__ import annotations

import argparse
import posixpath
import re
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from tree_sitter import Language, Node, Parser, Query, QueryCursor

from errdex.extract.registry import declared_test_files, is_test_file
from errdex.source import open_source
from errdex.source.files import iter_source_files
from reference_sites import _rust_test_only

GOCODE = Path("/usr/share/gocode/src")
REGISTRY = Path("/usr/share/cargo/registry")
#: The Debian packages that put the corpus (and the provoked panics' sources) there.
CORPUS_DEBS = (
    "golang-go",
    "golang-github-spf13-pflag-dev",
    "golang-github-pkg-errors-dev",
    "librust-smallvec-dev",
    "librust-serde-xml-rs-dev",
    "librust-anyhow-dev",
)

Key = tuple[str, int]

# -- the independent count -------------------------------------------------------------

_GO_REF = """
(call_expression function: (identifier) @fn) @site
(call_expression function: (selector_expression operand: (identifier) @pkg
  field: (field_identifier) @fn)) @site
(method_declaration name: (field_identifier) @m result: (type_identifier) @r
  body: (block) @body) @method
"""
_GO_CALLS = {
    ("", "panic"),
    ("errors", "New"),
    ("errors", "Errorf"),
    ("errors", "Wrap"),
    ("errors", "Wrapf"),
    ("errors", "WithMessage"),
    ("errors", "WithMessagef"),
    ("xerrors", "New"),
    ("xerrors", "Errorf"),
    ("fmt", "Errorf"),
    ("http", "Error"),
    *(("log", f) for f in ("Fatal", "Fatalf", "Fatalln", "Panic", "Panicf", "Panicln")),
}

_RUST_REF = """
(macro_invocation macro: (identifier) @name) @macro
(macro_invocation macro: (scoped_identifier name: (identifier) @name)) @macro
(call_expression function: (field_expression field: (field_identifier) @name)
  arguments: (arguments) @args) @method
(call_expression function: (scoped_identifier path: (_) @path name: (identifier) @name)
  arguments: (arguments) @args) @assoc
(attribute_item (attribute (identifier) @name arguments: (token_tree) @args)) @attr
[(struct_item name: (type_identifier) @own) (enum_item name: (type_identifier) @own)
 (type_item name: (type_identifier) @own)]
"""
_RUST_MACROS = {
    "panic",
    "unreachable",
    "todo",
    "unimplemented",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "bail",
    "anyhow",
    "ensure",
    "eyre",
}


def _text(node: Node | None) -> str:
    return "" if node is None else (node.text or b"").decode("utf-8", "replace")


def _outermost(sites: list[tuple[Node, Node]]) -> list[Node]:
    """The line nodes of the sites not nested inside another site."""
    kept: list[Node] = []
    end = -1
    for span, line_node in sorted(sites, key=lambda p: (p[0].start_byte, -p[0].end_byte)):
        if span.start_byte < end:
            continue
        end = span.end_byte
        kept.append(line_node)
    return kept


def go_reference(root: Node, query: Query) -> set[int]:
    sites: list[tuple[Node, Node]] = []
    for _, caps in QueryCursor(query).matches(root):
        if "site" in caps:
            call = caps["site"][0]
            pkg = _text(caps["pkg"][0]) if "pkg" in caps else ""
            if (pkg, _text(caps["fn"][0])) in _GO_CALLS:
                sites.append((call, call))
        elif (
            "method" in caps and _text(caps["m"][0]) == "Error" and _text(caps["r"][0]) == "string"
        ):
            stack = [caps["body"][0]]
            while stack:  # returns of an expression holding a string literal
                node = stack.pop()
                if node.type == "func_literal":
                    continue
                if node.type == "return_statement":
                    if "string_literal" in str(node) or "fmt.Sprintf" in _text(node):
                        sites.append((node, node))
                    continue
                stack.extend(node.named_children)
    return {n.start_point[0] + 1 for n in _outermost(sites)}


def rust_reference(root: Node, query: Query) -> set[int]:
    matches = QueryCursor(query).matches(root)
    # a bare ``Error`` is ``io::Error`` unless the file has an ``Error`` of its own (cc's)
    own_error = any(_text(c["own"][0]) == "Error" for _, c in matches if "own" in c)
    sites: list[tuple[Node, Node]] = []
    for _, caps in matches:
        name = _text(caps["name"][0]) if "name" in caps else ""
        if "macro" in caps and name in _RUST_MACROS:
            sites.append((caps["macro"][0], caps["macro"][0]))
        elif "method" in caps and name in ("expect", "expect_err", "context"):
            args = caps["args"][0].named_children
            literal = len(args) == 1 and (
                "string_literal" in args[0].type or _text(args[0]).startswith("format!")
            )
            if len(args) == 1 and (name != "context" or literal):
                field = caps["method"][0].child_by_field_name("function")
                line_node = field.child_by_field_name("field") if field is not None else None
                sites.append((caps["method"][0], line_node or caps["method"][0]))
        elif "assoc" in caps:
            path, args = _text(caps["path"][0]), caps["args"][0].named_children
            io_error = (path == "Error" and not own_error) or path.endswith("io::Error")
            if (
                io_error and name == "new" and len(args) == 2 and "ErrorKind::" in _text(args[0])
            ) or (io_error and name == "other" and len(args) == 1):
                sites.append((caps["assoc"][0], caps["assoc"][0]))
        elif "attr" in caps and name == "error":
            tree = caps["args"][0]
            if tree.named_child_count and tree.named_children[0].type in (
                "string_literal",
                "raw_string_literal",
            ):
                sites.append((caps["attr"][0], caps["attr"][0]))
    lines = set()
    for node in _outermost([s for s in sites if s[0].type != "attribute_item"]) + [
        s[1] for s in sites if s[0].type == "attribute_item"
    ]:
        if not _rust_test_only(node):
            lines.add(node.start_point[0] + 1)
    return lines


_RUST_MODS = "(mod_item name: (identifier) @name) @mod"
_DECLARES = re.compile(rb"\bmod\s+\w+\s*;")


def _declared(path: str, item: Node) -> list[str]:
    """The paths ``mod x;`` at ``item`` of the file ``path`` may name (Rust reference,
    "Modules"): from the folder of ``lib.rs``/``main.rs``/``mod.rs``/``src/bin/*.rs``,
    else of a folder named as the file; inline ``mod m {…}`` around it add ``m/``."""
    inline = []
    parent = item.parent
    while parent is not None:
        if parent.type == "mod_item":
            inline.insert(0, _text(parent.child_by_field_name("name")))
        parent = parent.parent
    folder, name = posixpath.split(path)
    own = (
        folder
        if name in ("lib.rs", "main.rs", "mod.rs", "build.rs") or folder.endswith("/bin")
        else path[:-3]
    )
    sibling = item.prev_named_sibling
    while sibling is not None and sibling.type in (
        "attribute_item",
        "line_comment",
        "block_comment",
    ):
        written = re.fullmatch(r'#\[\s*path\s*=\s*"([^"]*)"\s*\]', _text(sibling))
        if written:
            base = posixpath.join(own, *inline) if inline else folder
            return [posixpath.normpath(posixpath.join(base, written.group(1)))]
        sibling = sibling.prev_named_sibling
    module = posixpath.join(own, *inline, _text(item.child_by_field_name("name")))
    return [module + ".rs", module + "/mod.rs"]


def rust_test_files(files: list[tuple[str, bytes]], language: Language) -> set[str]:
    """The files that a ``mod x;`` that is test code declares, and, until none is added,
    those that any ``mod x;`` of such a file declares: what only ``cargo test`` compiles."""
    parser, query = Parser(language), Query(language, _RUST_MODS)
    listed = {path for path, _ in files}
    edges: list[tuple[str, bool, list[str]]] = []  # (declaring file, test item, its files)
    for path, data in files:
        if _DECLARES.search(data) is None:
            continue
        for _, caps in QueryCursor(query).matches(parser.parse(data).root_node):
            item = caps["mod"][0]
            if item.child_by_field_name("body") is None:
                edges.append((path, _rust_test_only(item), _declared(path, item)))
    tests: set[str] = set()
    grown = True
    while grown:
        grown = False
        for path, test, declared in edges:
            for target in declared:
                if (test or path in tests) and target in listed and target not in tests:
                    tests.add(target)
                    grown = True
    return tests


# -- corpus, recall, speed ----------------------------------------------------------------


def corpus(roots: list[Path], suffix: str, *, declared: bool = False) -> list[tuple[str, bytes]]:
    """The files a scan lists (with ``declared``, less those that other files declare
    test code, by the scan's rule)."""
    files: list[tuple[str, bytes]] = []
    for root in roots:
        checkout = open_source(str(root), repo="debian/" + root.name)
        rule = declared_test_files if declared else None
        listing = iter_source_files(
            checkout, suffixes=(suffix,), test_file=is_test_file, declared_tests=rule
        )
        for rel in listing.files:
            files.append((f"{root.name}/{rel}", (root / rel).read_bytes()))
    return files


def measure(
    name: str,
    files: list[tuple[str, bytes]],
    language: Language,
    extract: Callable[[str, str, list[str]], list[object]],
    reference: Callable[[Node, Query], set[int]],
    query_text: str,
    rounds: int,
    misses: bool,
    reference_files: list[tuple[str, bytes]] | None = None,
) -> None:
    """Recall and speed of ``extract`` over ``files``; the reference counts the sites of
    ``reference_files`` (listed apart from the scan's rules where they differ), else of
    ``files``."""
    parser = Parser(language)
    query = Query(language, query_text)
    ref: set[Key] = set()
    got: set[Key] = set()
    for path, data in files if reference_files is None else reference_files:
        ref |= {(path, line) for line in reference(parser.parse(data).root_node, query)}
    texts = [(path, data, data.decode("utf-8", "replace")) for path, data in files]
    for path, _data, text in texts:
        got |= {(path, s.line) for s in extract(text, path, text.splitlines())}  # type: ignore[attr-defined]
    found = ref & got
    lines = sum(text.count("\n") + 1 for _, _, text in texts)
    print(f"\n== {name}: {len(files)} files, {lines} lines")
    share = len(found) / len(ref) if ref else 1.0
    print(f"recall: {len(found)}/{len(ref)} reference sites = {share:.2%}  (goal >= 99%)")
    print(f"extractor sites beyond the reference count: {len(got - ref)}")
    if misses:
        for key in sorted(ref - got)[:40]:
            print("  missed", *key)
        for key in sorted(got - ref)[:20]:
            print("  extra ", *key)
    # file by file, parse and extract in turn, the best of the rounds of each: a burst of
    # load from the other jobs on the machine then hits both sides alike
    best_parse = best_extract = 0.0
    clock = time.perf_counter
    for path, data, text in texts:
        parse_times, extract_times = [], []
        for _ in range(rounds):
            start = clock()
            parser.parse(data)
            middle = clock()
            extract(text, path, text.splitlines())
            parse_times.append(middle - start)
            extract_times.append(clock() - middle)
        best_parse += min(parse_times)
        best_extract += min(extract_times)
    for label, seconds in (("bare parse", best_parse), ("extract()", best_extract)):
        print(
            f"{label:11s} {seconds:7.3f} s  {len(files) / seconds:8.0f} files/s"
            f"  {lines / seconds:10.0f} lines/s"
        )
    print(f"extract / parse = {best_extract / best_parse:.2f}x  (goal <= 1.5x)")


def matching() -> None:
    """Top-1 of the provoked panics, from the trace and from the message alone."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.match import test_go_rust_traces as provoked

    from errdex.match.api import answers, errors_in

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        (work / "go").mkdir()
        (work / "rust").mkdir()
        pastes = {
            **provoked.provoke_go(work / "go", provoked.go_tool()),
            **provoked.provoke_rust(work / "rust", provoked.cargo_tool()),
        }
        db = provoked.build_catalogue(work / "errdex.db")
        expected = provoked.expected_sites()
        print(
            f"\n== matching {len(pastes)} panics provoked at run time (pflag, smallvec, serde-xml-rs)"
        )
        for form in ("trace", "message"):
            right = confident_wrong = 0
            for case, trace in pastes.items():
                text = trace if form == "trace" else errors_in(trace)[-1].message
                final = answers(text, db)[-1]
                best = final.candidates[0] if final.candidates else None
                got = (best.repo, best.filePath, best.lineNumber) if best else None
                ok = got == expected[case]
                right += ok
                confident_wrong += bool(best and not ok and best.confidence >= 0.9)
                where = f"{got[1]}:{got[2]}" if got else final.status
                print(
                    f"  {form:7s} {case:12s} {'ok ' if ok else 'MISS'} {where}"
                    f" ({best.confidence if best else 0:.2f})"
                )
            share = right / len(pastes)
            print(
                f"top-1 from the {form}: {right}/{len(pastes)} = {share:.0%};"
                f" wrong with confidence >= 0.9: {confident_wrong}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--misses", action="store_true", help="print missed and extra sites")
    parser.add_argument("--no-provoke", action="store_true", help="skip (c)")
    args = parser.parse_args()

    import errdex.extract.go as go_extractor
    import errdex.extract.rust as rust_extractor

    missing = [str(corpus) for corpus in (GOCODE, REGISTRY) if not corpus.is_dir()]
    if missing:
        sys.exit(
            f"no corpus at {', '.join(missing)}: install Debian's {' '.join(CORPUS_DEBS)}"
            " (scripts/test installs them), then run this again"
        )
    go_roots = sorted(_go_modules())
    rust_roots = sorted(p for p in REGISTRY.iterdir() if (p / "src").is_dir())
    measure(
        "Go (/usr/share/gocode)",
        corpus(go_roots, ".go"),
        go_extractor._language(),
        go_extractor.extract,  # type: ignore[arg-type]
        go_reference,
        _GO_REF,
        args.rounds,
        args.misses,
    )
    # the reference lists the crates' files itself and leaves out those it finds declared
    # test code; the extractor reads the files the scan lists
    listed = corpus(rust_roots, ".rs")
    tests = rust_test_files(listed, rust_extractor._language())
    scanned = corpus(rust_roots, ".rs", declared=True)
    print(
        f"\nRust files only `cargo test` compiles, by the `mod x;` that declares them: "
        f"{len(tests)} by the reference's walk, {len(listed) - len(scanned)} left out by the scan"
    )
    measure(
        "Rust (/usr/share/cargo/registry)",
        scanned,
        rust_extractor._language(),
        rust_extractor.extract,  # type: ignore[arg-type]
        rust_reference,
        _RUST_REF,
        args.rounds,
        args.misses,
        [(path, data) for path, data in listed if path not in tests],
    )
    if not args.no_provoke:
        matching()


def _go_modules() -> list[Path]:
    """Each Go repository Debian ships: ``host/owner/name`` (``gopkg.in/name.vN``)."""
    roots = []
    for host in GOCODE.iterdir():
        depth = 1 if host.name == "gopkg.in" else 2
        for repo in host.glob("/".join(["*"] * depth)):
            if repo.is_dir() and not repo.is_symlink():
                roots.append(repo)
    return roots


if __name__ == "__main__":
    main()
