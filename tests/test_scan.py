"""The scan pipeline end to end on real files: seed goldens, bad input, JSON Schema."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import re2

from errdex.scan import ScanResult, scan_checkout
from errdex.source import open_source

SEED_SHA = "1e1c6a8fc06dfcd1247076ec5cae4640cea5d7bb"


def scan_dir(root: Path, **kwargs: Any) -> ScanResult:
    checkout = open_source(str(root), repo="jax-ml/jax", sha=SEED_SHA)
    return scan_checkout(checkout, repo="jax-ml/jax", **kwargs)


def by_line(result: ScanResult, path: str) -> dict[int, dict[str, Any]]:
    return {r["lineNumber"]: r for r, _ in result.items if r["filePath"] == path}


def seed_000_fixture(root: Path, seed: dict[str, Any]) -> Path:
    """A file whose lines 1579..1615 are seed 000's sourceCode, valid Python around them."""
    record = seed["record"]
    window = record["sourceCode"].split("\n")
    assert len(window) == 37
    head = [f"# filler line {i}" for i in range(1, 1578)]
    head.append(
        "def _all_to_all_effectful_abstract_eval(input_aval, axis_name, split_axis, concat_axis, axis_index_groups):"
    )
    assert len(head) == 1578
    tail = ["  return None", "", "# the end"]
    path = root / "jax" / "_src" / "lax" / "parallel.py"
    path.parent.mkdir(parents=True)
    path.write_text("\n".join(head + window + tail) + "\n", encoding="utf-8")
    return path


def test_seed_000_golden(
    tmp_path: Path, seed_000: dict[str, Any], record_validator: jsonschema.Draft202012Validator
) -> None:
    seed_000_fixture(tmp_path, seed_000)
    result = scan_dir(tmp_path)
    ours = by_line(result, "jax/_src/lax/parallel.py")[1597]
    seed = seed_000["record"]
    for key in (
        "id",
        "repo",
        "slug",
        "errorMessage",
        "messagePattern",
        "errorType",
        "errorClass",
        "severity",
        "filePath",
        "lineNumber",
        "sourceCode",
        "sourceCodeStart",
        "sourceCodeEnd",
        "githubUrl",
        "analyzedSha",
        "schemaVersion",
    ):
        assert ours[key] == seed[key], key
    assert list(ours) == list(seed), "record keys must be in seed 000's order"
    for record, _ in result.items:
        record_validator.validate(record)


def test_seed_000_itself_is_a_valid_record(
    seed_000: dict[str, Any], record_validator: jsonschema.Draft202012Validator
) -> None:
    record_validator.validate(seed_000["record"])


SEED_004_CODE = """\
def top_level_all_gather_impl(x, aval, in_spec, out_spec, multi_dim):
  def f_shmap(x):
    count = 0
    for axis, (i, o) in enumerate(zip(in_spec.partitions, out_spec.partitions)):
      if i == o:
        continue
      if not multi_dim and count > 0:
        raise ValueError(
            "multiple dimensions cannot be all_gathered since multi_dim=False"
            f" passed to `top_level_all_gather`. Got {in_spec=} and {out_spec=}")
      count += 1
      if i is None:
        raise ValueError(
            f"top_level_all_gather doesn't allow input {aval} to be unsharded"
            f" on dimension {axis} when {out_spec=}.")
    return x
  return f_shmap(x)
"""


def test_seed_004_fstring(tmp_path: Path) -> None:
    path = tmp_path / "jax" / "_src" / "shard_map.py"
    path.parent.mkdir(parents=True)
    path.write_text(SEED_004_CODE)
    record = by_line(scan_dir(tmp_path), "jax/_src/shard_map.py")[13]
    assert record["errorMessage"] == (
        "top_level_all_gather doesn't allow input {aval} to be unsharded on dimension {axis} when {out_spec=}."
    )
    assert record["id"] == "5d2e70398b67b2ee"
    runtime = "top_level_all_gather doesn't allow input float32[8,4] to be unsharded on dimension 0 when out_spec=PartitionSpec('data', None)."
    import re

    m = re.fullmatch(record["messagePattern"], runtime)
    assert m is not None and m.groups() == ("float32[8,4]", "0", "PartitionSpec('data', None)")
    assert re2.fullmatch(record["messagePattern"], runtime) is not None
    assert "Seed".lower() not in record["documentation"]


