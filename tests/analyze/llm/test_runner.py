"""End to end against a real HTTP server on loopback: both protocols, repairs, retries,
the cache across commits, cost accounting and resuming after an interrupted run."""

from __future__ import annotations

import asyncio
import json
import signal
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from rich.console import Console

from errdex.analyze.llm import (
    PROMPT_VERSION,
    AnswerCache,
    LlmConfigError,
    ProviderError,
    RetryPolicy,
    RunOptions,
    analyze,
    analyze_async,
    run_llm_analysis,
)
from errdex.record import ErrorRecord
from errdex.store import SqliteStore

from .conftest import REPO, SHA_2, SITES, options, scan_into
from .fake_server import FakeLlmServer, Step

PRICE_IN, PRICE_OUT = 0.40, 1.60  # gpt-4.1-mini in the declared table
FAST_CONNECT = RetryPolicy(connect_attempts=2, base_delay=0.01, max_delay=0.02, timeout=2.0)
#: For a run whose third answer the server holds until the run has stopped: the client
#: waits for it as long as the server holds it, so neither gives up first.
HOLD = 60.0
PATIENT = RetryPolicy(attempts=4, base_delay=0.01, max_delay=0.02, timeout=HOLD)


def envelopes(store: SqliteStore) -> dict[str, dict[str, Any]]:
    return {e["record"]["id"]: e for e in store.iter_envelopes(REPO)}


def by_line(store: SqliteStore, path: str, line: int) -> dict[str, Any]:
    return next(
        e
        for e in store.iter_envelopes(REPO)
        if e["record"]["filePath"] == path and e["record"]["lineNumber"] == line
    )


def test_full_run_writes_prose_with_provenance_and_accounts_for_it(
    store: SqliteStore,
    server: FakeLlmServer,
    console: Console,
    record_validator: jsonschema.Draft202012Validator,
) -> None:
    before = envelopes(store)
    report = analyze(store, options(server, "openai:gpt-4.1-mini"), console=console)

    assert report.status == "finished" and not report.failed
    assert report.calls == len(server.requests) == SITES
    assert (report.records, report.cache_hits, report.written) == (SITES, 0, SITES)
    assert (report.tokens_in, report.tokens_out) == (server.tokens_in, server.tokens_out)
    assert report.cost_usd == pytest.approx(
        (server.tokens_in * PRICE_IN + server.tokens_out * PRICE_OUT) / 1e6
    )
    request = server.requests[0]
    assert request.path == "/v1/chat/completions"
    assert request.body["model"] == "gpt-4.1-mini"
    assert request.body["response_format"]["type"] == "json_schema"
    assert "authorization" not in request.headers  # loopback: no key needed, none sent

    for record_id, envelope in envelopes(store).items():
        record, evidence = envelope["record"], envelope["evidence"]
        old = before[record_id]["record"]
        assert list(record) == list(old), "key order must stay seed 000's"
        ErrorRecord.model_validate(record)
        record_validator.validate(record)
        assert record["documentation"].endswith("is raised when the guarded condition holds.")
        assert record["tags"][: len(old["tags"])] == old["tags"]
        assert "fake-model" in record["tags"]
        assert record["handlingStrategy"] == "try-catch"
        assert record["exampleFix"] is None  # the model said null: the static value stays
        assert evidence["analysis"] == "llm"
        documentation = evidence["provenance"]["documentation"]
        assert documentation == {
            "analyst": "llm",
            "basis": documentation["basis"],
            "model": "openai:gpt-4.1-mini",
            "promptVersion": PROMPT_VERSION,
        }
        assert documentation["basis"][:3] == ["sourceCode", "errorMessage", "site"]
        assert set(documentation["basis"][3:]) <= set(evidence)
        # The model left validationCode null: whatever was there stays, with its provenance.
        assert record["validationCode"] == old["validationCode"]
        old_provenance = before[record_id]["evidence"]["provenance"]
        assert evidence["provenance"].get("validationCode") == old_provenance.get("validationCode")
        assert evidence["llm"]["cached"] is False
        assert evidence["llm"]["unknownIdentifiers"] == []
        assert evidence["site"] == before[record_id]["evidence"]["site"]

    runs = AnswerCache(store.connection).runs()
    assert runs[0]["status"] == "finished"
    assert (runs[0]["calls"], runs[0]["tokens_in"], runs[0]["written"]) == (
        SITES,
        server.tokens_in,
        SITES,
    )
    assert runs[0]["cost_usd"] == pytest.approx(report.cost_usd)
    text = console.export_text()
    assert "cost (estimate)" in text and "list price" in text


