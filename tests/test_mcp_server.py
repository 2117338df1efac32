"""``errdex mcp``: a real MCP client session from the SDK, over stdio, against a real scan."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from click.testing import CliRunner
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent

from errdex.cli import main
from errdex.mcp_commands import INSTALL_HINT
from errdex.mcp_server import ErrdexTools, markdown

WIDGETS = '''
class WidgetError(Exception):
    pass


def fetch(name: str, size: int) -> str:
    """Fetch a widget."""
    if size > 10:
        raise ValueError(f"size {size} is too large for widget {name!r}")
    if not name:
        raise WidgetError("widget name must not be empty")
    return name
'''

TRACEBACK = """Traceback (most recent call last):
  File "app.py", line 3, in <module>
    fetch("gear", 12)
  File "/site-packages/widgets/__init__.py", line 9, in fetch
    raise ValueError(f"size {size} is too large for widget {name!r}")
ValueError: size 12 is too large for widget 'gear'
"""


ERRDEX = [sys.executable, "-m", "errdex.cli"]


def _env() -> dict[str, str]:
    env = {"PYTHONPATH": os.environ.get("PYTHONPATH", ""), "ERRDEX_OFFLINE": "1"}
    return env


def scan(root: Path, db: Path) -> None:
    """``errdex scan ROOT/src --repo acme/widgets``, as a user runs it."""
    done = subprocess.run(
        [*ERRDEX, "scan", str(root / "src"), "--repo", "acme/widgets", "--db", str(db)],
        capture_output=True,
        text=True,
        env={**os.environ, **_env()},
        timeout=300,
    )
    assert done.returncode == 0, done.stderr


def widgets(root: Path) -> Path:
    package = root / "src" / "widgets"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(WIDGETS)
    return package


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A catalogue written by ``errdex scan`` over a small package."""
    root = tmp_path_factory.mktemp("mcp")
    widgets(root)
    scan(root, root / "errdex.db")
    return root / "errdex.db"


Session = Callable[[ClientSession], Awaitable[None]]


