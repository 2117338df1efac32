"""pytest: an "errdex" section under each failure, naming the raise site of its error.

Registered for every project that installs errdex (entry point ``pytest11``), so it stays
off and imports nothing of errdex's until ``--errdex``, ``--errdex-json FILE`` or the ini
option ``errdex = true`` turns it on. The block is read from the live exception
(``call.excinfo.value``), not from pytest's printed text. ``--errdex-json FILE`` writes one
JSON line per failing report: its node id, the error, the answer's status and the
candidate record ids with their confidences. errdex failing never fails the run.
"""

from __future__ import annotations

import json
import os
from collections.abc import Generator
from pathlib import Path
from typing import IO, Any

import pytest

__all__ = ["ErrdexReporter", "enabled", "pytest_addoption", "pytest_configure"]

SECTION = "errdex"
PLUGIN_NAME = "errdex-reporter"
#: The report attribute that carries the answer from where it is made (an xdist worker,
#: perhaps) to where the JSON line is written; plain JSON values survive serialisation.
REPORT_KEY = "errdex"
#: Candidates per failure in the section and the JSON line.
TOP = 3


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("errdex", "errdex: the raise site of each failure's error")
    group.addoption(
        "--errdex",
        action="store_true",
        default=False,
        help="add an errdex section to each failure: the catalogued raise site of its error",
    )
    group.addoption(
        "--errdex-db",
        metavar="PATH",
        default=None,
        help="the catalogue to match against (default: ERRDEX_DB, ./errdex.db, the data dir)",
    )
    group.addoption(
        "--errdex-json",
        metavar="FILE",
        default=None,
        help="write one JSON line per failure with the matched record ids (turns errdex on)",
    )
    parser.addini("errdex", type="bool", default=False, help="turn errdex's sections on")


def enabled(config: pytest.Config) -> bool:
    """On only when asked: the flag, the ini option, or a JSON file to write."""
    return bool(
        config.getoption("errdex") or config.getoption("errdex_json") or config.getini("errdex")
    )


def pytest_configure(config: pytest.Config) -> None:
    if enabled(config) and not config.pluginmanager.has_plugin(PLUGIN_NAME):
        config.pluginmanager.register(ErrdexReporter(config), PLUGIN_NAME)


class ErrdexReporter:
    """The enabled plugin: matches each failure's exception and reports it."""

    def __init__(self, config: pytest.Config) -> None:
        self.db, self.problem = _catalogue(config.getoption("errdex_db"))
        self.shown = str(self.db)
        if isinstance(self.db, str):  # a server's URL
            from errdex.db_url import shown_url

            self.shown = shown_url(self.db)
        self.json: IO[str] | None = None
        target = config.getoption("errdex_json")
        if target and not hasattr(config, "workerinput"):  # xdist workers only make reports
            path = Path(target)
            path.parent.mkdir(parents=True, exist_ok=True)
            self.json = path.open("w", encoding="utf-8")

    def pytest_report_header(self) -> str:
        return f"errdex: {self.problem}" if self.problem else f"errdex: catalogue {self.shown}"

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(
        self, item: pytest.Item, call: pytest.CallInfo[None]
    ) -> Generator[None, Any, None]:
        outcome = yield
        report: pytest.TestReport = outcome.get_result()
        if report.failed and call.excinfo is not None:
            text, line = self.explain(call.excinfo.value)
            report.sections.append((SECTION, text))
            line.update(nodeid=report.nodeid, when=report.when)
            setattr(report, REPORT_KEY, line)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        line = getattr(report, REPORT_KEY, None)
        if self.json is not None and isinstance(line, dict):
            self.json.write(json.dumps(line, ensure_ascii=False) + "\n")
            self.json.flush()

    def pytest_unconfigure(self) -> None:
        if self.json is not None:
            self.json.close()
            self.json = None

    def explain(self, value: BaseException) -> tuple[str, dict[str, Any]]:
        """The section's text and the JSON line's fields for one live exception."""
        line: dict[str, Any] = {
            "errorClass": type(value).__name__,
            "message": str(value),
            "status": "no catalogue",
            "candidates": [],
        }
        if self.db is None:
            return f"errdex: {self.problem}", line
        try:
            from errdex.integrations.block import render_text
            from errdex.integrations.live import answers_for_exception

            answers = answers_for_exception(value, db=self.db, top=TOP)
            text = render_text(answers, color=False, rule=False)  # pytest titles the section
        except Exception as exc:  # errdex must never fail the run it reports on
            line["status"] = "errdex failed"
            return f"errdex could not explain this error ({type(exc).__name__}: {exc})", line
        candidates = [c for answer in answers for c in answer.candidates]
        line["candidates"] = [
            {
                "id": c.id,
                "confidence": c.confidence,
                "repo": c.repo,
                "filePath": c.filePath,
                "lineNumber": c.lineNumber,
            }
            for c in candidates
        ]
        line["status"] = (
            "matched" if candidates else (answers[-1].status if answers else "no error")
        )
        if not text:
            text = (
                f"errdex: nothing in {self.shown} matches {line['errorClass']} ({line['status']})"
            )
        return text, line


def _catalogue(given: str | None) -> tuple[Path | str | None, str | None]:
    """The catalogue to use (a file, or a ``postgresql://`` URL as the string itself), or
    why there is none (a usable run either way)."""
    from errdex.integrations.catalogue import default_db, is_server_url

    if given and is_server_url(given):
        return given, None
    path = Path(os.path.expanduser(given)) if given else default_db()
    if path is None:
        return None, "no catalogue found (pass --errdex-db FILE or set ERRDEX_DB)"
    if isinstance(path, str):  # ERRDEX_DB names a server
        return path, None
    if not path.is_file():
        return None, f"catalogue {path} does not exist; no raise sites to show"
    return path, None
