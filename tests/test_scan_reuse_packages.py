"""Incremental re-scans of real packages (copies of click and networkx from this
environment), each after one edit, against a cold scan of the edited tree: the exported
records must be the same bytes, analyzedAt aside, while most records keep their
last analysis."""

from __future__ import annotations

import importlib.util
import json
import math
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from errdex.extract.python import module_name_for
from errdex.scan import ScanResult, scan_checkout
from errdex.scan_cache import ScanCache
from errdex.source import open_source

Edit = Callable[[Path, ScanResult], None]


def _export(result: ScanResult) -> bytes:
    """The records as the JSON export writes them (one envelope a line), analyzedAt aside."""
    lines = []
    for record, evidence in sorted(result.items, key=lambda it: it[0]["id"]):
        record = {k: v for k, v in record.items() if k != "analyzedAt"}
        lines.append(json.dumps({"record": record, "evidence": evidence}, sort_keys=True))
    return "\n".join(lines).encode()


def _installed(name: str) -> Path:
    """The directory of an installed package (not imported: only its files are read)."""
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).parent


def _scan(tree: Path, repo: str, cache: Path) -> ScanResult:
    checkout = open_source(str(tree), repo=repo)
    with ScanCache(cache) as c:
        return scan_checkout(checkout, repo=repo, cache=c, analysis_budget=math.inf)


def _body(rel: str) -> Edit:
    """A statement added before the first ``return`` of ``rel``: a body changes, no name."""

    def edit(tree: Path, _: ScanResult) -> None:
        path = tree / rel
        text = path.read_text()
        found = re.search(r"^( +)return ", text, re.M)
        assert found is not None
        at = found.start()
        path.write_text(text[:at] + found.group(1) + "_probe = 1\n" + text[at:])

    return edit


def _append(rel: str) -> Edit:
    """A new private function with a raise at the end of ``rel``."""

    def edit(tree: Path, _: ScanResult) -> None:
        path = tree / rel
        path.write_text(
            path.read_text() + '\n\ndef _probe_edit(x):\n    raise ValueError(f"probe {x}")\n'
        )

    return edit


def _top_function(
    result: ScanResult, wanted: Callable[[dict[str, Any], dict[str, Any]], bool]
) -> tuple[str, str, str]:
    """(module, function, message) of the first record (by id) raised in a module-level
    function that ``wanted`` accepts."""
    for record, evidence in sorted(result.items, key=lambda it: it[0]["id"]):
        site = evidence["site"]
        module, name = module_name_for(record["filePath"]), site.get("function")
        if name and site.get("qualname") == f"{module}.{name}" and wanted(record, evidence):
            return module, name, record["errorMessage"]
    raise AssertionError("no such record")


def _new_caller(rel: str) -> Edit:
    """A new public module calling a function that no public function reached: it becomes
    that function's entry point."""

    def edit(tree: Path, before: ScanResult) -> None:
        module, name, _ = _top_function(before, lambda r, e: not e["entryPoints"])
        (tree / rel).write_text(
            f"from {module} import {name}\n\n\ndef run(*args, **kwargs):\n"
            f"    return {name}(*args, **kwargs)\n"
        )

    return edit


def _new_test(rel: str) -> Edit:
    """A new test calling a function and expecting the message of its NetworkXError."""

    def edit(tree: Path, before: ScanResult) -> None:
        module, name, message = _top_function(
            before,
            lambda r, e: (
                r["errorClass"] == "NetworkXError"
                and re.fullmatch(r"[A-Za-z ]{16,60}", r["errorMessage"]) is not None
                and not e["tests"]
            ),
        )
        path = tree / rel
        path.write_text(
            path.read_text() + "\n\ndef test_probe_expects():\n"
            f"    from {module} import {name}\n\n"
            f"    with pytest.raises(nx.NetworkXError, match={message!r}):\n"
            f"        {name}(None)\n"
        )

    return edit


CLICK = [
    ("body", _body("click/core.py"), True),
    ("append", _append("click/types.py"), True),
    ("caller", _new_caller("click/probe.py"), True),
]
NETWORKX = [
    ("test", _new_test("networkx/algorithms/tests/test_dag.py"), True),
]


def _check(source: Path, repo: str, tmp_path: Path, name: str, edit: Edit, local: bool) -> None:
    tree = tmp_path / "tree"  # the package inside, so that its modules keep their names
    shutil.copytree(source, tree / source.name, ignore=shutil.ignore_patterns("__pycache__"))
    cache = tmp_path / "cache.sqlite"
    before = _scan(tree, repo, cache)
    edit(tree, before)
    after = _scan(tree, repo, cache)
    cold = _scan(tree, repo, tmp_path / "cold.sqlite")
    use = after.cache_use
    assert use is not None and use.whole == "files"
    assert _export(after) == _export(cold), name
    assert _export(after) != _export(before)  # the edit changed records
    if local:
        assert use.records_kept > 0 and use.records_reanalysed > 0


@pytest.mark.parametrize(("name", "edit", "local"), CLICK, ids=[c[0] for c in CLICK])
def test_click_after_one_edit_equals_a_cold_scan(
    tmp_path: Path, name: str, edit: Edit, local: bool
) -> None:
    _check(_installed("click"), "pallets/click", tmp_path, name, edit, local)


@pytest.mark.parametrize(("name", "edit", "local"), NETWORKX, ids=[c[0] for c in NETWORKX])
def test_networkx_after_one_edit_equals_a_cold_scan(
    tmp_path: Path, name: str, edit: Edit, local: bool
) -> None:
    _check(_installed("networkx"), "networkx/networkx", tmp_path, name, edit, local)
