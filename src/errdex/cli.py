"""The ``errdex`` command: one verb per job (scan, export, stats)."""

from __future__ import annotations

import importlib
import json
import sys
from collections import Counter
from typing import Any, ClassVar

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from errdex import __version__
from errdex.analyze.sources import remember
from errdex.db_option import DbLocation
from errdex.environment_scan import scan_environment
from errdex.extract import registry
from errdex.record import iso_now
from errdex.scan import ScanResult, scan_checkout, store_cached_scan
from errdex.scan_cache import ScanCache
from errdex.source import Checkout, SourceError, open_source
from errdex.source.identity import resolve_repo
from errdex.source.release import is_release_spec, open_release
from errdex.source.stdlib import stdlib_checkout
from errdex.store import ScanSummary, StoreError, open_store
from errdex.terminal import clean, plain, progress_bar
from errdex.terminal import fail as _fail

DEFAULT_DB = "errdex.db"

err_console = Console(stderr=True)
console = Console()


class LazyGroup(click.Group):
    """A group whose heavier verbs (match, web, analysts) are imported only when used,
    so ``errdex scan`` does not pay for loading a web framework."""

    #: verb -> "module:attribute" of its click command
    lazy: ClassVar[dict[str, str]] = {
        "match": "errdex.match.commands:match_command",
        "explain": "errdex.match.commands:explain_command",
        "analyze": "errdex.analyze.commands:analyze_command",
        "serve": "errdex.web.commands:serve",
        "mcp": "errdex.mcp_commands:mcp_command",
        "harvest": "errdex.analyze.harvest.commands:harvest",
        "build": "errdex.build.commands:build_command",
        "verify": "errdex.verify.commands:verify_command",
    }

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = self.lazy.get(cmd_name)
        if target is None:
            return super().get_command(ctx, cmd_name)
        module_name, _, attribute = target.partition(":")
        command = getattr(importlib.import_module(module_name), attribute)
        assert isinstance(command, click.Command)
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="errdex")
def main() -> None:
    """errdex: every error a code base can raise, and the way back from an error to its line.

    \b
    Typical use:
      errdex scan .                         catalogue the repository you are in
      errdex scan --package networkx        catalogue an installed package
      errdex scan --stdlib                  catalogue the running Python's standard library
      errdex stats                          what the catalogue holds
      errdex export --jsonl errors.jsonl    one record envelope per line
    """


