"""Recall and speed of errdex's extractors, per language, against an independent reference.

    .venv/bin/python bench/extract_languages.py --root DIR [--language java ...]
    .venv/bin/python bench/extract_languages.py --stdlib            # this Python's Lib/
    .venv/bin/python bench/extract_languages.py --jdk               # the JDK's java.base
    .venv/bin/python bench/extract_languages.py --fetched apache+commons-lang

For every language with files under the root: files, lines, the sites the reference
(:mod:`reference_sites`, written apart from the extractors) counts, the sites errdex
finds, recall = reference sites with an errdex site on the same (file, line) / reference
sites, the sites each side has that the other lacks (first 10), and speed: errdex's
extraction of the same files (as ``errdex scan`` runs it: the keyword check, then the
parse and the walk) beside the bare parse with the same grammar, in the same run, as a
ratio. Times are this process's CPU seconds (both sides run in it, one file at a time):
on a shared machine, wall time counts the other processes too. A language errdex
registers no extractor for is reported as "no extractor".

``--jdk`` reads ``lib/src.zip`` of an installed JDK (its ``java.base`` module, unzipped
into a temporary folder); ``--fetched NAME`` a repository snapshot fetched under
``/work/.mirror/NAME/repo`` (its HEAD tree, written to a temporary folder).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import sysconfig
import tempfile
import time
import zipfile
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from errdex._gc import gc_paused
from errdex.extract import registry
from errdex.source.files import default_exclusion
from reference_sites import LANGUAGES, parse_only, reference_lines

_SKIP_DIRS = frozenset({".git", ".hg", ".svn", "__pycache__"})


@dataclass
class Tally:
    """One language's figures over the files of the root."""

    files: int = 0
    lines: int = 0
    unparsed: int = 0
    reference: set[tuple[str, int]] = field(default_factory=set)
    errdex: set[tuple[str, int]] = field(default_factory=set)
    errdex_sites: int = 0
    errdex_seconds: float = 0.0
    parse_seconds: float = 0.0
    failures: list[tuple[str, str]] = field(default_factory=list)
    text_of: dict[str, list[str]] = field(default_factory=dict)


def language_of(path: str) -> tuple[str, registry.Extractor | None] | None:
    """The language of a file: errdex's registered one first, else the reference's."""
    extractor = registry.extractor_for(path)
    if extractor is not None and extractor.language in LANGUAGES:
        return extractor.language, extractor
    if extractor is not None:
        return None  # a language the reference does not count
    for language, suffixes in LANGUAGES.items():
        if path.endswith(suffixes) and language not in registry.languages():
            return language, None
    return None


def walk(root: Path, every: bool = False) -> list[str]:
    """The files under ``root``; unless ``every``, only those ``errdex scan`` lists by
    default (no test files or folders, docs, vendored copies or build output)."""
    found: list[str] = []
    for folder, dirs, files in os.walk(root, followlinks=True):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS)
        for name in sorted(files):
            rel = os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
            if every or (default_exclusion(rel) in (None,) and not registry.is_test_file(name)):
                found.append(rel)
    return found


def measure(root: Path, only: set[str] | None, every: bool = False) -> dict[str, Tally]:
    """Every file's figures, with the cyclic GC paused as ``errdex scan`` pauses it."""
    tallies: dict[str, Tally] = defaultdict(Tally)
    with gc_paused():
        for rel in walk(root, every):
            _measure_file(root, rel, only, tallies)
    return tallies


def _measure_file(root: Path, rel: str, only: set[str] | None, tallies: dict[str, Tally]) -> None:
    found = language_of(rel)
    if found is None:
        return
    language, extractor = found
    if only and language not in only:
        return
    try:
        text = (root / rel).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        tallies[language].failures.append((rel, f"unreadable: {exc}"))
        return
    tally = tallies[language]
    lines = text.splitlines()
    tally.files += 1
    tally.lines += len(lines)
    tally.text_of[rel] = lines
    ref = reference_lines(language, rel, text)
    tally.unparsed += not ref.clean
    tally.reference.update((rel, line) for line in ref.lines)
    started = time.process_time()
    try:
        parse_only(language, rel, text)
    except Exception as exc:  # the baseline's own failure: noted, not fatal
        tally.failures.append((rel, f"parse: {type(exc).__name__}"))
    tally.parse_seconds += time.process_time() - started
    if extractor is None:
        return
    extract = registry.load_extractor(extractor.module)
    started = time.process_time()
    sites = []
    if not extractor.keywords or any(word in text for word in extractor.keywords):
        try:
            sites = extract(text, rel, lines)
        except Exception as exc:  # one file's failure is counted, the run goes on
            tally.failures.append((rel, f"errdex: {type(exc).__name__}: {exc}"))
    tally.errdex_seconds += time.process_time() - started
    tally.errdex_sites += len(sites)
    tally.errdex.update((rel, s.line) for s in sites)