def test_anthropic_protocol_forces_a_tool_and_sends_the_key(
    store: SqliteStore, server: FakeLlmServer, console: Console
) -> None:
    run = options(server, "anthropic:claude-sonnet-4-5", env={"ANTHROPIC_API_KEY": "sk-ant-test"})
    report = analyze(store, run, console=console)
    assert report.status == "finished" and report.calls == SITES and not report.failed
    request = server.requests[0]
    assert request.path == "/v1/messages"
    assert request.headers["x-api-key"] == "sk-ant-test"
    assert request.headers["anthropic-version"] == "2023-06-01"
    assert request.body["tool_choice"]["type"] == "tool"
    assert request.body["tools"][0]["input_schema"]["required"][0] == "documentation"
    assert "Statement: raise" in request.body["messages"][0]["content"]
    assert (report.tokens_in, report.tokens_out) == (server.tokens_in, server.tokens_out)
    assert all(e["evidence"]["analysis"] == "llm" for e in envelopes(store).values())


def test_invalid_json_gets_one_repair_round(
    store: SqliteStore, server: FakeLlmServer, console: Console
) -> None:
    server.script.extend([Step("invalid_json")])
    report = analyze(store, options(server, concurrency=1), console=console)
    assert report.status == "finished" and not report.failed
    assert (report.calls, report.repairs) == (SITES + 1, 1)
    repair = server.requests[1].body["messages"]
    assert repair[-2] == {"role": "assistant", "content": '{"documentation": "cut off'}
    assert "not valid JSON" in repair[-1]["content"]
    assert report.written == SITES


def test_anthropic_repair_answers_the_tool_call(
    store: SqliteStore, server: FakeLlmServer, console: Console
) -> None:
    server.script.extend([Step("schema")])
    report = analyze(store, options(server, "anthropic:m", concurrency=1), console=console)
    assert (report.calls, report.repairs, len(report.failed)) == (SITES + 1, 1, 0)
    result = server.requests[1].body["messages"][-1]["content"][0]
    assert result["type"] == "tool_result" and result["is_error"] is True
    assert result["tool_use_id"] == "toolu_fake"
    assert "documentation" in result["content"] and "backgroundTag" in result["content"]


def test_invalid_twice_keeps_the_static_fields_and_is_not_cached(
    store: SqliteStore, server: FakeLlmServer, console: Console
) -> None:
    before = envelopes(store)
    server.script.extend([Step("schema"), Step("schema")])
    report = analyze(store, options(server, concurrency=1), console=console)
    assert report.calls == SITES + 1 and len(report.failed) == 1
    failed = report.failed[0]
    assert "invalid answer after the repair round" in failed.reason
    assert envelopes(store)[failed.id] == before[failed.id]
    assert "failed (static fields kept)" in console.export_text()
    again = analyze(store, options(server, concurrency=1), console=console)
    assert (again.calls, again.up_to_date, len(again.failed)) == (1, SITES - 1, 0)


def test_code_that_never_parses_is_dropped_and_the_rest_kept(
    store: SqliteStore, server: FakeLlmServer, console: Console
) -> None:
    before = envelopes(store)
    server.script.extend([Step("bad_code"), Step("bad_code")])
    report = analyze(store, options(server, concurrency=1), console=console)
    assert (report.calls, report.repairs, report.rejected_code) == (SITES + 1, 1, 1)
    assert "tryCatchPattern: not valid Python" in server.requests[1].body["messages"][-1]["content"]
    first = sorted(envelopes(store).values(), key=lambda e: e["record"]["lineNumber"])
    rejected = [e for e in first if e["evidence"]["llm"]["rejectedCode"]]
    assert len(rejected) == 1
    envelope = rejected[0]
    old = before[envelope["record"]["id"]]
    assert envelope["record"]["tryCatchPattern"] == old["record"]["tryCatchPattern"]
    assert "not valid Python" in envelope["evidence"]["llm"]["rejectedCode"]["tryCatchPattern"]
    assert envelope["evidence"]["provenance"].get("tryCatchPattern") == old["evidence"][
        "provenance"
    ].get("tryCatchPattern")
    assert envelope["evidence"]["provenance"]["documentation"]["analyst"] == "llm"