@main.command()
@click.argument("target", required=False)
@click.option(
    "--package",
    "package",
    metavar="NAME",
    help="Scan an installed distribution instead of a path or URL; NAME==VERSION fetches "
    "that release from the package index (with pip, into errdex's cache) without installing it.",
)
@click.option(
    "--sdist",
    is_flag=True,
    help="With --package: scan the installed version's source distribution (fetched with pip "
    "into errdex's cache), so its .pyx files are catalogued beside its .py files.",
)
@click.option(
    "--stdlib", is_flag=True, help="Scan the running Python's standard library as python/cpython."
)
@click.option(
    "--repo",
    metavar="OWNER/NAME",
    help="Repository name, when it cannot be read from git or package metadata.",
)
@click.option("--sha", metavar="SHA", help="The commit the files are at, overriding what git says.")
@click.option(
    "--db",
    default=DEFAULT_DB,
    show_default=True,
    type=DbLocation(),
    help="SQLite file to write records to, or a postgresql:// URL.",
)
@click.option(
    "--jobs",
    "-j",
    default=1,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Worker processes.",
)
@click.option(
    "--include",
    multiple=True,
    metavar="GLOB",
    help="Scan only paths matching GLOB, re-admitting default-excluded ones (tests/, docs/, …); repeatable.",
)
@click.option(
    "--exclude", multiple=True, metavar="GLOB", help="Skip paths matching GLOB; repeatable."
)
@click.option(
    "--no-analyze",
    is_flag=True,
    help="Skip the static analyst: records keep the extractor's own account (faster).",
)
@click.option(
    "--environment",
    is_flag=True,
    help="Scan the standard library and every installed distribution that names its repository.",
)
@click.option(
    "--language",
    "languages",
    multiple=True,
    type=click.Choice(registry.languages()),
    help="Read only files of this language (default: every language errdex reads); repeatable.",
)
@click.option(
    "--no-cache",
    is_flag=True,
    help="Read every file again instead of reusing unchanged files' results from the scan "
    "cache (which is still refreshed).",
)
@click.option(
    "--tags",
    metavar="GLOB",
    help="Scan every tag of TARGET (a git work tree or URL) matching GLOB ('v0.9.*'), oldest "
    "release first, into the same catalogue; a tag that fails is reported and skipped.",
)
@click.option("--no-progress", is_flag=True, help="Do not draw a progress bar.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def scan(
    target: str | None,
    package: str | None,
    sdist: bool,
    stdlib: bool,
    environment: bool,
    repo: str | None,
    sha: str | None,
    db: str,
    jobs: int,
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    no_analyze: bool,
    languages: tuple[str, ...],
    no_cache: bool,
    tags: str | None,
    no_progress: bool,
    as_json: bool,
) -> None:
    """Find every raise, warning and assert in TARGET and store one record per site.

    TARGET is a directory (git or not), or a git URL with an optional @ref
    (https://github.com/o/n.git@v1.2, file:///srv/x.git@abc123). Tests, docs,
    examples, benchmarks, build and vendored folders and git-ignored files are
    skipped unless --include admits them (an installed --package keeps its vendored
    copies, pip/_vendor/...: they are what it runs). Files that cannot be read or parsed
    are skipped, counted and named in the summary; the scan goes on.
    """
    if sdist and not package:
        _fail("--sdist goes with --package NAME (the installed distribution whose sdist to scan)")
    chosen = [
        x
        for x in (target, package, "stdlib" if stdlib else None, "env" if environment else None)
        if x
    ]
    if len(chosen) != 1:
        _fail(
            "give exactly one of TARGET, --package NAME, --stdlib or --environment "
            "(see errdex scan --help)"
        )
    if tags is not None:
        if not target or sha:
            _fail("--tags goes with a TARGET (a git work tree or URL) and without --sha")
        from errdex.scan_tags import run_tags

        sys.exit(
            run_tags(
                str(target),
                tags,
                db,
                out=console,
                err=err_console,
                repo=repo,
                no_cache=no_cache,
                show=not no_progress and not as_json,
                as_json=as_json,
                include=include,
                exclude=exclude,
                jobs=jobs,
                analyze=not no_analyze,
                languages=languages or None,
            )
        )
    if environment:
        scan_environment(
            db, jobs, fail=_fail, analyze=not no_analyze, show=not no_progress, as_json=as_json
        )
        return
    try:
        if stdlib:
            checkout = stdlib_checkout()
        elif package and is_release_spec(package):  # NAME==VERSION: fetched, not installed
            checkout = open_release(package, repo=repo, sha=sha, sdist=sdist)
        elif sdist and package:
            from errdex.source.sdist import open_sdist

            checkout = open_sdist(package, repo=repo, sha=sha)
        else:
            checkout = open_source(target, package=package, repo=repo, sha=sha)
        # open_source checked and normalised --repo; for the stdlib it is checked here
        repo_name = resolve_repo(None, repo)[0] if stdlib and repo else checkout.repo
    except SourceError as exc:
        _fail(str(exc))
        return
    if not repo_name:
        why = checkout.repo_problem or "it has no git remote or project URL"
        _fail(
            f"cannot tell which repository {target or package} is: {why}. Name it with --repo OWNER/NAME."
        )
        return
    try:
        store = open_store(db)
    except StoreError as exc:
        _fail(str(exc))
        return
    started_at = iso_now()
    # a repository already in the catalogue re-reads only its changed files; should the
    # catalogue change under an unchanged scan, CatalogueChanged says to scan again
    reuse = bool(store.scans(repo_name)) and not no_cache
    try:
        with store, ScanCache() as cache:
            result = _run_scan(
                checkout,
                repo_name,
                include,
                exclude,
                jobs,
                show=not no_progress and not as_json,
                analyze=not no_analyze,
                languages=languages or None,
                cache=cache,
                read_cache=reuse,
                unchanged_since=store.vouched_fingerprint(repo_name) if reuse else None,
            )
            scan_id, summary = store_cached_scan(store, checkout, repo_name, result, started_at)
            remember(store, repo_name, scan_id, checkout, include, exclude)
    except StoreError as exc:
        _fail(str(exc))
        return
    if as_json:
        click.echo(json.dumps(_summary_json(summary, result, db), indent=2))
    else:
        _print_summary(summary, result, checkout, db)


