"""The C/C++ extractor on real extension sources: recall, speed, and matching.

    PYTHONPATH=$PWD/src .venv/bin/python bench/c_extract.py

Corpus: the sdists of simplejson, ujson (with its vendored double-conversion) and
pybind11 (its headers and its own test suite), fetched with pip into the test cache.

* Recall: a reference count written apart from the extractor, a tree-sitter query with
  its own name patterns (``#match?``) for every ``PyErr_*`` call that sets an error or
  warns, pybind11's/nanobind's error helpers, and every ``throw`` of a constructed
  object (``throw;``, ``throw e;`` and ``error_already_set`` carry no message of their
  own) — against the (file, line) of the sites errdex's extractor gives.
* Speed: files and lines per second of the extractor beside the bare tree-sitter parse
  of the same files in the same run (the extractor's time includes its own parse), in
  CPU time, the best of 3 passes, per package and overall.
* Matching: errors provoked at run time from simplejson's and ujson's compiled code
  (scripts misusing their APIs), matched against a catalogue of both sdists: top-1 from
  the traceback and from the message alone (``Class: message``), and wrong first
  answers at confidence >= 0.9. Errors the C extractor cannot see (simplejson raises its
  decode errors through a helper taking the message as an argument) are counted apart.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import tree_sitter

from errdex.extract.c import extract_c, language_of
from errdex.extract.c.grammar import language, parser_for
from errdex.match.api import answers, errors_in
from errdex.match.rank import Candidate
from errdex.store import SqliteStore

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.extract._c_sdists import sdist, store_compiled, wheels

SHA = "0" * 40
SUFFIXES = (".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh")
_SETTERS = (
    "^_?PyErr_(SetString|Format|SetObject|SetNone|NoMemory|BadArgument|BadInternalCall"
    "|SetFromErrno.*|SetImportError|Warn.*|ResourceWarning)$"
)
_HELPERS = "^((py|pybind11)::set_error|pybind11_fail|(nb|nanobind)::raise(_type_error)?)$"
REFERENCE_C = f"""
((call_expression function: (identifier) @fn) @site (#match? @fn "{_SETTERS}"))
((call_expression function: (identifier) @fn) @site (#match? @fn "{_HELPERS}"))
"""
REFERENCE_CPP = (
    REFERENCE_C
    + f"""
((call_expression function: (qualified_identifier) @fn) @site (#match? @fn "{_HELPERS}"))
(throw_statement (call_expression function: (_) @fn) @site)
"""
)


def corpus() -> list[Path]:
    roots = [
        sdist("simplejson"),
        sdist("ujson"),
        sdist("pybind11") / "include",
        sdist("pybind11") / "tests",
    ]
    return sorted(
        p for root in roots for p in root.rglob("*") if p.suffix in SUFFIXES and p.is_file()
    )


def reference(path: Path, data: bytes) -> set[tuple[str, int]]:
    dialect = language_of(str(path), data)
    query = tree_sitter.Query(language(dialect), REFERENCE_CPP if dialect == "cpp" else REFERENCE_C)
    tree = parser_for(dialect).parse(data)
    found = set()
    for _, captures in tree_sitter.QueryCursor(query).matches(tree.root_node):
        (site,), (fn,) = captures["site"], captures["fn"]
        if (fn.text or b"").endswith(b"error_already_set"):
            continue
        found.add((str(path), site.start_point[0] + 1))
    return found


def recall_and_speed(files: list[Path]) -> None:
    expected: set[tuple[str, int]] = set()
    got: set[tuple[str, int]] = set()
    lines = 0
    sources = []
    for path in files:
        data = path.read_bytes()
        text = data.decode("utf-8", "replace")
        lines += text.count("\n")
        expected |= reference(path, data)
        got |= {(s.file_path, s.line) for s in extract_c(text, str(path))}
        sources.append((path, data, text, language_of(str(path), data), _package_of(path)))
    hit = expected & got
    print(f"corpus: {len(files)} files, {lines} lines")
    print(
        f"recall: {len(hit)}/{len(expected)} reference sites = {len(hit) / max(1, len(expected)):.1%}"
    )
    for missed, line in sorted(expected - got)[:10]:
        print(f"  missed {missed}:{line}")
    print(f"beyond the reference (argument parsers, status errors): {len(got - expected)} sites")
    # CPU time of this process (the machine is shared), each file parsed then extracted;
    # per package the least parse time and the least extract time of 3 passes
    by_package: dict[str, list[float]] = {}  # package -> [parse s, extract s, lines]
    for _ in range(3):
        passed: dict[str, list[float]] = {}
        for path, data, text, dialect, package in sources:
            start = time.process_time()
            parser_for(dialect).parse(data)
            parsed = time.process_time() - start
            start = time.process_time()
            extract_c(text, str(path))
            extracted = time.process_time() - start
            row = passed.setdefault(package, [0.0, 0.0, 0.0])
            row[0] += parsed
            row[1] += extracted
            row[2] += text.count("\n")
        for package, row in passed.items():
            best = by_package.setdefault(package, row)
            best[0], best[1] = min(best[0], row[0]), min(best[1], row[1])
    parse_s = sum(r[0] for r in by_package.values())
    extract_s = sum(r[1] for r in by_package.values())
    print(
        f"speed (CPU time, best of 3 per package): parse {parse_s:.2f}s "
        f"({len(files) / parse_s:.0f} files/s, {lines / parse_s:.0f} lines/s); "
        f"extract {extract_s:.2f}s ({len(files) / extract_s:.0f} files/s, "
        f"{lines / extract_s:.0f} lines/s); ratio {extract_s / parse_s:.2f}x"
    )
    for package, (parsed, extracted, n) in by_package.items():
        print(
            f"  {package}: {n:.0f} lines, parse {parsed:.2f}s, extract {extracted:.2f}s, "
            f"ratio {extracted / parsed:.2f}x"
        )


def _package_of(path: Path) -> str:
    """The sdist a corpus file comes from (``simplejson-4.3.0`` -> ``simplejson``)."""
    folder = next(p for p in path.parents if p.parent == sdist("simplejson").parent)
    return folder.name.rpartition("-")[0]


#: (script, the C file that raises it and text on the line that does, or None when the C
#: extractor cannot see the site)
PROVOKED: list[tuple[str, tuple[str, str] | None]] = [
    (
        "import simplejson\nsimplejson.dumps({1j: 1})",
        ("simplejson/_speedups.c", "keys must be str"),
    ),
    (
        "import simplejson\na = []\na.append(a)\nsimplejson.dumps(a)",
        ("simplejson/_speedups.c", "Circular"),
    ),
    (
        "import simplejson._speedups as s\ns.scanstring(1, 0)",
        ("simplejson/_speedups.c", "first argument"),
    ),
    (
        "import simplejson._speedups as s\ns.encode_basestring_ascii(1)",
        ("simplejson/_speedups.c", "first argument"),
    ),
    (
        "import simplejson\nsimplejson.dumps([1], int_as_string_bitcount=-1)",
        ("simplejson/_speedups.c", "positive integer"),
    ),
    (
        "import simplejson\nsimplejson.dumps([1], item_sort_key=1)",
        ("simplejson/_speedups.c", "item_sort_key"),
    ),
    # raise_errmsg(state, ERR_…, …) in _speedups.c: a helper's call, the message a macro
    (
        "import simplejson\nsimplejson.loads('\"abc')",
        ("simplejson/_speedups.c", "ERR_STRING_UNTERMINATED"),
    ),
    # the same helper called from _speedups_scan.h, whose macros _speedups.c defines
    (
        "import simplejson\nsimplejson.loads('[1')",
        ("simplejson/_speedups_scan.h", "ERR_ARRAY_DELIMITER"),
    ),
    ("import ujson\nujson.dumps(object())", ("src/ujson/encode.c", "is not JSON serializable")),
    (
        "import ujson\nujson.dumps([], indent=2000)",
        ("src/ujson/encode.c", "Maximum allowed indentation"),
    ),
    ("import ujson\nujson.loads(1)", ("src/ujson/decode.c", "Expected string, bytes")),
    (
        "import ujson\nujson.dumps({}, separators=1)",
        ("src/ujson/encode.c", "tuple or None as separator"),
    ),
    (
        "import ujson\nujson.dumps({}, separators=(1, 2))",
        ("src/ujson/encode.c", "str as item separator"),
    ),
    ("import ujson\nujson.dumps({}, separators=(',',))", ("src/ujson/encode.c", "tuple of size 2")),
    ("import ujson\nujson.dump([], 1)", ("src/ujson/encode.c", "expected file")),
    ("import ujson\nujson.load(1)", ("src/ujson/decode.c", "expected file")),
    ("import ujson\nujson.loads(memoryview(b'1'))", ("src/ujson/decode.c", "Arbitrary bytes-like")),
    # the decoder's errorStr, stored by SetError() and raised as "%s" (extract/c/fields.py)
    ("import ujson\nujson.loads('{1: 2}')", ("src/ujson/decode.c", "Key name of object must be")),
]


def _is_site(candidate: Candidate | None, where: tuple[str, str] | None) -> bool:
    """Whether the answer is the line that raised (the call may span the next two lines);
    ``FILE:LINE`` names the line where the text is on several."""
    if candidate is None or where is None:
        return False
    path, _, line = where[0].partition(":")
    if candidate.filePath != path or (line and candidate.lineNumber != int(line)):
        return False
    package = "simplejson" if path.startswith("simplejson") else "ujson"
    lines = (sdist(package) / path).read_text().splitlines()
    return where[1] in "\n".join(lines[candidate.lineNumber - 1 : candidate.lineNumber + 2])


#: Scripts that misuse simplejson's and ujson's compiled APIs, one error each; the second
#: line says where it raises (``# raises: FILE: text on that line``, ``FILE:LINE: text``
#: where the text is on several lines, or ``unseen``).
SCRIPTS = Path(__file__).resolve().parent / "realerrors" / "c_scripts"


def provoked() -> list[tuple[str, tuple[str, str] | None]]:
    """PROVOKED, then every script of SCRIPTS with the site its header names."""
    found = list(PROVOKED)
    for path in sorted(SCRIPTS.glob("*.py")):
        code = path.read_text()
        header = next(ln for ln in code.splitlines() if ln.startswith("# raises: "))
        where = header.removeprefix("# raises: ").strip()
        file, _, text = where.partition(": ")
        found.append((code, (file, text) if where != "unseen" else None))
    return found


def matching() -> None:
    libs = wheels("simplejson", "ujson")
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "errdex.db"
        with SqliteStore(db) as store:
            store_compiled(store, SHA)
            counts = {"tb": 0, "msg": 0, "wrong90": 0, "seen": 0, "unseen": 0, "answered_unseen": 0}
            counts |= {"tb_group": 0, "msg_group": 0}
            for code, where in provoked():
                script = Path(tmp) / "script.py"
                script.write_text(code + "\n")
                env = {**os.environ, "PYTHONPATH": str(libs)}
                done = subprocess.run(
                    [sys.executable, str(script)], capture_output=True, text=True, env=env
                )
                tb = done.stderr
                final = errors_in(tb)[-1]
                last = f"{final.error_class}: {final.message}"
                for key, paste in (("tb", tb), ("msg", last)):
                    answer = answers(paste, store)[-1]
                    best = answer.candidates[0] if answer.candidates else None
                    group = answer.group or ([best] if best else [])
                    right = _is_site(best, where)
                    if where is None:
                        counts["answered_unseen"] += key == "tb" and best is not None
                    else:
                        counts[key] += right
                        counts[f"{key}_group"] += any(_is_site(c, where) for c in group)
                    if best is not None and not right and best.confidence >= 0.9:
                        counts["wrong90"] += 1
                    shown = (
                        f"{best.filePath}:{best.lineNumber} {sum(c.confidence for c in group):.2f}"
                        if best
                        else "-"
                    )
                    print(f"  [{key}] {'ok ' if right else '-- '}{last[:70]!r} -> {shown}")
                counts["seen" if where else "unseen"] += 1
        n = counts["seen"]
        print(
            f"matching: {n} C-raised errors the extractor catalogues: traceback top-1 {counts['tb']}/{n}, "
            f"message top-1 {counts['msg']}/{n} (true site in the answer's group: traceback "
            f"{counts['tb_group']}/{n}, message {counts['msg_group']}/{n}); "
            f"wrong first answers at >= 0.9: {counts['wrong90']}; "
            f"{counts['unseen']} more raised through helpers it cannot see "
            f"({counts['answered_unseen']} answered with another site)"
        )


def main() -> None:
    recall_and_speed(corpus())
    matching()


if __name__ == "__main__":
    main()