def test_same_message_twice_in_a_file_gets_distinct_stable_ids(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "m.py").write_text(
        "def a():\n    raise ValueError('boom')\n\n"
        "def b():\n    raise ValueError('boom')\n    raise ValueError('boom')\n"
    )
    result = scan_dir(tmp_path)
    ids = [r["id"] for r, _ in result.items]
    slugs = [r["slug"] for r, _ in result.items]
    assert len(set(ids)) == 3 and len(set(slugs)) == 3
    # moving code down does not change the ids
    (tmp_path / "pkg" / "m.py").write_text("\n\n\n" + (tmp_path / "pkg" / "m.py").read_text())
    assert [r["id"] for r, _ in scan_dir(tmp_path).items] == ids


def test_bad_input_is_skipped_counted_and_named(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "good.py").write_text("def f():\n    raise ValueError('fine')\n")
    (pkg / "syntax.py").write_text("def f(:\n    raise ValueError('x')\n")
    (pkg / "py2.py").write_text("def f():\n    raise ValueError, 'old'\nprint 'x'\n")
    (pkg / "nul.py").write_bytes(b"raise ValueError('a')\x00\n")
    (pkg / "latin.py").write_bytes(b"raise ValueError('caf\xe9')\n")
    (pkg / "big.py").write_text("x = 1\n" * (20 * 1024 * 1024 // 6 + 1))
    outside = tmp_path.parent / f"{tmp_path.name}-outside.py"
    outside.write_text("raise ValueError('outside')\n")
    os.symlink(outside, pkg / "link.py")
    os.mkfifo(pkg / "fifo.py")
    result = scan_dir(tmp_path)
    reasons = dict(result.skipped)
    assert reasons["pkg/syntax.py"].startswith("syntax error at line 1")
    assert reasons["pkg/py2.py"].startswith("syntax error at line 2")
    assert reasons["pkg/nul.py"] == "binary: contains a NUL byte"
    assert reasons["pkg/latin.py"].startswith("invalid UTF-8")
    assert reasons["pkg/big.py"].startswith("too large")
    assert "outside" in reasons["pkg/link.py"]
    assert "pkg/fifo.py" in reasons
    assert [r["errorMessage"] for r, _ in result.items] == ["fine"]


def test_declared_encoding_is_honoured(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_bytes(b"# -*- coding: latin-1 -*-\nraise ValueError('caf\xe9')\n")
    result = scan_dir(tmp_path)
    assert [r["errorMessage"] for r, _ in result.items] == ["café"]


def test_jobs_give_the_same_records(tmp_path: Path) -> None:
    for i in range(80):
        (tmp_path / f"m{i}.py").write_text(
            f"def f{i}(x):\n    if x:\n        raise ValueError(f'bad {{x}} in {i}')\n"
        )
    one = scan_dir(tmp_path, jobs=1)
    two = scan_dir(tmp_path, jobs=2)

    def strip(items: list[tuple[dict[str, Any], dict[str, Any]]]) -> list[str]:
        return sorted(json.dumps({**r, "analyzedAt": None}, sort_keys=True) for r, _ in items)

    assert strip(one.items) == strip(two.items)
    assert one.sites == two.sites == 80


def test_evidence_marks_the_extractor_as_author(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        "def f(x):\n    if x < 0:\n        raise ValueError('negative')\n"
    )
    ((record, evidence),) = scan_dir(tmp_path, analyze=False).items
    assert evidence["analysis"] == "extractor"
    for key in ("documentation", "triggerScenarios", "commonSituations", "solutions"):
        assert evidence["provenance"][key]["analyst"] == "extractor"
    assert evidence["site"]["guards"] == [{"kind": "if", "text": "x < 0", "line": 2}]
    assert evidence["site"]["qualname"] == "m.f"
    assert "`x < 0`" in record["triggerScenarios"]
    assert "not (x < 0)" in record["solutions"][0]


def test_scan_runs_the_static_analyst_by_default(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        "def f(x):\n    if x < 0:\n        raise ValueError('negative')\n"
    )
    ((record, evidence),) = scan_dir(tmp_path).items
    assert evidence["analysis"] == "static"
    for key in ("documentation", "triggerScenarios", "commonSituations", "solutions"):
        assert evidence["provenance"][key]["analyst"] == "static"
    assert evidence["site"]["guards"] == [{"kind": "if", "text": "x < 0", "line": 2}]
    assert [e["qualname"] for e in evidence["entryPoints"]] == ["m.f"]
    assert "`x < 0`" in record["triggerScenarios"]
    # the fix is worded for the caller (d32's caller_words): what to pass, not the guard
    assert record["solutions"][0].startswith("Pass `x` to `f()` as a non-negative value")


@pytest.mark.parametrize("jobs", [1, 2])
def test_every_record_of_a_real_package_is_schema_valid(
    jobs: int, record_validator: jsonschema.Draft202012Validator
) -> None:
    checkout = open_source(package="click")
    result = scan_checkout(checkout, repo=checkout.repo or "pallets/click", jobs=jobs)
    assert result.sites > 50
    for record, evidence in result.items:
        record_validator.validate(record)
        assert json.loads(json.dumps(evidence)) == evidence


def test_an_extractor_bug_costs_one_file_not_the_scan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errdex.scan as scan_module

    (tmp_path / "good.py").write_text("raise ValueError('fine')\n")
    (tmp_path / "bad.py").write_text("raise ValueError('trips the bug')\n")
    real = scan_module.load_extractor("errdex.extract.python")

    def flaky(text: str, file_path: str, lines: list[str]) -> Any:
        if file_path == "bad.py":
            raise IndexError("list index out of range")
        return real(text, file_path, lines)

    monkeypatch.setattr(scan_module, "load_extractor", lambda module: flaky)
    result = scan_dir(tmp_path, analyze=False)
    assert [r["errorMessage"] for r, _ in result.items] == ["fine"]
    assert dict(result.skipped)["bad.py"].startswith("errdex could not read this file (IndexError")


def _store_scan_of(root: Path, db: Path, **kwargs: Any) -> tuple[ScanResult, list[dict[str, Any]]]:
    """Scan ``root`` and store it in a real SQLite file; the result and the stored envelopes."""
    from errdex.record import iso_now
    from errdex.scan import store_scan
    from errdex.store import SqliteStore

    checkout = open_source(str(root), repo="o/hostile", sha=SEED_SHA)
    started = iso_now()
    result = scan_checkout(checkout, repo="o/hostile", **kwargs)
    with SqliteStore(str(db)) as store:
        store_scan(store, checkout, "o/hostile", result, started)
        stored = list(store.iter_envelopes("o/hostile"))
    return result, stored


@pytest.mark.parametrize("size", [100_000, 1_000_000])
@pytest.mark.parametrize("unit", ["a", "shape ", "x is deprecated "])
def test_a_huge_message_literal_is_analysed_and_stored(
    tmp_path: Path, size: int, unit: str
) -> None:
    # each unit once made one of the analyst's regexes backtrack quadratically
    literal = (unit * (size // len(unit) + 1))[:size]
    root = tmp_path / "repo"
    root.mkdir()
    (root / "m.py").write_text(
        f"def f(x):\n    '''Check x.'''\n    if x:\n        raise ValueError(f{literal + ' {x}'!r})\n"
    )
    result, stored = _store_scan_of(root, tmp_path / "e.db", analysis_budget=float("inf"))
    assert result.analysis_error is None and result.skipped == []
    ((record, evidence),) = result.items
    assert evidence["analysis"] == "static"
    assert record["errorMessage"].startswith(literal)
    assert [env["record"]["id"] for env in stored] == [record["id"]]


def test_a_file_of_many_sites_is_analysed_and_stored(tmp_path: Path) -> None:
    sites = 3000
    root = tmp_path / "repo"
    root.mkdir()
    body = "".join(f"    if x == {i}:\n        raise ValueError('bad {i}')\n" for i in range(sites))
    (root / "m.py").write_text("def f(x):\n    '''Check x.'''\n" + body)
    result, stored = _store_scan_of(root, tmp_path / "e.db", analysis_budget=float("inf"))
    assert result.sites == sites and result.skipped == []
    assert len(stored) == sites
    assert all(env["evidence"]["analysis"] == "static" for env in stored)
    # related errors are the nearest sites of the same function, closest first
    by_line = {env["record"]["lineNumber"]: env for env in stored}
    middle = by_line[4 + 2 * 1500]
    related_lines = [
        next(e["record"]["lineNumber"] for e in stored if e["record"]["id"] == rid)
        for rid in middle["evidence"]["related"]
    ]
    line = middle["record"]["lineNumber"]
    assert related_lines == [line - 2, line + 2, line - 4, line + 4, line - 6]


def test_a_file_over_its_analysis_budget_is_cut_counted_and_the_scan_goes_on(
    tmp_path: Path,
) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    for name in ("a", "b"):
        body = "".join(
            f"    if x == {i}:\n        raise ValueError('{name} {i}')\n" for i in range(5)
        )
        (root / f"{name}.py").write_text("def f(x):\n    '''Check x.'''\n" + body)
    (root / "syntax.py").write_text("def f(:\n    raise ValueError('x')\n")
    result, stored = _store_scan_of(root, tmp_path / "e.db", analysis_budget=1e-9)
    reasons = dict(result.skipped)
    assert set(reasons) == {"a.py", "b.py", "syntax.py"}
    assert reasons["a.py"].startswith("analysis cut after")
    assert result.analysis_error is None
    assert len(stored) == 10  # every site of both files is stored...
    for env in stored:  # ...with the extractor's account
        assert env["evidence"]["analysis"] == "extractor"
        assert env["evidence"]["provenance"]["documentation"]["analyst"] == "extractor"
    from errdex.store import SqliteStore

    with SqliteStore(str(tmp_path / "e.db")) as store:
        (scan,) = store.scans("o/hostile")
    assert {path for path, _ in scan["skipped"]} == {"a.py", "b.py", "syntax.py"}


def test_without_a_budget_overrun_nothing_is_cut(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text("def f(x):\n    if x:\n        raise ValueError('x')\n")
    result = scan_dir(tmp_path)
    assert result.skipped == []
    assert result.items[0][1]["analysis"] == "static"


def test_odd_strings_are_stored_escaped_and_the_scan_goes_on(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    # a file name that is not UTF-8 (Latin-1 é), as a real file on disk
    with open(os.fsencode(root) + b"/caf\xe9.py", "wb") as handle:
        handle.write(b"def f(x):\n    raise ValueError('bad name')\n")
    (root / "lone.py").write_text(
        "def g(x):\n    '''Check \\ud800 too.'''\n    raise ValueError('lone \\ud800 here')\n"
    )
    (root / "ok.py").write_text("def h(x):\n    raise ValueError('fine')\n")
    result, stored = _store_scan_of(root, tmp_path / "e.db")
    assert result.skipped == [] and result.analysis_error is None
    by_path = {env["record"]["filePath"]: env for env in stored}
    assert set(by_path) == {"caf\\xe9.py", "lone.py", "ok.py"}
    lone = by_path["lone.py"]
    assert lone["record"]["errorMessage"] == "lone \\ud800 here"
    assert re2.search(lone["record"]["messagePattern"], lone["record"]["errorMessage"])
    assert lone["evidence"]["analysis"] == "static"
    assert lone["evidence"]["function"]["docstring"] == "Check \\ud800 too."
    assert by_path["ok.py"]["record"]["errorMessage"] == "fine"
    assert len({env["record"]["id"] for env in stored}) == 3


def test_one_record_per_raise_site_in_the_real_collections_abc(tmp_path: Path) -> None:
    # ``raise val`` after ``val = typ()`` / ``val = val.with_traceback(tb)``: every
    # unresolved value of ``val`` once gave its own {val} site, so two ids for one line
    import _collections_abc
    import shutil

    shutil.copy(_collections_abc.__file__, tmp_path / "_collections_abc.py")
    lines = (tmp_path / "_collections_abc.py").read_text().splitlines()
    raise_val = [i for i, text in enumerate(lines, 1) if text.strip() == "raise val"]
    assert raise_val
    result, stored = _store_scan_of(tmp_path, tmp_path.parent / "abc.db", analyze=False)
    at_line = Counter(env["record"]["lineNumber"] for env in stored)
    assert all(at_line[line] == 1 for line in raise_val)
    sites = Counter((r["lineNumber"], r["errorClass"], r["errorMessage"]) for r, _ in result.items)
    assert max(sites.values()) == 1
    assert result.sites == len(result.items) == len(stored)


def test_store_scan_refuses_two_ids_for_one_site(tmp_path: Path) -> None:
    from errdex.record import iso_now
    from errdex.scan import store_scan
    from errdex.store import SqliteStore
    from errdex.store.integrity import DuplicateSiteError

    (tmp_path / "m.py").write_text("def f(x):\n    raise ValueError('boom')\n")
    checkout = open_source(str(tmp_path), repo="o/dup", sha=SEED_SHA)
    result = scan_checkout(checkout, repo="o/dup", analyze=False)
    record, evidence = result.items[0]
    result.items.append(({**record, "id": "0" * 16, "slug": "other"}, evidence))
    with SqliteStore(str(tmp_path / "d.db")) as store:
        with pytest.raises(DuplicateSiteError, match=r"m\.py:2 ValueError: 'boom' has ids"):
            store_scan(store, checkout, "o/dup", result, iso_now())
        assert list(store.iter_envelopes("o/dup")) == []


def test_a_page_break_line_does_not_shift_the_source_window(tmp_path: Path) -> None:
    """``^L`` on a line of its own is one line for Python: the window's line at
    ``lineNumber`` is the raise (``str.splitlines`` counted it twice)."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "paged.py").write_text(
        "import os\n\x0c\n\x0c\ndef f(x):\n    raise ValueError('bad x')\n", newline=""
    )
    record = by_line(scan_dir(tmp_path, analyze=False), "pkg/paged.py")[5]
    window = record["sourceCode"].split("\n")
    assert (
        window[record["lineNumber"] - record["sourceCodeStart"]] == "    raise ValueError('bad x')"
    )
    assert record["sourceCodeEnd"] == 5