def _run_scan(
    checkout: Checkout,
    repo: str,
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    jobs: int,
    show: bool,
    analyze: bool = True,
    languages: tuple[str, ...] | None = None,
    **cached: Any,
) -> ScanResult:
    """``cached``: scan_checkout's cache options (``cache``, ``read_cache``, ``unchanged_since``)."""
    if not show:
        return scan_checkout(
            checkout,
            repo=repo,
            include=include,
            exclude=exclude,
            jobs=jobs,
            analyze=analyze,
            languages=languages,
            **cached,
        )
    with progress_bar("scanning", err_console) as bar:
        task = bar.add_task(escape(clean(repo, line=True)), total=None)

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return scan_checkout(
            checkout,
            repo=repo,
            include=include,
            exclude=exclude,
            jobs=jobs,
            progress=progress,
            analyze=analyze,
            **cached,
            languages=languages,
        )


def _summary_json(summary: ScanSummary, result: ScanResult, db: str) -> dict[str, Any]:
    records = [r for r, _ in result.items]
    return {
        "db": db,
        "repo": summary.repo,
        "commit": summary.commit,
        "ref": summary.ref,
        "refKind": summary.ref_kind,
        "version": summary.version,
        "filesRead": summary.files_read,
        "filesExcluded": summary.files_excluded,
        "filesSkipped": len(summary.skipped),
        "skipped": [{"path": p, "reason": r} for p, r in summary.skipped],
        "partsLeftOut": [{"path": p, "what": w} for p, w in result.left_out],
        "sites": summary.sites,
        "records": summary.records,
        "seconds": summary.seconds,
        "analysisSeconds": round(result.analysis_seconds, 3),
        "analysisError": result.analysis_error,
        "cache": result.cache_use.to_json() if result.cache_use else None,
        "byType": dict(Counter(r["errorType"] for r in records).most_common()),
        "byClass": dict(Counter(r["errorClass"] or "(unknown)" for r in records).most_common()),
        "byStyle": dict(result.by_style.most_common()),
    }


def _print_summary(summary: ScanSummary, result: ScanResult, checkout: Checkout, db: str) -> None:
    pinned = (
        f"commit {summary.commit[:10]}"
        if summary.commit
        else f"release tag {summary.ref} (no commit known)"
        if summary.ref
        else "no commit or tag known: no permalinks"
    )
    console.print(
        Text.assemble(
            plain(summary.repo, "bold", line=True),
            plain(
                f" · {pinned}" + (f" · version {summary.version}" if summary.version else ""),
                line=True,
            ),
        )
    )
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_row("files read", f"{summary.files_read:,}")
    table.add_row(
        "files excluded (tests, docs, build, vendored, ignored)", f"{summary.files_excluded:,}"
    )
    table.add_row("files skipped", f"{len(summary.skipped):,}")
    if result.left_out:
        table.add_row("parts of read files left out", f"{len(result.left_out):,}")
    table.add_row("error sites", f"{summary.sites:,}")
    table.add_row("records", f"{summary.records:,}")
    table.add_row("time", f"{summary.seconds:.2f} s")
    if result.analysis_seconds:
        table.add_row("  of which static analysis", f"{result.analysis_seconds:.2f} s")
    if result.analysis_error:
        table.add_row("static analysis failed", plain(result.analysis_error))
    console.print(table)
    if result.cache_use is not None:
        console.print(plain(f"cache: {result.cache_use.line()}"))
    records = [r for r, _ in result.items]
    if result.cache_use is None or result.cache_use.whole != "catalogue":  # else none loaded
        by_type = Counter(r["errorType"] for r in records)
        by_class = Counter(r["errorClass"] or "(decided at run time)" for r in records)
        cls_table = Table(title="most raised classes", title_justify="left")
        cls_table.add_column("class")
        cls_table.add_column("records", justify="right")
        for name, count in by_class.most_common(12):
            cls_table.add_row(plain(name, line=True), f"{count:,}")
        console.print(cls_table)
        by = ", ".join(f"{k} {v:,}" for k, v in by_type.most_common())
        console.print(plain("by type: " + by))
    if summary.skipped:
        console.print(f"[yellow]skipped {len(summary.skipped)} file(s):[/]")
        for path, reason in summary.skipped[:20]:
            console.print(plain(f"  {clean(path, line=True)}: {reason}"), highlight=False)
        if len(summary.skipped) > 20:
            more = f"  … and {len(summary.skipped) - 20} more (errdex stats --db {db} lists them)"
            console.print(plain(more))
    if result.left_out:
        console.print(f"[yellow]left out {len(result.left_out)} part(s) of files read:[/]")
        for path, what in result.left_out[:20]:
            console.print(plain(f"  {clean(path, line=True)}: {what}"), highlight=False)
        if len(result.left_out) > 20:
            console.print(plain(f"  … and {len(result.left_out) - 20} more (errdex scan --json)"))
    console.print(Text.assemble("stored in ", plain(db, "bold", line=True)))