def test_invented_identifiers_are_flagged_in_evidence(
    store: SqliteStore, server: FakeLlmServer, console: Console
) -> None:
    server.script.extend([Step("unknown_name")])
    report = analyze(store, options(server, concurrency=1), console=console)
    assert report.flagged == 1
    flagged = [
        e["evidence"]["llm"]["unknownIdentifiers"]
        for e in envelopes(store).values()
        if e["evidence"]["llm"]["unknownIdentifiers"]
    ]
    assert len(flagged) == 1
    names = {f["name"] for f in flagged[0]}
    assert {"frobnicate_speed", "turbo_mode"} <= names
    assert "spin" not in names  # the repository defines it


def test_retries_honour_retry_after_5xx_and_timeouts_with_a_capped_wait(
    store: SqliteStore, server: FakeLlmServer, console: Console
) -> None:
    server.script.extend(
        [
            Step("status", status=429, headers={"retry-after": "30"}),
            Step("status", status=500),
            Step("slow", delay=0.6),
        ]
    )
    policy = RetryPolicy(attempts=4, base_delay=0.01, max_delay=0.02, timeout=0.25)
    started = time.monotonic()
    report = analyze(store, options(server, concurrency=1, retry=policy), console=console)
    assert time.monotonic() - started < 3, "Retry-After: 30 must be capped by max_delay"
    assert report.status == "finished" and not report.failed
    assert report.retry_reasons == {"429": 1, "500": 1, "timeout": 1}
    assert report.retries == 3
    assert report.calls == SITES  # retried requests are not answers
    assert len(server.requests) == SITES + 3


def test_a_site_fails_when_retries_run_out_and_the_run_goes_on(
    store: SqliteStore, server: FakeLlmServer, console: Console
) -> None:
    server.script.extend([Step("status", status=503)] * 4)
    report = analyze(store, options(server, concurrency=1), console=console)
    assert (
        len(report.failed) == 1
        and "no answer after 4 attempts (last: 503)" in report.failed[0].reason
    )
    assert report.calls == SITES - 1 and report.written == SITES - 1


def test_a_refused_key_stops_the_run_and_is_recorded(
    store: SqliteStore, server: FakeLlmServer, console: Console
) -> None:
    server.script.extend([Step("status", status=401)])
    with pytest.raises(ProviderError, match="refused the API key"):
        analyze(store, options(server, concurrency=2), console=console)
    assert AnswerCache(store.connection).runs()[0]["status"] == "failed"


def test_a_server_without_json_schema_gets_json_object(
    store: SqliteStore, server: FakeLlmServer, console: Console
) -> None:
    refusal = json.dumps({"error": {"message": "response_format json_schema is not supported"}})
    server.script.extend([Step("status", status=400, body=refusal)])
    report = analyze(store, options(server, concurrency=1), console=console)
    assert report.status == "finished" and report.calls == SITES and not report.failed
    assert server.requests[0].body["response_format"]["type"] == "json_schema"
    assert all(r.body["response_format"] == {"type": "json_object"} for r in server.requests[1:])


def test_workers_run_concurrently(
    store: SqliteStore, server: FakeLlmServer, console: Console
) -> None:
    server.default = Step(delay=0.15)
    report = analyze(store, options(server, concurrency=3), console=console)
    assert report.calls == SITES
    assert server.max_in_flight == 3


def test_a_second_run_calls_nothing_and_a_rescan_reuses_the_cache(
    store: SqliteStore, server: FakeLlmServer, project: Path, console: Console
) -> None:
    first = analyze(store, options(server), console=console)
    assert first.calls == SITES
    second = analyze(store, options(server), console=console)
    assert (second.calls, second.up_to_date, second.written) == (0, SITES, 0)
    scan_into(store, project, SHA_2)  # a new commit, same content: records back to static prose
    assert all(e["evidence"]["analysis"] != "llm" for e in envelopes(store).values())
    third = analyze(store, options(server), console=console)
    assert (third.calls, third.cache_hits, third.written, third.tokens_in) == (0, SITES, SITES, 0)
    assert all(e["evidence"]["llm"]["cached"] for e in envelopes(store).values())
    assert all(e["record"]["analyzedSha"] == SHA_2 for e in envelopes(store).values())
    assert len(server.requests) == SITES


