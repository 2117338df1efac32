"""``errdex analyze --llm``: every selected record through a model, paid once per change.

A run has two passes. The plan reads every record of the repository once: it builds
the vocabulary the identifier check needs, renders each selected record's prompt and
sorts it into *up to date* (the record already carries this model's answer for this
content), *cached* (an answer for this content is in ``llm_answers``) or *to call*.
Then cached answers are applied, and the rest go to the model through ``concurrency``
workers. Each answer is stored in the cache the moment it arrives and records are
written in small batches, so Ctrl-C loses nothing already paid for: running the same
command again picks up the answers as cache hits and calls only for the rest.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import httpx
from pydantic import ValidationError
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from errdex.record import iso_now
from errdex.store.base import Store

from .cache import AnswerCache
from .checks import Vocabulary, code_problems, envelope_text, unknown_identifiers
from .errors import LlmConfigError, ProviderError
from .merge import ANALYST, AnswerMeta, is_current, merge_answer
from .pricing import Price, estimate_cost, price_for
from .prompt import PROMPT_VERSION, Prompt, RelatedError, build_prompt, repair_request
from .providers import (
    ChatClient,
    Endpoint,
    ModelSpec,
    Reply,
    make_client,
    parse_model,
    resolve_endpoint,
)
from .report import FailedSite, LlmRunReport, print_report
from .retry import RateGate, RetryPolicy, RetryStats
from .schema import AnswerInvalid, LlmProse, parse_answer

__all__ = ["ESTIMATED_OUTPUT_TOKENS", "RunOptions", "analyze", "analyze_async", "run_llm_analysis"]

#: Output tokens assumed per call when a dry run estimates the cost.
ESTIMATED_OUTPUT_TOKENS = 600
#: At most this many related records are shown in a prompt.
_MAX_RELATED = 5
#: Records rebuilt from cached answers are written this many at a time.
_FREE_BATCH = 500


@dataclass(frozen=True, slots=True)
class RunOptions:
    """Everything a run takes. ``retry`` and ``batch_size`` are for tuning and tests."""

    model: str
    repo: str | None = None
    concurrency: int = 4
    limit: int | None = None
    only_missing: bool = False
    dry_run: bool = False
    base_url: str | None = None
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    batch_size: int = 8
    env: Mapping[str, str] | None = None


@dataclass(frozen=True, slots=True)
class _Site:
    record_id: str
    repo: str
    location: str
    cached: bool


class _Writer:
    """Buffers merged records and writes them with ``update_records`` in batches.

    Records holding a fresh (paid) answer go out in small batches; records rebuilt from
    the cache cost nothing to redo, so they wait for a bigger batch.
    """

    def __init__(self, store: Store, report: LlmRunReport, batch_size: int) -> None:
        self._store = store
        self._report = report
        self._batch_size = max(1, batch_size)
        self._pending: list[tuple[dict[str, Any], dict[str, Any]]] = []
        self._paid = 0

    def add(self, record: dict[str, Any], evidence: dict[str, Any], *, paid: bool) -> None:
        self._pending.append((record, evidence))
        self._paid += paid
        if self._paid >= self._batch_size or len(self._pending) >= _FREE_BATCH:
            self.flush()

    def flush(self) -> None:
        if self._pending:
            self._report.written += self._store.update_records(self._pending)
            self._pending.clear()
            self._paid = 0


def run_llm_analysis(
    store: Store,
    *,
    repo: str | None,
    model: str,
    concurrency: int = 4,
    limit: int | None = None,
    only_missing: bool = False,
    dry_run: bool = False,
    base_url: str | None = None,
    console: Console | None = None,
) -> LlmRunReport:
    """Analyse the records of ``repo`` (all repositories if None) with ``model``.

    ``model`` is ``PROVIDER:MODEL`` (``openai:gpt-4.1-mini``, ``anthropic:claude-sonnet-4-5``;
    ``openai:`` for any OpenAI-compatible server with ``base_url``). ``limit`` caps the
    records that need work (a call or a cache hit; records already up to date do not
    count), so repeated runs work through a catalogue ``limit`` records at a time;
    ``only_missing`` skips records that any model already analysed;
    ``dry_run`` prints the prompts and an estimate and calls nothing. Raises
    :class:`LlmConfigError` before any work when the spec, URL or key is unusable, and
    :class:`LlmError` when the provider fails for good (after recording the run). On
    Ctrl-C the report comes back with ``status == "interrupted"``; the caller should
    exit non-zero (130).
    """
    options = RunOptions(
        model=model,
        repo=repo,
        concurrency=concurrency,
        limit=limit,
        only_missing=only_missing,
        dry_run=dry_run,
        base_url=base_url,
    )
    return analyze(store, options, console=console)


def analyze(
    store: Store,
    options: RunOptions,
    *,
    console: Console | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> LlmRunReport:
    """:func:`run_llm_analysis` with every option; Ctrl-C returns an interrupted report."""
    run = _Run(store, options, console or Console(stderr=True), transport)
    if options.dry_run:
        return run.dry_run()
    # On Ctrl-C, run.main records the run as interrupted on its way out.
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(run.main())
    return run.report


async def analyze_async(
    store: Store,
    options: RunOptions,
    *,
    console: Console | None = None,
    transport: httpx.AsyncBaseTransport | None = None,
) -> LlmRunReport:
    """The same run for callers already inside an event loop (cancel it to interrupt)."""
    run = _Run(store, options, console or Console(stderr=True), transport)
    if options.dry_run:
        return run.dry_run()
    await run.main()
    return run.report


class _Run:
    """One run's state: its options, client settings, vocabularies and report."""

    def __init__(
        self,
        store: Store,
        options: RunOptions,
        console: Console,
        transport: httpx.AsyncBaseTransport | None,
    ) -> None:
        if options.concurrency < 1:
            raise LlmConfigError(f"concurrency must be at least 1, not {options.concurrency}")
        if options.limit is not None and options.limit < 0:
            raise LlmConfigError(f"limit must not be negative, not {options.limit}")
        self.store = store
        self.options = options
        self.console = console
        self.transport = transport
        self.spec: ModelSpec = parse_model(options.model)
        self.endpoint: Endpoint = resolve_endpoint(
            self.spec, options.base_url, options.env, need_key=not options.dry_run
        )
        self.price: Price = price_for(self.spec.provider, self.spec.name, local=self.endpoint.local)
        self.cache = AnswerCache.for_store(store, create=not options.dry_run)
        self.report = LlmRunReport(
            model=self.spec.spec,
            prompt_version=PROMPT_VERSION,
            repo=options.repo,
            dry_run=options.dry_run,
            price_basis=self.price.basis,
        )
        self.stats = RetryStats()
        self.vocabularies: dict[str, Vocabulary] = {}
        self._related_seen: dict[str, RelatedError | None] = {}
        self.writer = _Writer(store, self.report, options.batch_size)
        self._started = time.perf_counter()

    # -- planning ---------------------------------------------------------------------

    def _related(self, evidence: dict[str, Any]) -> list[RelatedError]:
        """The related records as the prompt shows them (looked up once per run)."""
        related: list[RelatedError] = []
        for record_id in (evidence.get("related") or [])[:_MAX_RELATED]:
            key = str(record_id)
            if key not in self._related_seen:
                other = self.store.get(key)
                rec = other["record"] if other is not None else None
                self._related_seen[key] = (
                    RelatedError(rec["errorClass"], rec["errorMessage"], rec["filePath"])
                    if rec is not None
                    else None
                )
            if (item := self._related_seen[key]) is not None:
                related.append(item)
        return related

    def _prompt(self, envelope: dict[str, Any]) -> Prompt:
        return build_prompt(envelope, self._related(envelope.get("evidence") or {}))

    def plan(self, on_call: Callable[[Prompt, dict[str, Any]], None] | None = None) -> list[_Site]:
        """Read every record once: vocabularies, then up to date / cached / to call."""
        sites: list[_Site] = []
        report, options = self.report, self.options
        for envelope in self.store.iter_envelopes(options.repo):
            record, evidence = envelope["record"], envelope.get("evidence") or {}
            repo = record["repo"]
            self.vocabularies.setdefault(repo, Vocabulary()).add(envelope_text(envelope))
            if options.limit is not None and len(sites) >= options.limit:
                continue  # read on: the vocabulary wants every record
            if options.only_missing and evidence.get("analysis") == ANALYST:
                report.skipped += 1
                continue
            report.records += 1
            prompt = self._prompt(envelope)
            if is_current(evidence, self.spec.spec, PROMPT_VERSION, prompt.content_hash):
                report.up_to_date += 1
                continue
            cached = self.cache.has(prompt.content_hash, self.spec.spec, PROMPT_VERSION)
            location = f"{record['filePath']}:{record['lineNumber']}"
            sites.append(_Site(record["id"], repo, location, cached))
            if not cached and on_call is not None:
                on_call(prompt, envelope)
        return sites

    # -- dry run ----------------------------------------------------------------------

    def dry_run(self) -> LlmRunReport:
        """Print the system prompt(s) and every prompt that would be sent, then the estimate."""
        shown_systems: set[str] = set()
        report = self.report

        def show(prompt: Prompt, envelope: dict[str, Any]) -> None:
            record = envelope["record"]
            if prompt.system not in shown_systems:
                shown_systems.add(prompt.system)
                self.console.rule(f"system prompt ({prompt.language or 'unknown language'})")
                self.console.print(prompt.system, markup=False, highlight=False, soft_wrap=True)
            self.console.rule(f"{record['id']} {record['filePath']}:{record['lineNumber']}")
            self.console.print(prompt.user, markup=False, highlight=False, soft_wrap=True)
            report.calls += 1
            report.tokens_in += (len(prompt.system) + len(prompt.user)) // 4
            report.tokens_out += ESTIMATED_OUTPUT_TOKENS

        sites = self.plan(on_call=show)
        report.cache_hits = sum(1 for site in sites if site.cached)
        report.cost_usd = estimate_cost(self.price, report.tokens_in, report.tokens_out)
        report.tokens_estimated = True
        report.status = "dry-run"
        report.seconds = time.perf_counter() - self._started
        print_report(report, self.console)
        return report

    # -- the run ----------------------------------------------------------------------

    async def main(self) -> None:
        """Plan, apply cached answers, call the model for the rest; always record the run."""
        report = self.report
        status = "interrupted"
        sites = self.plan()
        run_id = self.cache.start_run(
            self.options.repo, self.spec.spec, PROMPT_VERSION, self.price.basis
        )
        report.run_id = run_id
        try:
            with self._progress(len(sites)) as progress:
                task = progress.add_task("analyze", total=len(sites), calls=0, hits=0)

                def advance() -> None:
                    progress.update(task, advance=1, calls=report.calls, hits=report.cache_hits)

                to_call: list[_Site] = []
                for index, site in enumerate(sites):
                    if not self._apply_cached(site, advance):
                        to_call.append(site)
                    if index % 64 == 63:
                        await asyncio.sleep(0)  # let Ctrl-C in between cached answers
                await self._call_all(to_call, advance)
            status = "finished"
        except (KeyboardInterrupt, asyncio.CancelledError):
            raise  # Ctrl-C, or a caller cancelling: "interrupted"
        except BaseException:
            status = "failed"
            raise
        finally:
            self.writer.flush()
            report.status = status
            report.retries = self.stats.retries
            report.retry_reasons = dict(self.stats.reasons)
            report.seconds = time.perf_counter() - self._started
            report.cost_usd = estimate_cost(self.price, report.tokens_in, report.tokens_out)
            self.cache.update_run(run_id, report.counts(), status)
            print_report(report, self.console)

    def _progress(self, total: int) -> Progress:
        return Progress(
            TextColumn(f"[bold]{self.spec.spec}[/]"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("calls {task.fields[calls]} · cache {task.fields[hits]}"),
            TimeElapsedColumn(),
            console=self.console,
            transient=True,
            disable=total == 0,
        )

    def _save_counts(self) -> None:
        """Keep the run row current after every paid call, so even a kill leaves the count."""
        report = self.report
        report.cost_usd = estimate_cost(self.price, report.tokens_in, report.tokens_out)
        report.retries = self.stats.retries
        if report.run_id is not None:
            self.cache.update_run(report.run_id, report.counts())

    def _fail(self, site: _Site, reason: str) -> None:
        self.report.failed.append(FailedSite(site.record_id, site.location, reason))

    def _apply_cached(self, site: _Site, advance: Callable[[], None]) -> bool:
        """Apply a cached answer; False when the site needs a call after all."""
        if not site.cached:
            return False
        envelope = self.store.get(site.record_id)
        if envelope is None:
            self._fail(site, "the record is no longer in the store")
            advance()
            return True
        prompt = self._prompt(envelope)
        if not self._use_cache(site, envelope, prompt):
            return False
        advance()
        return True

    def _use_cache(self, site: _Site, envelope: dict[str, Any], prompt: Prompt) -> bool:
        cached = self.cache.get(prompt.content_hash, self.spec.spec, PROMPT_VERSION)
        if cached is None:
            return False
        try:
            prose = LlmProse.model_validate(cached.answer)
        except ValidationError:
            return False  # written under older rules: ask again
        self.report.cache_hits += 1
        self._apply(site, envelope, prompt, prose, cached=True)
        return True

    def _apply(
        self,
        site: _Site,
        envelope: dict[str, Any],
        prompt: Prompt,
        prose: LlmProse,
        *,
        cached: bool,
    ) -> None:
        rejected = code_problems(prose, prompt.language)
        vocabulary = self.vocabularies.setdefault(site.repo, Vocabulary())
        flagged = unknown_identifiers(prose, prompt.language, vocabulary)
        meta = AnswerMeta(
            model=self.spec.spec,
            prompt_version=PROMPT_VERSION,
            content_hash=prompt.content_hash,
            basis=prompt.basis,
            cached=cached,
            analyzed_at=iso_now(),
            unknown_identifiers=flagged,
            rejected_code=rejected,
        )
        try:
            record, evidence = merge_answer(envelope, prose, meta)
        except ValidationError as exc:
            self._fail(site, f"the merged record is not valid schema 2: {exc.errors()[0]['msg']}")
            return
        self.report.rejected_code += bool(rejected)
        self.report.flagged += bool(flagged)
        self.writer.add(record, evidence, paid=not cached)

    async def _call_all(self, sites: list[_Site], advance: Callable[[], None]) -> None:
        if not sites:
            return
        workers = min(self.options.concurrency, len(sites))
        limits = httpx.Limits(max_connections=workers, max_keepalive_connections=workers)
        plain_http = self.endpoint.url.startswith("http://")
        async with httpx.AsyncClient(
            limits=limits,
            transport=self.transport,
            trust_env=not self.endpoint.local,  # no proxy between us and this machine
            verify=not plain_http,  # no TLS to verify; skips loading the CA bundle
        ) as http:
            client = make_client(
                self.spec,
                self.endpoint,
                http,
                policy=self.options.retry,
                gate=RateGate(),
                stats=self.stats,
            )
            queue = iter(sites)

            async def worker() -> None:
                for site in queue:  # one shared iterator: each site goes to one worker
                    await self._analyze(client, site)
                    advance()

            try:
                async with asyncio.TaskGroup() as group:
                    for _ in range(workers):
                        group.create_task(worker())
            except BaseExceptionGroup as errors:
                raise errors.exceptions[0] from None

    async def _analyze(self, client: ChatClient, site: _Site) -> None:
        envelope = self.store.get(site.record_id)
        if envelope is None:
            self._fail(site, "the record is no longer in the store")
            return
        prompt = self._prompt(envelope)
        if self._use_cache(site, envelope, prompt):  # another site with the same content
            return
        try:
            prose = await self._ask(client, site, prompt)
        except ProviderError as exc:
            if exc.fatal:
                raise
            self._fail(site, str(exc))
            return
        if prose is not None:
            self._apply(site, envelope, prompt, prose, cached=False)

    async def _ask(self, client: ChatClient, site: _Site, prompt: Prompt) -> LlmProse | None:
        """One call and at most one repair round; the answer is cached as soon as it is valid.

        A reply whose only fault is code that does not parse is used after the repair
        round anyway: the faulty code fields are dropped when it is applied.
        """
        report = self.report
        history: list[tuple[Reply, str]] = []
        tokens_in = tokens_out = 0
        errors: list[str] = []
        for round_ in range(2):
            reply = await client.complete(prompt.system, prompt.user, history)
            report.calls += 1
            report.tokens_in += reply.tokens_in
            report.tokens_out += reply.tokens_out
            report.tokens_estimated |= reply.tokens_estimated
            tokens_in += reply.tokens_in
            tokens_out += reply.tokens_out
            self._save_counts()
            prose: LlmProse | None = None
            try:
                prose = parse_answer(reply.answer)
                errors = [f"{k}: {v}" for k, v in code_problems(prose, prompt.language).items()]
            except AnswerInvalid as exc:
                errors = list(exc.errors)
            if reply.truncated:
                errors.append("the reply was cut off at the output limit: write less")
            if prose is not None and (not errors or round_ == 1):
                self.cache.put(
                    prompt.content_hash,
                    self.spec.spec,
                    PROMPT_VERSION,
                    prose.model_dump(mode="json"),
                    tokens_in=tokens_in,
                    tokens_out=tokens_out,
                    calls=round_ + 1,
                    run_id=report.run_id,
                )
                return prose
            if round_ == 0:
                report.repairs += 1
                history.append((reply, repair_request(errors)))
        self._fail(site, "invalid answer after the repair round: " + "; ".join(errors[:3]))
        return None
