"""Real npm packages (axios, express) installed once per machine and scanned end to end.

``npm_packages()`` installs pinned versions with npm into ``~/.cache/errdex-test/npm``
(a lock keeps parallel workers from installing twice); the node trace tests and
``bench/js_extract.py`` use the same install.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from errdex.scan import ScanResult, scan_checkout
from errdex.source import open_source

#: The packages and versions the tests read (pinned: line numbers are asserted).
NPM_PACKAGES = {"axios": "1.7.9", "express": "4.21.2"}
SHA = "0123456789abcdef0123456789abcdef01234567"


def npm_root() -> Path:
    base = os.environ.get("ERRDEX_TEST_CACHE") or str(Path.home() / ".cache" / "errdex-test")
    return Path(base) / "npm"


def _installed(root: Path) -> bool:
    for name, version in NPM_PACKAGES.items():
        manifest = root / "node_modules" / name / "package.json"
        try:
            if json.loads(manifest.read_text())["version"] != version:
                return False
        except (OSError, ValueError, KeyError):
            return False
    return True


def npm_packages() -> Path:
    """``node_modules`` holding the pinned packages, installed with npm on first use."""
    root = npm_root()
    root.mkdir(parents=True, exist_ok=True)
    with open(root / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not _installed(root):
            npm = shutil.which("npm")
            if npm is None:
                pytest.fail("npm is needed to install the JavaScript test packages")
            specs = [f"{n}@{v}" for n, v in NPM_PACKAGES.items()]
            subprocess.run(
                [npm, "install", "--prefix", str(root), "--no-audit", "--no-fund", *specs],
                check=True,
                capture_output=True,
                timeout=600,
            )
    return root / "node_modules"


@pytest.fixture(scope="session")
def node_modules() -> Path:
    return npm_packages()


def scan_package(node_modules: Path, name: str) -> ScanResult:
    checkout = open_source(str(node_modules / name), repo=f"{name}/{name}", sha=SHA)
    return scan_checkout(checkout, repo=f"{name}/{name}")


def _records(result: ScanResult) -> dict[tuple[str, int], list[dict[str, object]]]:
    found: dict[tuple[str, int], list[dict[str, object]]] = {}
    for record, _ in result.items:
        found.setdefault((str(record["filePath"]), int(str(record["lineNumber"]))), []).append(
            record
        )
    return found


def _catalogued(
    node_modules: Path, name: str
) -> tuple[ScanResult, dict[tuple[str, int], list[dict[str, object]]], Path]:
    """A package scanned with nothing skipped: the result, its records by line, its folder."""
    result = scan_package(node_modules, name)
    assert not result.skipped
    return result, _records(result), node_modules / name


def _line(path: Path, needle: str) -> int:
    (number,) = [n for n, text in enumerate(path.read_text().splitlines(), 1) if needle in text]
    return number


def test_axios_is_catalogued_with_codes_and_templates(node_modules: Path) -> None:
    result, by_line, lib = _catalogued(node_modules, "axios")
    settle = _line(lib / "lib/core/settle.js", "reject(new AxiosError(")
    (record,) = by_line[("lib/core/settle.js", settle)]
    assert record["errorClass"] == "AxiosError"
    assert record["errorMessage"] == "Request failed with status code {response.status}"
    timeout = _line(lib / "lib/adapters/http.js", "error trying to parse `config.timeout` to int")
    (record,) = by_line[("lib/adapters/http.js", timeout - 1)]
    assert (record["errorCode"], record["errorType"]) == ("ERR_BAD_OPTION_VALUE", "error_code")
    adapter = _line(lib / "lib/adapters/adapters.js", "Unknown adapter")
    (record,) = by_line[("lib/adapters/adapters.js", adapter)]
    assert record["errorMessage"] == "Unknown adapter '${id}'"
    # the dist bundles are build output, and index.d.ts holds no code
    assert not any(path.startswith("dist/") for path, _ in by_line)
    styles = Counter(e["site"]["style"] for _, e in result.items)
    assert styles["reject"] >= 10 and styles["new"] >= 15 and styles["console"] >= 1


def test_express_is_catalogued_with_callbacks_and_http_errors(node_modules: Path) -> None:
    _, by_line, lib = _catalogued(node_modules, "express")
    done = _line(lib / "lib/application.js", "return done(err);")
    messages = {r["errorMessage"] for r in by_line[("lib/application.js", done)]}
    assert messages == {
        'Failed to lookup view "{name}" in views directory "{view.root}"',
        'Failed to lookup view "{name}" in views directories "{view.root.slice(0, -1).join(\'", "\')}"'
        ' or "{view.root[view.root.length - 1]}"',
    }
    route = _line(lib / "lib/router/route.js", "throw new Error(msg)")
    (record,) = by_line[("lib/router/route.js", route)]
    assert record["errorMessage"] == (
        "Route.{method}() requires a callback function but got a {type}"
    )
    format_406 = _line(lib / "lib/response.js", "next(createError(406")
    (record,) = by_line[("lib/response.js", format_406)]
    assert (record["errorClass"], record["httpStatus"], record["errorType"]) == (
        "NotAcceptableError",
        406,
        "http",
    )
    aborted = _line(lib / "lib/response.js", "var err = new Error('Request aborted');")
    (record,) = [
        r
        for (p, n), rs in by_line.items()
        for r in rs
        if p == "lib/response.js" and aborted < n <= aborted + 3
    ]
    assert record["errorCode"] == "ECONNABORTED"
