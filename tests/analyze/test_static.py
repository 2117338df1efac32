"""The static analyst on a small real-looking library: each evidence kind, then the fields."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from errdex.analyze.static import analyze_items
from errdex.record import BACKGROUND_TAGS
from errdex.scan import scan_checkout
from errdex.source import open_source

from .geompkg import write_geompkg
from .grounding import ungrounded

Item = tuple[dict[str, Any], dict[str, Any]]
REPO = "acme/geom"


@pytest.fixture(scope="module")
def items(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Item]:
    """Records by message prefix (tests/ is read for evidence but not catalogued)."""
    root = write_geompkg(tmp_path_factory.mktemp("geom"))
    result = scan_checkout(open_source(str(root), repo=REPO), repo=REPO)
    assert {r["filePath"] for r, _ in result.items} == {"geompkg/_check.py", "geompkg/shapes.py"}
    return {r["errorMessage"].split()[0]: (r, e) for r, e in result.items}


def test_guard_chain_in_words(items: dict[str, Item]) -> None:
    record, evidence = items["cannot"]
    assert [g["kind"] for g in evidence["site"]["guards"]] == ["for", "if"]
    phrase = "when `i is None`, for dimension `axis` in the loop over `zip(in_spec, out_spec)`"
    assert phrase in record["documentation"]
    assert record["triggerScenarios"].startswith(f"Triggered {phrase}.")
    # ``i`` is a loop variable, not something a caller passes: no requirement is said in
    # it; the docstring's own account stays, naming the public function
    assert record["solutions"] == [
        "The docstring of `align()` says it raises `ValueError` “If an unsharded input "
        "dimension would need sharding”: avoid that case."
    ]


def test_function_signature_docstring_and_raises_styles(items: dict[str, Item]) -> None:
    _, grid = items["rows"]
    assert grid["function"]["signature"] == "def make_grid(rows, cols, *, fill=None)"
    assert grid["function"]["docstring"].startswith("Build a grid of cells.")
    assert (grid["function"]["path"], grid["function"]["line"]) == ("geompkg/shapes.py", 10)
    assert grid["raisesDoc"] == [
        {
            "style": "numpy",
            "errorClass": "ShapeError",
            "text": "If rows is negative.",
            "path": "geompkg/shapes.py",
            "line": 20,
        }
    ]
    styles = {
        key: [d["style"] for d in items[key][1]["raisesDoc"]] for key in ("zero-area", "factor")
    }
    assert styles == {"zero-area": ["google"], "factor": ["sphinx"]}


def test_class_info_for_the_repositorys_own_class(items: dict[str, Item]) -> None:
    _, grid = items["rows"]
    assert grid["classInfo"] == {
        "qualified": "geompkg.errors.ShapeError",
        "bases": ["geompkg.errors.GeomError"],
        "ancestors": ["geompkg.errors.GeomError", "builtins.Exception"],
        "docstring": "Raised when a shape's dimensions do not fit together.",
        "path": "geompkg/errors.py",
        "line": 5,
    }
    assert "classInfo" not in items["zero-area"][1]  # a builtin: nothing in the repository


def test_entry_points_through_the_call_graph(items: dict[str, Item]) -> None:
    _, fill = items["fill"]
    assert fill["entryPoints"] == [
        {
            "qualname": "geompkg.shapes.make_grid",
            "path": "geompkg/shapes.py",
            "line": 10,
            "depth": 1,
            "via": ["geompkg.shapes.make_grid", "geompkg._check.validate_fill"],
            "precision": "exact",
            # ``validate_fill(fill, rows * cols)``: ``fill`` goes on unchanged, ``size`` not
            "passes": {"fill": "fill"},
        }
    ]
    # exported by the package although its module is private
    assert [e["qualname"] for e in items["cannot"][1]["entryPoints"]] == ["geompkg._check.align"]
    assert items["zero-area"][1]["entryPoints"][0]["qualname"] == "geompkg.shapes.Rect.__init__"


def test_tests_that_trigger_each_site(items: dict[str, Item]) -> None:
    def linked(key: str) -> list[tuple[str, str, str | None]]:
        return [(t["name"], t["kind"], t["match"]) for t in items[key][1]["tests"]]

    assert linked("rows") == [
        (
            "tests/test_shapes.py::test_negative_rows",
            "pytest.raises",
            "rows must be non-negative, got -1",
        )
    ]  # not the KeyError test, not the message that fits nothing
    assert linked("zero-area") == [("tests/test_shapes.py::test_zero_rect", "pytest.raises", None)]
    assert linked("cannot") == [
        ("tests/test_shapes.py::test_literal_check", "pytest.raises", "cannot align input")
    ]
    assert linked("factor") == [
        (
            "tests/test_shapes.py::TestScale::test_type",
            "assertRaisesRegex",
            "factor must be a number",
        ),
        ("tests/test_shapes.py::TestScale::test_callable_form", "assertRaises", None),
    ]
    assert linked("scaling") == [("tests/test_shapes.py::test_noop_warns", "pytest.warns", "no-op")]
    assert linked("fill") == []  # make_grid reaches two ShapeError sites: ambiguous
    test = items["rows"][1]["tests"][0]
    assert (test["path"], test["line"], test["errorClass"]) == (
        "tests/test_shapes.py",
        11,
        "ShapeError",
    )
    assert test["snippet"].endswith("gp.make_grid(-1, 2)")
    assert test["matchForm"] == "regex"
    assert items["cannot"][1]["tests"][0]["matchForm"] == "contains"


def test_a_message_asserted_after_the_block_is_not_quoted_as_match(
    items: dict[str, Item],
) -> None:
    """The test writes ``pytest.raises(ValueError) as exc`` and then ``assert "…" in str(exc.value)``:
    quoting it as ``pytest.raises(…, match=…)`` would show a call the test does not make."""
    situations = items["cannot"][0]["triggerScenarios"]
    assert "match=" not in situations
    assert (
        "(`pytest.raises(ValueError)`, then checks that the message contains "
        "`'cannot align input'`)" in situations
    )


def test_related_errors(items: dict[str, Item]) -> None:
    record, evidence = items["scaling"]
    same_function = items["factor"][0]["id"]
    assert evidence["related"][0] == same_function
    assert record["id"] not in evidence["related"]
    assert all(len(e["related"]) <= 5 for _, e in items.values())


def _handler(record: dict[str, Any], evidence: dict[str, Any]) -> str:
    """The handler shown, else the scaffold verify runs a reproducer in (its call reads
    names it does not bind, so it is not shown)."""
    if record["tryCatchPattern"] is not None:
        return str(record["tryCatchPattern"])
    return str(evidence["provenance"]["tryCatchPattern"]["scaffold"])


def test_fields_from_the_evidence(items: dict[str, Item]) -> None:
    record, evidence = items["rows"]
    assert evidence["analysis"] == "static"
    assert "Its docstring lists `ShapeError`: “If rows is negative”." in record["documentation"]
    assert (
        "`tests/test_shapes.py::test_negative_rows` runs `gp.make_grid(-1, 2)`"
        in (record["commonSituations"])
    )
    # a check whose body is `...` cannot run: not shown, kept for verify as the scaffold
    assert record["validationCode"] is None
    scaffold = evidence["provenance"]["validationCode"]["scaffold"]
    assert scaffold.splitlines()[1:] == [
        "if rows < 0:",
        "    ...  # change the arguments before calling make_grid(rows, cols)",
    ]
    assert record["handlingStrategy"] == "validation"
    assert "except ShapeError as exc:" in _handler(record, evidence)
    assert "'rows must be non-negative, got' not in str(exc)" in _handler(record, evidence)
    for key in ("documentation", "triggerScenarios", "commonSituations", "solutions"):
        assert evidence["provenance"][key]["analyst"] == "static"
    assert "tests" in evidence["provenance"]["commonSituations"]["basis"]


def test_type_guard_from_isinstance(items: dict[str, Item]) -> None:
    record, _ = items["factor"]
    assert record["typeGuard"].splitlines()[1] == "if not isinstance(factor, (int, float)):"
    assert record["handlingStrategy"] == "type-guard"
    assert record["backgroundTag"] == "type-mismatch"


def test_example_fix_only_from_the_message(items: dict[str, Item]) -> None:
    assert items["area_of"][0]["exampleFix"] == "// before\narea_of\n// after\nRect.area"
    assert all(r["exampleFix"] is None for k, (r, _) in items.items() if k != "area_of")


def test_background_tags_come_from_the_declared_list(items: dict[str, Item]) -> None:
    tags = {key: r["backgroundTag"] for key, (r, _) in items.items()}
    assert tags["area_of"] == "deprecated-usage"
    assert tags["rows"] == "out-of-range"
    assert all(t is None or t in BACKGROUND_TAGS for t in tags.values())
    rule = items["area_of"][1]["provenance"]["backgroundTag"]["basis"]
    assert rule[0] == "errorClass" and rule[1].startswith("rule: ")


def test_nothing_invented(items: dict[str, Item]) -> None:
    for record, evidence in items.values():
        assert ungrounded(record, evidence) == [], record["errorMessage"]


def test_records_stay_schema_valid(
    items: dict[str, Item], record_validator: jsonschema.Draft202012Validator
) -> None:
    for record, evidence in items.values():
        record_validator.validate(record)
        assert json.loads(json.dumps(evidence)) == evidence


def test_no_evidence_keeps_the_extractors_prose(tmp_path: Path) -> None:
    (tmp_path / "_private.py").write_text("raise RuntimeError('already imported')\n")
    checkout = open_source(str(tmp_path), repo=REPO)
    plain = scan_checkout(checkout, repo=REPO, analyze=False).items
    ((record, evidence),) = analyze_items(checkout, plain)
    assert evidence["analysis"] == "static"
    for key in ("documentation", "triggerScenarios", "commonSituations", "solutions"):
        assert record[key] == plain[0][0][key]
        assert evidence["provenance"][key]["analyst"] == "extractor"
    assert record["backgroundTag"] == "invalid-state"
    assert evidence["provenance"]["backgroundTag"]["analyst"] == "static"


def test_no_evidence_still_drops_a_restated_guard(tmp_path: Path) -> None:
    """The extractor says "Make sure `not (sys.platform == 'nowhere')` holds when `plat`
    reaches line 3": the raise's own condition, nothing a caller does. The static
    analyst's solution replaces it; the other prose stays the extractor's."""
    (tmp_path / "plat.py").write_text(
        "import sys\nif sys.platform == 'nowhere':\n    raise ImportError('not supported here')\n"
    )
    checkout = open_source(str(tmp_path), repo=REPO)
    plain = scan_checkout(checkout, repo=REPO, analyze=False).items
    assert plain[0][0]["solutions"][0].startswith("Make sure ")
    ((record, evidence),) = analyze_items(checkout, plain)
    assert not any(s.startswith("Make sure") for s in record["solutions"])
    # the message is not restated as "the cause" (blind review 2026-12-06)
    assert record["solutions"][0].startswith("Catch `ImportError` around ")
    assert evidence["provenance"]["solutions"]["analyst"] == "static"
    assert evidence["provenance"]["documentation"]["analyst"] == "extractor"


def test_inputs_are_not_changed(tmp_path: Path) -> None:
    write_geompkg(tmp_path)
    checkout = open_source(str(tmp_path), repo=REPO)
    plain = scan_checkout(checkout, repo=REPO, analyze=False).items
    before = json.dumps(plain)
    analyze_items(checkout, plain)
    assert json.dumps(plain) == before


def test_nothing_invented_on_a_real_package() -> None:
    """Every record of networkx: identifiers in the fields all come from the evidence."""
    pytest.importorskip("networkx")
    checkout = open_source(package="networkx")
    result = scan_checkout(checkout, repo="networkx/networkx")
    assert len(result.items) > 500
    bad = {
        f"{r['filePath']}:{r['lineNumber']}": missing
        for r, e in result.items
        if (missing := ungrounded(r, e))
    }
    assert bad == {}
    assert sum(bool(e["tests"]) for _, e in result.items) > 100


def test_observed_messages_are_quoted(tmp_path: Path) -> None:
    write_geompkg(tmp_path)
    checkout = open_source(str(tmp_path), repo=REPO)
    plain = scan_checkout(checkout, repo=REPO, analyze=False).items
    observed = {
        "message": "fill has 3 values for 4 cells",
        "holes": {"len(fill)": "3", "size": "4"},
        "test": "tests/test_grid.py::test_fill",
        "count": 2,
    }
    for record, evidence in plain:
        if record["errorMessage"].startswith("fill"):
            evidence["observed"] = [observed]
    out = {r["errorMessage"].split()[0]: (r, e) for r, e in analyze_items(checkout, plain)}
    record, evidence = out["fill"]
    assert evidence["observed"] == [observed]
    assert record["commonSituations"].startswith(
        "Seen at run time as “fill has 3 values for 4 cells” "
        "(in `tests/test_grid.py::test_fill`), 2 times."
    )
    assert "observed" in evidence["provenance"]["commonSituations"]["basis"]
    assert ungrounded(record, evidence) == []


def test_test_files_admitted_as_records_are_still_read_as_tests(tmp_path: Path) -> None:
    write_geompkg(tmp_path)
    checkout = open_source(str(tmp_path), repo=REPO)
    result = scan_checkout(checkout, repo=REPO, include=["geompkg/**", "tests/**"])
    found = {r["errorMessage"].split()[0]: e for r, e in result.items}
    assert found["rows"]["tests"][0]["name"] == "tests/test_shapes.py::test_negative_rows"
