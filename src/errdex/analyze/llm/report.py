"""What one ``errdex analyze --llm`` run did and cost, as data and as a printed table."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from rich.console import Console
from rich.table import Table

from .cache import RUN_COUNTS

__all__ = ["FailedSite", "LlmRunReport", "print_report"]


@dataclass(frozen=True, slots=True)
class FailedSite:
    """A record the model could not analyse; its static fields stayed."""

    id: str
    location: str
    reason: str


@dataclass(slots=True)
class LlmRunReport:
    """Counts of one run. In a dry run, ``calls`` and the tokens are what *would* be spent.

    ``status`` is ``finished``, ``interrupted`` (Ctrl-C: everything paid for is kept;
    run again to resume), ``failed`` (a fatal provider error) or ``dry-run``. The cost
    is an estimate from :mod:`errdex.analyze.llm.pricing`; ``price_basis`` says which.
    """

    model: str
    prompt_version: str
    repo: str | None
    dry_run: bool = False
    run_id: int | None = None
    status: str = "running"
    records: int = 0
    skipped: int = 0
    up_to_date: int = 0
    cache_hits: int = 0
    calls: int = 0
    repairs: int = 0
    retries: int = 0
    retry_reasons: dict[str, int] = field(default_factory=dict)
    written: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    tokens_estimated: bool = False
    cost_usd: float = 0.0
    price_basis: str = ""
    flagged: int = 0
    rejected_code: int = 0
    failed: list[FailedSite] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def interrupted(self) -> bool:
        return self.status == "interrupted"

    def counts(self) -> dict[str, float]:
        """The counters ``llm_runs`` keeps, by column name."""
        values: dict[str, float] = {
            name: getattr(self, name) for name in RUN_COUNTS if name != "failed"
        }
        values["failed"] = len(self.failed)
        return values

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["interrupted"] = self.interrupted
        return data


def print_report(report: LlmRunReport, console: Console) -> None:
    """The run's figures, with the cost labelled as the estimate it is."""
    verb = "would call" if report.dry_run else "model calls"
    title = f"analyze --llm {report.model} (prompt {report.prompt_version}): {report.status}"
    table = Table(title=title, title_justify="left", show_header=False, box=None)
    table.add_row("records considered", f"{report.records:,}")
    if report.skipped:
        table.add_row("skipped (already analysed by a model)", f"{report.skipped:,}")
    table.add_row("already up to date", f"{report.up_to_date:,}")
    table.add_row("answers reused from the cache", f"{report.cache_hits:,}")
    table.add_row(verb, f"{report.calls:,} ({report.repairs:,} repair rounds)")
    if report.retries:
        reasons = ", ".join(f"{k} x{v}" for k, v in sorted(report.retry_reasons.items()))
        table.add_row("retries", f"{report.retries:,} ({reasons})")
    approx = "~" if report.tokens_estimated or report.dry_run else ""
    table.add_row(
        "tokens in / out", f"{approx}{report.tokens_in:,} / {approx}{report.tokens_out:,}"
    )
    table.add_row("cost (estimate)", f"${report.cost_usd:.4f} — {report.price_basis}")
    if not report.dry_run:
        table.add_row("records written", f"{report.written:,}")
        table.add_row("answers naming unknown identifiers", f"{report.flagged:,}")
        table.add_row("answers with code dropped (did not parse)", f"{report.rejected_code:,}")
        table.add_row("failed (static fields kept)", f"{len(report.failed):,}")
    table.add_row("time", f"{report.seconds:.1f} s")
    console.print(table)
    for failure in report.failed[:10]:
        console.print(
            f"  failed {failure.id} {failure.location}: {failure.reason}",
            markup=False,
            highlight=False,
        )
    if len(report.failed) > 10:
        console.print(f"  … and {len(report.failed) - 10} more")
    if report.interrupted:
        console.print(
            "interrupted: every answer received is kept; run the same command again to resume."
        )
