"""Incremental scans: cold scan, unchanged re-scan and one-edited-file re-scan of one
repository, each beside the floor of reading + ``ast.parse`` of the same files, measured
in the same run, with the static analyst off and on.

jax is the largest repository at hand; its *source* is the corpus, its test suite is only
read by the analyst for evidence, as every scan does. Give a work tree (``--tree``) or a
bare git mirror (``--mirror``, e.g. what ``fetch github:jax-ml/jax`` leaves): HEAD's files
present in the mirror are exported to a temporary tree (a snapshot may lack its largest
blobs, which ``git clone`` then fails on). ``--baseline SRC`` runs the same stages with
``PYTHONPATH=SRC`` (main's code) in a child process, in the same run, and prints both
with the ratio:

    .venv/bin/python bench/incremental_scan.py --mirror /work/.mirror/jax-ml+jax/repo \
        --repo jax-ml/jax --baseline /work/main/src

The benchmark appends a function to one library file for the edited re-scan and puts
the file back afterwards. Each round edits it once more and re-scans in a new process
("new process"), as ``errdex scan`` runs: the in-process re-scan finds the modules the
extractor read during the cold scan still parsed, a new process does not. Each stage
prints: its wall time, the part spent listing files
(``iter_source_files``, and the analyst's test listing), the work beyond listing, the
catalogue write, and the work beyond listing as a multiple of the ``ast.parse`` floor.
Goals (issue 13): unchanged re-scan ≤ 0.1 s beyond listing; one edited file ≤ 0.5 s.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import json
import os
import pickle
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from errdex._gc import gc_paused
from errdex.analyze.repo import index_files
from errdex.extract.registry import is_test_file, source_suffixes
from errdex.record import iso_now
from errdex.scan import ScanResult, scan_checkout, store_cached_scan
from errdex.scan_cache import ScanCache
from errdex.scan_reuse import CacheUse
from errdex.source import Checkout, iter_source_files, open_source
from errdex.store import SqliteStore

EDIT = '\n\ndef _errdex_bench_edit_{n}(x):\n    raise ValueError(f"bench edit {n}: {{x}}")\n'


def export_mirror(mirror: Path, dest: Path) -> str:
    """Write HEAD's files that the bare repository ``mirror`` holds into ``dest`` (blobs
    a snapshot lacks are left out: ``git clone`` or ``git archive`` of all of HEAD fails
    on them); returns HEAD's commit."""
    git = ["git", f"--git-dir={mirror}"]
    sha = subprocess.run([*git, "rev-parse", "HEAD"], capture_output=True, text=True, check=True)
    tree = subprocess.run(
        [*git, "ls-tree", "-r", "-z", "HEAD"], capture_output=True, check=True
    ).stdout.split(b"\0")
    entries = [line.split(b"\t", 1) for line in tree if b" blob " in line]
    blobs = [(meta.split(), path) for meta, path in entries]
    out = subprocess.run(
        [*git, "cat-file", "--batch"],
        input=b"".join(meta[2] + b"\n" for meta, _ in blobs),
        capture_output=True,
        check=True,
    ).stdout
    at = written = 0
    for meta, path in blobs:
        end = out.index(b"\n", at)
        header = out[at:end].split()
        at = end + 1
        if header[-1] == b"missing":
            continue
        size = int(header[2])
        data, at = out[at : at + size], at + size + 1
        target = dest / os.fsdecode(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        if meta[0] == b"120000":
            target.symlink_to(os.fsdecode(data))
        else:
            target.write_bytes(data)
        written += 1
    print(f"exported {written} of {len(blobs)} files of {mirror} at {sha.stdout.strip()}")
    return sha.stdout.strip()


def floor(root: Path, files: list[str]) -> float:
    """Read and ``ast.parse`` every file once: what any scan of them must at least do."""
    started = time.process_time()
    with gc_paused():
        for rel in files:
            with contextlib.suppress(SyntaxError, ValueError, OSError):
                ast.parse((root / rel).read_bytes())
    return time.process_time() - started


def listing_seconds(checkout: Checkout, analyze: bool) -> tuple[float, list[str], list[str]]:
    """The CPU time to list what a scan reads: its files, and the analyst's tests."""
    started = time.process_time()
    files = iter_source_files(
        checkout, suffixes=source_suffixes(None), test_file=is_test_file
    ).files
    analyst: list[str] = []
    if analyze:
        analyst = [rel for rel, _ in index_files(checkout, library_files=files)]
    return time.process_time() - started, list(files), analyst


class Catalogue:
    """One catalogue and one cache file, scanned into as ``errdex scan`` does."""

    def __init__(self, work: Path, checkout: Checkout, repo: str, analyze: bool) -> None:
        self.db = work / f"catalogue-{analyze}.db"
        self.cache = work / f"cache-{analyze}.sqlite"
        self.checkout, self.repo, self.analyze = checkout, repo, analyze
        self.cpu = 0.0

    def scan(self, *, vouched: bool = True) -> tuple[float, float, ScanResult]:
        """(scan seconds, write seconds, result) of one scan into the catalogue; the CPU
        seconds of the scan are left in ``self.cpu``."""
        with SqliteStore(self.db) as store, ScanCache(self.cache) as cache:
            started_at = iso_now()
            started = time.perf_counter()
            cpu = time.process_time()
            known = bool(store.scans(self.repo))
            result = scan_checkout(
                self.checkout,
                repo=self.repo,
                analyze=self.analyze,
                cache=cache,
                read_cache=known,
                unchanged_since=store.vouched_fingerprint(self.repo) if vouched else None,
            )
            scanned = time.perf_counter()
            self.cpu = time.process_time() - cpu
            store_cached_scan(store, self.checkout, self.repo, result, started_at)
            return scanned - started, time.perf_counter() - scanned, result


#: The stage name suffix of a count of files, not CPU seconds.
REEXTRACTED = ": files re-extracted"
#: CPU seconds beyond listing by run ("analyst on"/"off") and stage, for the comparison.
STATS: dict[str, dict[str, float]] = {}


def report(
    name: str, scan: float, write: float, listing: float, base: float, r: ScanResult, cpu: float
) -> None:
    use = r.cache_use
    assert use is not None
    beyond = max(0.0, cpu - listing)  # CPU: the machines are shared, wall time is noise
    stats = STATS.setdefault(RUN[0], {})
    stage = name.split(" (")[0] if name.startswith("one file") else name
    stats[stage] = min(stats.get(stage, beyond), beyond)
    if name.startswith("one file"):  # how many files one edit re-extracts (issue 13)
        stats[stage + REEXTRACTED] = float(use.files_reread)
    print(
        f"{name:34}{scan:8.3f}{cpu:8.3f}{listing:8.3f}{beyond:8.3f}{write:8.3f}"
        f"{beyond / base:9.3f}   {use.whole:9} files {use.files_reused}/{use.files_reread}"
        f" (for reads {getattr(use, 'files_reread_for_reads', '-')})"
        f" analyst {use.facts_reused}/{use.facts_reread} hashed {use.hashed}"
        f" records kept/again {use.records_kept}/{use.records_reanalysed}"
    )


def use_of(result: ScanResult) -> CacheUse:
    assert result.cache_use is not None
    return result.cache_use


def edited(original: bytes, n: int, how: str) -> bytes:
    """The target's text after round ``n``'s edit: a new function with a raise appended
    (``append``), a statement added before the first indented ``return`` (``body``:
    no name changes, the lines below move), a function inserted mid-file (``insert``), or
    a keyword parameter added to the first top-level function (``signature``)."""
    if how == "append":
        return original + EDIT.format(n=n).encode()
    if how == "insert":  # a function inserted before the first top-level def past mid-file
        half = original.index(b"\n", len(original) // 2)
        at = original.index(b"\n\ndef ", half) + 2  # a blank line above: no decorator
        return (
            original[:at]
            + f"def _bench_inserted_{n}(x):\n{MORE * shift(n)}    return x\n\n\n".encode()
            + (original[at:])
        )
    if how == "signature":  # the first top-level function gains a keyword parameter
        sig = re.search(rb"^def \w+\(([^)*]*?)\):", original, re.M)
        assert sig is not None, "no plain top-level def to edit"
        comma = b", " if sig.group(1).strip() else b""
        return (
            original[: sig.end(1)]
            + comma
            + f"_bench_kw{n}=None".encode()
            + (original[sig.end(1) :])
        )
    found = re.search(rb"^( +)return ", original, re.M)
    assert found is not None, "no return to edit before"
    at = found.start()
    added = f"{found.group(1).decode()}_bench_edit = {n}\n" * (1 + shift(n))
    return original[:at] + added.encode() + original[at:]


#: The line an inserted function's body has more in the new-process round.
MORE = "    x = x\n"


def shift(n: int) -> int:
    """Lines the new-process round's edit adds beyond the in-process round's (``n`` >=
    1000): one more, so that the lines below it move from the last scan's too."""
    return 1 if n >= 1000 else 0


def comparable(result: ScanResult) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """Items by record id, without ``analyzedAt`` (when, not what)."""
    out = [({k: v for k, v in r.items() if k != "analyzedAt"}, e) for r, e in result.items]
    return sorted(out, key=lambda item: str(item[0]["id"]))


def child_scan(cat: Catalogue, tree: Path, sha: str | None) -> tuple[float, float, ScanResult]:
    """:meth:`Catalogue.scan` in a new process, as ``errdex scan`` runs: nothing read by
    this one (the extractor's parsed modules, errdex's own digest) is at hand there."""
    with tempfile.NamedTemporaryFile(suffix=".pickle") as out:
        argv = [sys.executable, __file__, "--tree", str(tree), "--repo", cat.repo]
        argv += ["--child-scan", str(cat.db.parent), "--stats-out", out.name]
        argv += (["--sha", sha] if sha else []) + ([] if cat.analyze else ["--no-analyst"])
        subprocess.run(argv, check=True)
        scan, write, cat.cpu, result = pickle.loads(Path(out.name).read_bytes())
    return scan, write, result


def child_main(args: argparse.Namespace) -> None:
    """The child of :func:`child_scan`: one scan into the catalogue in ``--child-scan``."""
    checkout = open_source(str(args.tree), repo=args.repo, sha=args.sha)
    cat = Catalogue(Path(args.child_scan), checkout, args.repo, not args.no_analyst)
    scan, write, result = cat.scan()
    Path(args.stats_out).write_bytes(pickle.dumps((scan, write, cat.cpu, result)))


def fresh_scan(checkout: Checkout, repo: str, analyze: bool) -> ScanResult:
    """A full scan that reads no cache: what an incremental one must equal."""
    return scan_checkout(checkout, repo=repo, analyze=analyze)


RUN = ["analyst off"]


def run(
    tree: Path,
    repo: str,
    analyze: bool,
    repeat: int,
    edit_rel: str | None,
    how: str = "append",
    check: bool = False,
    sha: str | None = None,
) -> None:
    RUN[0] = f"analyst {'on' if analyze else 'off'}"
    checkout = open_source(str(tree), repo=repo, sha=sha)
    listing, files, analyst = listing_seconds(checkout, analyze)
    parsed = sorted({*[f for f in files if f.endswith(".py")], *analyst})
    base = statistics.median(floor(checkout.root, parsed) for _ in range(3))
    STATS.setdefault(RUN[0], {})["ast.parse floor"] = base
    lines = sum((checkout.root / rel).read_bytes().count(b"\n") for rel in parsed)
    print(
        f"\n== analyst {'on' if analyze else 'off'}: {len(files)} files scanned, "
        f"{len(parsed)} parsed ({lines:,} lines); ast.parse floor {base:.3f} s, "
        f"listing {listing:.3f} s"
    )
    print(
        f"{'stage':34}{'scan s':>8}{'cpu s':>8}{'list s':>8}{'beyond':>8}{'write s':>8}"
        f"{'× floor':>9}"
    )
    target = edit_rel or max(
        (f for f in files if f.endswith(".py") and "/_src/" in f),
        key=lambda f: (checkout.root / f).stat().st_size,
        default=files[0],
    )
    original = (checkout.root / target).read_bytes()
    with tempfile.TemporaryDirectory(prefix="errdex-incr-") as work:
        cat = Catalogue(Path(work), checkout, repo, analyze)
        scan, write, result = cat.scan()
        report("cold scan (empty cache)", scan, write, listing, base, result, cat.cpu)
        cold = cat.cpu
        records = len(result.items)
        try:
            for i in range(repeat):
                scan, write, result = cat.scan()
                report("unchanged re-scan (catalogue)", scan, write, listing, base, result, cat.cpu)
                scan, write, result = cat.scan(vouched=False)
                report(
                    "unchanged re-scan (no shortcut)", scan, write, listing, base, result, cat.cpu
                )
                (checkout.root / target).write_bytes(edited(original, i, how))
                scan, write, result = cat.scan()
                report(f"one file edited ({target})", scan, write, listing, base, result, cat.cpu)
                print(f"{'':34}one edited file / cold scan (CPU): {cat.cpu / cold:.3f}")
                if use_of(result).whole == "catalogue":  # a file no input of this scan
                    print(f"{'':34}{target} is no input here: the catalogue's records stand")
                else:
                    assert len(result.items) == records + (how == "append" and target in files)
                if check and use_of(result).whole != "catalogue":
                    same = comparable(result) == comparable(fresh_scan(checkout, repo, analyze))
                    print(f"{'':34}edited re-scan == fresh full scan of the edit: {same}")
                    assert same, "the edited re-scan differs from a fresh full scan"
                (checkout.root / target).write_bytes(edited(original, 1000 + i, how))
                scan, write, result = child_scan(cat, tree, sha)
                report("one file edited, new process", scan, write, listing, base, result, cat.cpu)
        finally:
            (checkout.root / target).write_bytes(original)


def compare(baseline: str, args: argparse.Namespace, tree: Path, sha: str | None) -> None:
    """The same stages with ``PYTHONPATH=baseline`` in a child process, beside this run's."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        argv = ["--tree", str(tree), "--repo", args.repo, "--stats-out", out.name, "--quiet"]
        argv += ["--repeat", str(args.repeat), "--analyst-repeat", str(args.analyst_repeat)]
        argv += ["--how", args.how] + (["--sha", sha] if sha else [])
        argv += ["--edit", args.edit] if args.edit else []
        argv += [
            f"--{flag}"
            for flag in ("no-analyst", "analyst-only")
            if getattr(args, flag.replace("-", "_"))
        ]
        env = {**os.environ, "PYTHONPATH": baseline}
        subprocess.run([sys.executable, __file__, *argv], env=env, check=True)
        theirs: dict[str, dict[str, float]] = json.loads(Path(out.name).read_text())
    print(f"\n== CPU s beyond listing: this errdex beside PYTHONPATH={baseline}, same run")
    print(f"{'stage':44}{'errdex':>9}{'baseline':>10}{'ratio':>8}{'× floor':>9}")
    for run_name, stages in STATS.items():
        base = stages.get("ast.parse floor", 0.0) or 1.0
        for stage, ours in stages.items():
            other = theirs.get(run_name, {}).get(stage)
            if stage == "ast.parse floor" or other is None:
                continue
            if stage.endswith(REEXTRACTED):
                print(f"{run_name + ': ' + stage:44}{ours:9.0f}{other:10.0f}")
                continue
            ratio = f"{ours / other:8.3f}" if other else f"{'-':>8}"
            print(f"{run_name + ': ' + stage:44}{ours:9.3f}{other:10.3f}{ratio}{ours / base:9.3f}")
        print(f"{run_name + ': ast.parse floor':44}{base:9.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tree", type=Path, help="a work tree to scan")
    parser.add_argument("--mirror", type=Path, help="a bare git repository: scan HEAD's files")
    parser.add_argument("--sha", help="the commit the tree is (default: detected)")
    parser.add_argument("--repo", required=True, help="its OWNER/NAME")
    parser.add_argument("--baseline", help="a src directory to run beside (main's code)")
    parser.add_argument("--stats-out", help=argparse.SUPPRESS)
    parser.add_argument("--quiet", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--child-scan", help=argparse.SUPPRESS)
    parser.add_argument("--repeat", type=int, default=3, help="rounds without the analyst")
    parser.add_argument("--analyst-repeat", type=int, default=1, help="rounds with it")
    parser.add_argument("--edit", help="the library file to edit (default: the largest)")
    parser.add_argument("--no-analyst", action="store_true", help="skip the analyst rounds")
    parser.add_argument("--analyst-only", action="store_true", help="skip the rounds without")
    parser.add_argument(
        "--how",
        choices=("append", "body", "insert", "signature"),
        default="append",
        help="the edit",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="after each edited re-scan, a fresh full scan of the edit must give the same items",
    )
    args = parser.parse_args()
    if (args.tree is None) == (args.mirror is None):
        parser.error("give --tree or --mirror")
    if args.child_scan:
        child_main(args)
        return
    with contextlib.ExitStack() as stack:
        tree, sha = args.tree, args.sha
        if args.mirror is not None:
            tree = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="errdex-tree-")))
            sha = export_mirror(args.mirror, tree)
        with contextlib.redirect_stdout(io.StringIO()) if args.quiet else contextlib.nullcontext():
            if not args.analyst_only:
                run(tree, args.repo, False, args.repeat, args.edit, args.how, args.check, sha)
            if not args.no_analyst:
                run(
                    tree, args.repo, True, args.analyst_repeat, args.edit, args.how, args.check, sha
                )
        if args.stats_out:
            Path(args.stats_out).write_text(json.dumps(STATS))
        if args.quiet:
            return
        print(
            "\nscan s: scan_checkout (wall); cpu s: its CPU time; list s: listing alone (CPU), "
            "measured apart; beyond: cpu s - list s; × floor: beyond over the ast.parse floor "
            "(CPU); write s: the catalogue write (touch_scan when nothing changed)."
            "\n(catalogue): the catalogue vouches for its records; (no shortcut): as into a "
            "catalogue that cannot (written to since), so the cache's results are loaded."
            "\ngoals: unchanged re-scan ≤ 0.1 s beyond listing; one edited file ≤ 0.5 s"
        )
        if args.baseline:
            compare(args.baseline, args, tree, sha)


if __name__ == "__main__":
    main()