def test_a_one_line_change_calls_only_the_sites_whose_content_changed(
    store: SqliteStore, server: FakeLlmServer, project: Path, console: Console
) -> None:
    analyze(store, options(server), console=console)
    core = project / "widgets" / "core.py"
    core.write_text(core.read_text().replace("    return widget\n", "    return widget  # ok\n"))
    extra = project / "widgets" / "extra.py"
    # An inserted line moves every later site of the file; only the one it touches changes.
    extra.write_text(extra.read_text().replace("    return x\n", "    return x\n\n"))
    scan_into(store, project, SHA_2)
    report = analyze(store, options(server), console=console)
    assert (report.calls, report.cache_hits) == (2, SITES - 2)
    called = {r.body["messages"][1]["content"].split("\n")[2] for r in server.requests[SITES:]}
    assert called == {"File: widgets/core.py", "File: widgets/extra.py"}
    assert by_line(store, "widgets/extra.py", 53)["evidence"]["llm"]["cached"] is True


def test_limit_and_only_missing(
    store: SqliteStore, server: FakeLlmServer, console: Console
) -> None:
    first = analyze(store, options(server, limit=2), console=console)
    assert (first.records, first.calls) == (2, 2)
    # Records already up to date do not count against the limit: the next two get done.
    second = analyze(store, options(server, limit=2), console=console)
    assert (second.up_to_date, second.calls) == (2, 2)
    rest = analyze(store, options(server, only_missing=True), console=console)
    assert (rest.skipped, rest.records, rest.calls) == (4, SITES - 4, SITES - 4)
    other = analyze(
        store, options(server, "openai:other-model", only_missing=True), console=console
    )
    assert (other.skipped, other.calls) == (SITES, 0)
    replaced = analyze(store, options(server, "openai:other-model"), console=console)
    assert replaced.calls == SITES
    assert all(
        e["evidence"]["provenance"]["documentation"]["model"] == "openai:other-model"
        for e in envelopes(store).values()
    )


def test_related_errors_are_shown_to_the_model(
    store: SqliteStore, server: FakeLlmServer, console: Console
) -> None:
    spin = by_line(store, "widgets/core.py", 7)
    stop = by_line(store, "widgets/core.py", 55)
    evidence = spin["evidence"] | {"related": [stop["record"]["id"]]}
    store.update_records([(spin["record"], evidence)])
    analyze(store, options(server, limit=1), console=console)
    user = server.requests[0].body["messages"][1]["content"]
    assert "Related errors in this repository:\n- TypeError: widget must not be None" in user
    basis = by_line(store, "widgets/core.py", 7)["evidence"]["provenance"]["documentation"]
    assert basis["basis"][-1] == "related"


def test_dry_run_prints_prompts_and_an_estimate_and_calls_nothing(
    store: SqliteStore, server: FakeLlmServer, console: Console
) -> None:
    report = run_llm_analysis(
        store, repo=REPO, model="openai:gpt-4.1-mini", dry_run=True, console=console
    )
    assert len(server.requests) == 0
    assert report.status == "dry-run" and report.calls == SITES and report.cost_usd > 0
    text = console.export_text()
    assert "system prompt (python)" in text and "Statement: raise ValueError" in text
    assert "would call" in text and "cost (estimate)" in text
    tables = {r[0] for r in store.connection.execute("SELECT name FROM sqlite_master")}
    assert not any(name.startswith("llm_") for name in tables)
    analyze(store, options(server), console=console)
    after = analyze(store, options(server, dry_run=True), console=console)
    assert (after.calls, after.up_to_date) == (0, SITES)


def test_a_missing_key_for_a_real_provider_fails_before_any_work(
    store: SqliteStore, console: Console
) -> None:
    with pytest.raises(LlmConfigError, match="OPENAI_API_KEY is not set"):
        analyze(store, RunOptions(model="openai:gpt-4.1-mini", env={}), console=console)
    with pytest.raises(LlmConfigError, match="PROVIDER:MODEL"):
        analyze(store, RunOptions(model="gpt-4.1-mini", env={}), console=console)
    tables = {r[0] for r in store.connection.execute("SELECT name FROM sqlite_master")}
    assert not any(name.startswith("llm_") for name in tables)