def in_session(db: Path, body: Session, *options: str) -> None:
    """Spawn ``errdex mcp --db DB [OPTIONS]`` and run ``body`` in an initialised session."""

    async def go() -> None:
        params = StdioServerParameters(
            command=sys.executable,
            args=["-m", "errdex.cli", "mcp", "--db", str(db), *options],
            env=_env(),
        )
        with open(os.devnull, "w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                await body(session)

    anyio.run(go)


def text_of(result: CallToolResult) -> str:
    return "".join(block.text for block in result.content if isinstance(block, TextContent))


def data_of(result: CallToolResult) -> dict[str, Any]:
    """The structured result, which must also be what the text content says."""
    assert not result.is_error, text_of(result)
    data = result.structured_content
    assert isinstance(data, dict)
    assert json.loads(text_of(result)) == data
    return data


def test_session_lists_and_calls_every_tool(catalogue: Path) -> None:
    seen: dict[str, Any] = {}

    async def body(session: ClientSession) -> None:
        listed = await session.list_tools()
        seen["tools"] = {tool.name: tool for tool in listed.tools}
        seen["search"] = data_of(
            await session.call_tool("search_error", {"message": "is too large for widget"})
        )
        seen["match"] = data_of(await session.call_tool("match_traceback", {"text": TRACEBACK}))
        record_id = seen["match"]["answers"][0]["candidates"][0]["id"]
        seen["get"] = data_of(await session.call_tool("get_error", {"id": record_id}))
        slug = seen["get"]["record"]["slug"]
        seen["by_slug"] = data_of(
            await session.call_tool("get_error", {"repo": "acme/widgets", "slug": slug})
        )
        seen["repos"] = data_of(await session.call_tool("list_repos", {}))
        seen["explain"] = data_of(await session.call_tool("explain_error", {"text": TRACEBACK}))

    in_session(catalogue, body)

    tools = seen["tools"]
    assert set(tools) == {
        "search_error",
        "get_error",
        "list_repos",
        "match_traceback",
        "explain_error",
    }
    assert tools["search_error"].input_schema["required"] == ["message"]
    assert set(tools["search_error"].input_schema["properties"]) == {"message", "repo", "limit"}
    assert set(tools["get_error"].input_schema["properties"]) == {"id", "repo", "slug"}
    assert tools["match_traceback"].input_schema["required"] == ["text"]

    (hit,) = [m for m in seen["search"]["matches"] if m["errorClass"] == "ValueError"]
    assert hit["repo"] == "acme/widgets"
    assert hit["url"] == f"/repos/acme/widgets/errors/{hit['id']}/{hit['slug']}"

    (answer,) = seen["match"]["answers"]
    assert answer["status"] == "matched"
    best = answer["candidates"][0]
    assert best["id"] == hit["id"]
    assert best["holes"] == {"size": "12", "name": "'gear'"}
    assert best["reasons"] and best["confidence"] > 0.5
    assert best["url"] == hit["url"]

    got = seen["get"]
    assert got["record"]["id"] == hit["id"]
    assert got["record"]["errorMessage"] == "size {size} is too large for widget {name!r}"
    assert got["url"] == hit["url"] and got["stale"] is False
    assert "evidence" in got and got["datasetVersion"]
    assert "`size {size} is too large for widget {name!r}`" in got["markdown"]
    assert seen["by_slug"]["record"]["id"] == hit["id"]

    (repo,) = seen["repos"]["repos"]
    assert repo["repo"] == "acme/widgets"
    assert repo["errorCount"] == 2

    explanation = seen["explain"]["answers"][0]["explanation"]
    assert explanation["id"] == hit["id"]
    assert explanation["holes"] == {"size": "12", "name": "'gear'"}
    assert explanation["thrownAt"]["lineNumber"] == hit["lineNumber"]
    assert "size > 10" in [guard["text"] for guard in explanation["conditions"]]
    assert "raise ValueError" in explanation["sourceCode"]


def test_bad_calls_are_tool_errors_and_the_server_goes_on(catalogue: Path) -> None:
    results: dict[str, CallToolResult] = {}

    async def body(session: ClientSession) -> None:
        results["unknown"] = await session.call_tool("get_error", {"id": "0123456789abcdef"})
        results["nothing"] = await session.call_tool("get_error", {})
        results["empty"] = await session.call_tool("match_traceback", {"text": "  \n"})
        results["blank"] = await session.call_tool("search_error", {"message": ""})
        results["after"] = await session.call_tool("list_repos", {})

    in_session(catalogue, body)
    assert results["unknown"].is_error
    assert "no error record 0123456789abcdef" in text_of(results["unknown"])
    assert results["nothing"].is_error and "pass id" in text_of(results["nothing"])
    assert results["empty"].is_error and "paste is empty" in text_of(results["empty"])
    assert results["blank"].is_error and "message is empty" in text_of(results["blank"])
    assert data_of(results["after"])["repos"][0]["repo"] == "acme/widgets"


def test_without_a_catalogue_every_tool_says_how_to_make_one(tmp_path: Path) -> None:
    results: list[CallToolResult] = []

    async def body(session: ClientSession) -> None:
        results.append(await session.call_tool("list_repos", {}))
        results.append(await session.call_tool("match_traceback", {"text": TRACEBACK}))

    in_session(tmp_path / "missing.db", body)
    assert len(results) == 2
    for result in results:
        assert result.is_error
        assert "run `errdex scan` first" in text_of(result)
    assert not (tmp_path / "missing.db").exists()  # asking never creates one


def test_a_scan_while_the_server_runs_is_found_without_a_restart(tmp_path: Path) -> None:
    package = widgets(tmp_path)
    db = tmp_path / "errdex.db"
    scan(tmp_path, db)
    paste = "RuntimeError: gizmo 7 overheated at 451 degrees"
    before: dict[str, Any] = {}
    after: dict[str, Any] = {}

    async def body(session: ClientSession) -> None:
        before["search"] = data_of(await session.call_tool("search_error", {"message": paste}))
        before["match"] = data_of(await session.call_tool("match_traceback", {"text": paste}))
        (package / "gizmo.py").write_text(
            "def heat(n, t):\n"
            "    if t > 400:\n"
            "        raise RuntimeError(f'gizmo {n} overheated at {t} degrees')\n"
        )
        await anyio.to_thread.run_sync(scan, tmp_path, db)
        after["search"] = data_of(await session.call_tool("search_error", {"message": paste}))
        after["match"] = data_of(await session.call_tool("match_traceback", {"text": paste}))
        after["repos"] = data_of(await session.call_tool("list_repos", {}))

    in_session(db, body)
    assert before["search"]["matches"] == []
    assert before["match"]["answers"][0]["candidates"] == []
    (hit,) = after["search"]["matches"]
    assert hit["filePath"] == "widgets/gizmo.py"
    best = after["match"]["answers"][0]["candidates"][0]
    assert best["id"] == hit["id"]
    assert best["holes"] == {"n": "7", "t": "451"}
    assert after["repos"]["repos"][0]["errorCount"] == 3


def test_a_file_that_is_no_catalogue_is_a_tool_error(tmp_path: Path) -> None:
    foreign = tmp_path / "notes.db"
    foreign.write_text("not a database, just text\n" * 100)
    tools = ErrdexTools(foreign)
    calls: list[Callable[[], object]] = [
        tools.list_repos,
        lambda: tools.search_error("boom"),
        lambda: tools.get_error(id="0123456789abcdef"),
        lambda: tools.match_traceback("ValueError: boom"),
        lambda: tools.explain_error("ValueError: boom"),
    ]
    for call in calls:
        with pytest.raises(ToolError, match="is not an errdex database"):
            call()
    assert foreign.read_text().startswith("not a database")


def test_a_base_url_makes_the_urls_absolute(catalogue: Path) -> None:
    site = "https://errors.example.org/py"
    seen: dict[str, Any] = {}

    async def body(session: ClientSession) -> None:
        seen["match"] = data_of(await session.call_tool("match_traceback", {"text": TRACEBACK}))
        seen["repos"] = data_of(await session.call_tool("list_repos", {}))

    in_session(catalogue, body, "--base-url", site + "/")
    hit = ErrdexTools(catalogue, site).search_error("too large for widget")["matches"][0]
    assert hit["url"] == f"{site}/repos/acme/widgets/errors/{hit['id']}/{hit['slug']}"
    assert hit["api"] == f"{site}/api/errors/{hit['id']}"
    assert seen["match"]["answers"][0]["candidates"][0]["url"] == hit["url"]
    assert seen["repos"]["repos"][0]["url"] == f"{site}/repos/acme/widgets"
    got = ErrdexTools(catalogue, site).get_error(id=hit["id"])
    assert got["url"] == hit["url"]


def test_mcp_refuses_a_base_url_that_is_not_http(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["mcp", "--db", str(tmp_path / "x.db"), "--base-url", "ftp://x"]
    )
    assert result.exit_code == 2
    assert "is not an http(s) URL" in result.output


def test_an_unmatched_error_says_why(catalogue: Path) -> None:
    data = ErrdexTools(catalogue).match_traceback("KeyError: 'spam'")
    (answer,) = data["answers"]
    assert answer["candidates"] == []
    assert answer["status"] == "not catalogued"
    explained = ErrdexTools(catalogue).explain_error("KeyError: 'spam'")
    assert explained["answers"][0]["explanation"] is None


def test_an_undecided_group_is_said_so_and_explains_no_one_site(tmp_path: Path) -> None:
    from .match.conftest import build_package

    code = "def get(table, key):\n    if key not in table:\n        raise KeyError(key)\n"
    db = build_package(tmp_path, "lookup", {"table.py": code})
    (answer,) = ErrdexTools(db).match_traceback("KeyError: 'spam'")["answers"]
    assert answer["status"] == "undecided"
    assert answer["group"]["undecided"] is True and "interpreter" in answer["group"]["reason"]
    assert [c["filePath"] for c in answer["candidates"]] == ["src/lookup/table.py"]
    explained = ErrdexTools(db).explain_error("KeyError: 'spam'")
    assert explained["answers"][0]["explanation"] is None


def test_pytest_output_gets_one_answer_per_failure(catalogue: Path) -> None:
    paste = (
        "FAILED tests/test_a.py::test_big - ValueError: size 99 is too large for widget 'x'\n"
        "FAILED tests/test_a.py::test_empty - widgets.WidgetError: widget name must not be empty\n"
    )
    answers = ErrdexTools(catalogue).match_traceback(paste)["answers"]
    assert [a["errorClass"] for a in answers] == ["ValueError", "widgets.WidgetError"]
    assert answers[0]["candidates"][0]["holes"] == {"size": "99", "name": "'x'"}
    assert answers[1]["candidates"][0]["errorMessage"] == "widget name must not be empty"


def test_markdown_has_the_record_s_parts() -> None:
    text = markdown(
        {
            "repo": "acme/widgets",
            "errorMessage": "boom",
            "errorClass": "ValueError",
            "severity": "error",
            "filePath": "w.py",
            "lineNumber": 3,
            "documentation": "It blew up.",
            "solutions": ["Do not.", "Really."],
            "githubUrl": "https://github.com/acme/widgets/blob/abc/w.py#L3",
        }
    )
    assert text.startswith("# boom\n")
    assert "## What it means\nIt blew up." in text
    assert "1. Do not.\n2. Really." in text
    assert text.endswith("Source: https://github.com/acme/widgets/blob/abc/w.py#L3")


def test_missing_sdk_says_how_to_install_it(tmp_path: Path) -> None:
    """A fresh interpreter where ``import mcp`` fails, as where the extra is not installed."""
    code = "import sys; sys.modules['mcp'] = None; from errdex.cli import main; main()"
    done = subprocess.run(
        [sys.executable, "-c", code, "mcp", "--db", str(tmp_path / "x.db")],
        capture_output=True,
        text=True,
        env={**os.environ, **_env()},
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 1
    assert INSTALL_HINT in done.stderr
    assert "Traceback" not in done.stderr