@main.command()
@click.option(
    "--db",
    default=DEFAULT_DB,
    show_default=True,
    type=DbLocation(exists=True),
    help="SQLite file to read.",
)
@click.option(
    "--jsonl",
    "jsonl",
    required=True,
    type=click.Path(dir_okay=False, allow_dash=True),
    help="Output file ('-' for standard output).",
)
@click.option("--repo", metavar="OWNER/NAME", help="Only this repository.")
@click.option(
    "--schema2-strict",
    "strict",
    is_flag=True,
    help="Only records a strict schema-2 consumer accepts (a 40-hex analyzedSha, a permalink); "
    "says how many were left out and why.",
)
def export(db: str, jsonl: str, repo: str | None, strict: bool) -> None:
    """Write every current record as one envelope per line: {"record", "evidence", "datasetVersion"}."""
    from errdex.export import StrictFilter  # the export command's own module

    try:
        store = open_store(db)
    except StoreError as exc:
        _fail(str(exc))
        return
    count = 0
    try:
        with store:
            envelopes = list(store.iter_envelopes(repo=repo))
    except StoreError as exc:
        _fail(str(exc))
        return
    keep = StrictFilter()
    with click.open_file(jsonl, "w", encoding="utf-8") as out:
        for envelope in keep(envelopes) if strict else envelopes:
            out.write(json.dumps(envelope, ensure_ascii=False) + "\n")
            count += 1
    if jsonl != "-":
        # a path is copied from here: never wrapped, never read as markup
        err_console.print(plain(f"wrote {count:,} records to {jsonl}"), soft_wrap=True)
    for line in keep.summary():
        err_console.print(line, markup=False, highlight=False, soft_wrap=True)


@main.command()
@click.option(
    "--db",
    default=DEFAULT_DB,
    show_default=True,
    type=DbLocation(exists=True),
    help="SQLite file to read.",
)
@click.option("--json", "as_json", is_flag=True, help="Print as JSON.")
def stats(db: str, as_json: bool) -> None:
    """Summarise a catalogue: repositories, commits, records by class, type and severity."""
    try:
        store = open_store(db)
    except StoreError as exc:
        _fail(str(exc))
        return
    try:
        with store:
            data = store.stats()
    except StoreError as exc:
        _fail(str(exc))
        return
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    console.print(Text.assemble((f"{data['records']:,}", "bold"), plain(f" records in {db}")))
    repos = Table(title="repositories", title_justify="left")
    repos.add_column("repo")
    repos.add_column("commits / refs")
    repos.add_column("records", justify="right")
    for entry in data["repos"]:
        repos.add_row(
            plain(entry["repo"], line=True),
            plain(", ".join(str(c)[:12] for c in entry["commits"]), line=True),
            f"{entry['records']:,}",
        )
    console.print(repos)
    groups: tuple[tuple[str, dict[str, int]], ...] = (
        ("class", data["byClass"]),
        ("type", data["byType"]),
        ("severity", data["bySeverity"]),
    )
    for title, counts in groups:
        table = Table(title=f"by {title}", title_justify="left")
        table.add_column(title)
        table.add_column("records", justify="right")
        for name, count in list(counts.items())[:15]:
            table.add_row(plain(name, line=True), f"{count:,}")
        console.print(table)
    for scan_info in data["scans"][:5]:
        skipped = scan_info["skipped"]
        console.print(
            plain(
                f"scan of {clean(scan_info['repo'], line=True)} at "
                f"{clean(scan_info['ref'] or scan_info['commit'], line=True)}: "
                f"{scan_info['files_read']:,} files read, {len(skipped)} skipped, "
                f"{scan_info['sites']:,} sites, {scan_info['seconds']:.2f} s"
            )
        )
        for path, reason in skipped[:10]:
            line = f"    skipped {clean(path, line=True)}: {reason}"
            console.print(plain(line), highlight=False)


if __name__ == "__main__":
    main()