def _show(tally: Tally, keys: list[tuple[str, int]], limit: int) -> list[str]:
    out = []
    for rel, line in keys[:limit]:
        source = tally.text_of.get(rel, [])
        code = source[line - 1].strip() if 0 < line <= len(source) else ""
        out.append(f"      {rel}:{line}  {code[:100]}")
    return out


def report(tallies: dict[str, Tally], label: str, show: int = 10) -> str:
    out = [f"== {label}"]
    for language in sorted(tallies):
        t = tallies[language]
        registered = language in registry.languages()
        out.append(
            f"{language}: {t.files} files, {t.lines} lines, {len(t.reference)} reference sites"
            + (f" ({t.unparsed} files with parse errors)" if t.unparsed else "")
        )
        if not registered:
            out.append("    errdex: no extractor")
            continue
        matched = t.reference & t.errdex
        recall = len(matched) / len(t.reference) if t.reference else 1.0
        out.append(
            f"    errdex: {t.errdex_sites} sites on {len(t.errdex)} lines; recall "
            f"{len(matched)}/{len(t.reference)} = {recall:.2%}"
        )
        missing = sorted(t.reference - t.errdex)
        extra = sorted(t.errdex - t.reference)
        out.append(f"    reference only ({len(missing)}):")
        out.extend(_show(t, missing, show))
        out.append(f"    errdex only ({len(extra)}):")
        out.extend(_show(t, extra, show))
        ratio = t.errdex_seconds / t.parse_seconds if t.parse_seconds else float("nan")
        rate = t.files / t.errdex_seconds if t.errdex_seconds else float("inf")
        lines_rate = t.lines / t.errdex_seconds if t.errdex_seconds else float("inf")
        out.append(
            f"    speed: errdex {t.errdex_seconds:.2f}s ({rate:.0f} files/s, "
            f"{lines_rate:.0f} lines/s) beside the bare parse {t.parse_seconds:.2f}s: "
            f"{ratio:.2f}x"
        )
        for rel, why in t.failures[:5]:
            out.append(f"    failed: {rel}: {why}")
    return "\n".join(out)


def _jdk_tree(target: Path) -> Path:
    for home in sorted(Path("/usr/lib/jvm").glob("*")):
        src = home / "lib" / "src.zip"
        if src.is_file():
            with zipfile.ZipFile(src) as archive:
                members = [n for n in archive.namelist() if n.startswith("java.base/")]
                archive.extractall(target, members)
            print(f"JDK sources: {src} (java.base, {len(members)} entries)")
            return target
    raise SystemExit("no installed JDK ships lib/src.zip")


def _fetched_tree(name: str, target: Path) -> Path:
    repo = Path("/work/.mirror") / name / "repo"
    if not repo.exists():
        raise SystemExit(f"{repo} is not there: fetch the repository first")
    head = subprocess.run(
        ["git", "--git-dir", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    archive = subprocess.run(
        ["git", "--git-dir", str(repo), "archive", "--format=tar", "HEAD"],
        capture_output=True,
        check=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive, check=True)
    print(f"{name} at {head}")
    return target


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--root", type=Path)
    where.add_argument("--stdlib", action="store_true", help="this Python's Lib/ (no tests)")
    where.add_argument("--jdk", action="store_true", help="an installed JDK's java.base")
    where.add_argument("--fetched", help="a snapshot under /work/.mirror (owner+name)")
    parser.add_argument("--language", action="append", help="only these languages")
    parser.add_argument("--all-files", action="store_true", help="tests and docs too")
    parser.add_argument("--show", type=int, default=10, help="differences shown per side")
    args = parser.parse_args()
    only = set(args.language) if args.language else None
    with tempfile.TemporaryDirectory() as tmp:
        if args.root is not None:
            root, label = args.root, str(args.root)
        elif args.stdlib:
            root = Path(sysconfig.get_paths()["stdlib"])
            label = f"stdlib {root}"
        elif args.jdk:
            root, label = _jdk_tree(Path(tmp)), "JDK java.base"
        else:
            root, label = _fetched_tree(args.fetched, Path(tmp)), args.fetched
        # the scan leaves CPython's tests and site-packages out
        every = args.all_files
        tallies = measure_filtered(root, only) if args.stdlib else measure(root, only, every)
        print(report(tallies, label, args.show))


def measure_filtered(root: Path, only: set[str] | None) -> dict[str, Tally]:
    """The stdlib without ``test/``, ``idlelib/idle_test`` and ``site-packages``."""
    with tempfile.TemporaryDirectory() as tmp:
        view = Path(tmp) / "Lib"
        view.mkdir()
        for entry in sorted(root.iterdir()):
            if entry.name in ("test", "site-packages", "__pycache__"):
                continue
            (view / entry.name).symlink_to(entry)
        return measure(view, only, every=False)


if __name__ == "__main__":
    main()