def test_cancelled_run_keeps_what_it_paid_for_and_resumes(
    store: SqliteStore, server: FakeLlmServer, console: Console
) -> None:
    # As with Ctrl-C: the third answer is held until the run is cancelled, not for a while.
    cancelled = threading.Event()

    def hold_the_third(number: int) -> None:
        if number == 3:
            cancelled.wait(timeout=HOLD)

    server.on_request = hold_the_third

    async def interrupted() -> None:
        task = asyncio.create_task(
            analyze_async(store, options(server, concurrency=1, retry=PATIENT), console=console)
        )
        while len(server.requests) < 3:
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    try:
        asyncio.run(interrupted())
    finally:
        server.on_request = None
        cancelled.set()
    run = AnswerCache(store.connection).runs()[0]
    assert (run["status"], run["calls"], run["written"]) == ("interrupted", 2, 2)
    assert AnswerCache(store.connection).answers() == 2
    assert sum(e["evidence"]["analysis"] == "llm" for e in envelopes(store).values()) == 2

    resumed = analyze(store, options(server, concurrency=1), console=console)
    assert (resumed.up_to_date, resumed.calls) == (2, SITES - 2)
    assert AnswerCache(store.connection).answers() == SITES
    assert all(e["evidence"]["analysis"] == "llm" for e in envelopes(store).values())


@pytest.fixture
def ctrl_c_handled() -> Iterator[None]:
    """SIGINT handled as a terminal's Ctrl-C is: a non-interactive shell starts a job put
    in the background (``cmd &``, as CI scripts and ``nohup … &`` do) with SIGINT
    ignored, the test process inherits that, and the signal below would then be lost
    (the run waits out the held answer and finishes)."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.mark.skipif(
    threading.current_thread() is not threading.main_thread(),
    reason="SIGINT goes to the main thread",
)
@pytest.mark.usefixtures("ctrl_c_handled")
def test_ctrl_c_interrupts_and_the_next_run_resumes(
    store: SqliteStore, server: FakeLlmServer, console: Console
) -> None:
    # The third answer is held until the run has stopped, however long Ctrl-C takes to
    # land: with a fixed delay, a loaded machine could let the answer in first. The
    # signal goes straight to the main thread, where Python handles it.
    stopped = threading.Event()
    main_thread = threading.main_thread().ident
    assert main_thread is not None

    def press_ctrl_c(number: int) -> None:
        if number == 3:
            signal.pthread_kill(main_thread, signal.SIGINT)
            stopped.wait(timeout=HOLD)

    server.on_request = press_ctrl_c
    try:
        report = analyze(store, options(server, concurrency=1, retry=PATIENT), console=console)
    finally:
        server.on_request = None
        stopped.set()
    assert report.interrupted and (report.calls, report.written) == (2, 2)
    assert "run the same command again to resume" in console.export_text()
    resumed = analyze(store, options(server, concurrency=1), console=console)
    assert resumed.status == "finished"
    assert (resumed.up_to_date, resumed.calls) == (2, SITES - 2)
    # Nothing was paid twice: one answer per site over both runs.
    assert report.calls + resumed.calls == SITES


def test_anthropic_text_reply_is_read_as_json_and_repaired_in_text(
    store: SqliteStore, server: FakeLlmServer, console: Console
) -> None:
    refusal = json.dumps({"type": "error", "error": {"message": "tool_choice is not supported"}})
    server.script.extend([Step("status", status=400, body=refusal), Step("invalid_json")])
    report = analyze(store, options(server, "anthropic:m", concurrency=1), console=console)
    assert report.status == "finished" and not report.failed
    assert (report.calls, report.repairs) == (SITES + 1, 1)
    assert "tools" in server.requests[0].body
    assert all("tools" not in r.body for r in server.requests[1:])
    repair = server.requests[2].body["messages"]
    assert repair[-2]["content"] == [{"type": "text", "text": '{"documentation": "cut off'}]
    assert "not valid JSON" in repair[-1]["content"]


def test_an_unreachable_server_ends_the_run_with_a_clear_error(
    store: SqliteStore, console: Console
) -> None:
    with FakeLlmServer() as gone:
        base = gone.openai_base
    run = RunOptions(model="openai:m", repo=REPO, base_url=base, env={}, retry=FAST_CONNECT)
    with pytest.raises(ProviderError, match=r"cannot reach .* after 2 attempts"):
        analyze(store, run, console=console)
    assert AnswerCache(store.connection).runs()[0]["status"] == "failed"
