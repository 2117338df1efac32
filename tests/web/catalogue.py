"""Real catalogues for the web tests: small code written here, scanned by errdex itself."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from errdex.record import iso_now
from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.store import open_store

SEED_SHA = "1e1c6a8fc06dfcd1247076ec5cae4640cea5d7bb"
ACME_SHA = "0123456789abcdef0123456789abcdef01234567"
SEED_004_ID = "5d2e70398b67b2ee"
#: A message and a comment in the source window that would run script if not escaped.
HOSTILE_MESSAGE = (
    "<script>window.__errdex_pwned = 2</script> \"quoted\" 'single' {{ widget }} "
    '{% if widget %}x{% endif %} <img src=x onerror="window.__errdex_pwned = 3"> cannot spin'
)
CODE_COUNT = 60

Item = tuple[dict[str, Any], dict[str, Any]]

CORE = f'''\
"""Widgets that spin."""

import warnings


class WidgetError(Exception):
    """A widget cannot do what was asked."""


def spin(widget, speed):
    # <script>window.__errdex_pwned = 1</script> "quoted" 'single' {{{{ 7*7 }}}} {{% if x %}}
    if speed < 0:
        raise ValueError(f"speed must be >= 0, got {{speed}}")
    if widget is None:
        raise WidgetError({HOSTILE_MESSAGE!r})
    if speed > 100:
        warnings.warn("spinning faster than 100 rpm wears the bearings", RuntimeWarning)
    return speed


def load(name):
    if not name:
        raise KeyError(name)
    return name
'''


def codes_module() -> str:
    """Many distinct errors in one file, enough for the repository page to have two pages."""
    parts = ['"""Widget codes."""\n']
    for n in range(CODE_COUNT):
        parts.append(
            textwrap.dedent(f"""
            def check_{n:02d}(code):
                if code == {n}:
                    raise LookupError("unknown widget code {n:02d} in the registry")
            """)
        )
    return "".join(parts)


def write_tree(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def scan_into(
    db: Path | str, root: Path, repo: str, sha: str | None, ref: str | None = None
) -> list[Item]:
    """Scan ``root`` as ``repo`` at ``sha`` (else the tag ``ref``) into ``db``, as
    ``errdex scan`` does."""
    checkout = open_source(str(root), repo=repo, sha=sha, ref=ref)
    started = iso_now()
    result = scan_checkout(checkout, repo=repo)
    with open_store(db) as store:
        store_scan(store, checkout, repo, result, started)
    return result.items


#: Evidence keys that make sections of their own on the error page.
_SECTION_EVIDENCE = ("related", "tests", "observed", "entryPoints")


def extractor_only(item: Item) -> Item:
    """A record as the extractor alone leaves it: no fix, no guards, no related errors,
    tests, observed messages or entry points, so those sections have nothing to show."""
    record, evidence = item
    record = {
        **record,
        "exampleFix": None,
        "validationCode": None,
        "tryCatchPattern": None,
        "typeGuard": None,
        "preventionTips": [],
        "handlingStrategy": None,
    }
    site = {**evidence["site"], "guards": []}
    kept = {k: v for k, v in evidence.items() if k not in _SECTION_EVIDENCE}
    return record, {**kept, "site": site, "analysis": "extractor"}


def seed_004_analysis(items: list[Item]) -> Item:
    """The seed 004 record as a model analyst would leave it: seed 004's prose, and
    errdex's own evidence (related errors, tests, observed messages, entry points)."""
    by_id = {record["id"]: (record, evidence) for record, evidence in items}
    record, evidence = by_id[SEED_004_ID]
    record = {
        **record,
        "documentation": (
            "top_level_all_gather can only gather, not shard: if the input is unsharded "
            "(in_spec None) on a dimension where out_spec expects sharding, gathering "
            "cannot produce it and the error is raised."
        ),
        "triggerScenarios": (
            "Input replicated on dim i (P(None,...)) but out_sharding requests P('data') on "
            "that dim — i.e. asking the gather to also scatter/shard."
        ),
        "commonSituations": (
            "Misreading the API as a general resharding utility instead of an all-gather."
        ),
        "solutions": [
            "Change out_spec for that dimension to match the input (gather-only: prefix of "
            "in_spec or None)",
            "Pre-shard the input on that dimension before calling (e.g. via jit in_shardings)",
        ],
        "exampleFix": (
            "# before\ntop_level_all_gather(x, NamedSharding(mesh, P('data', None)))  "
            "# x is P(None, None)\n\n# after\n"
            "top_level_all_gather(x, NamedSharding(mesh, P(None, None)))"
        ),
        "validationCode": (
            "in_p, out_p = list(x.sharding.spec), list(out_named.spec)\n"
            "for ax,(i,o) in enumerate(safe_zip(in_p,out_p)):\n"
            "    if i is None and o is not None:\n"
            "        raise AssertionError(f'dim {ax}: cannot shard via all_gather (in={i}, out={o})')"
        ),
        # the static analyst writes none here (the raise is in a private module, so there
        # is no public call to put in it); a model analyst's, for the page's handling section
        "tryCatchPattern": (
            "try:\n    top_level_all_gather(x, out_named)\nexcept ValueError as exc:\n"
            '    if "doesn\'t allow input" not in str(exc):\n        raise\n    ...  # handle it'
        ),
    }
    others = [rid for rid in by_id if rid != SEED_004_ID]
    llm = {"analyst": "llm", "model": "openai:gpt-4.1-mini", "basis": ["guards"]}
    evidence = {
        **evidence,
        "analysis": "llm",
        "provenance": {**evidence["provenance"], "documentation": llm, "solutions": llm},
        "related": others,
        "tests": [
            {
                "path": "tests/shard_map_test.py",
                "line": 120,
                "name": "tests/shard_map_test.py::ShardMapTest::test_all_gather_unsharded",
                "kind": "assertRaisesRegex",
                "errorClass": "ValueError",
                "match": "doesn't allow input",
                "snippet": 'with self.assertRaisesRegex(ValueError, "doesn\'t allow input"):',
            }
        ],
        "observed": [
            {
                "message": (
                    "top_level_all_gather doesn't allow input float32[8,4] to be unsharded "
                    "on dimension 0 when out_spec=PartitionSpec('data', None)."
                ),
                "holes": {
                    "aval": "float32[8,4]",
                    "axis": "0",
                    "out_spec": "PartitionSpec('data', None)",
                },
                "test": "tests/shard_map_test.py::ShardMapTest::test_all_gather_unsharded",
                "count": 3,
            }
        ],
        "entryPoints": [
            {
                "qualname": "jax.sharding.top_level_all_gather",
                "path": "jax/_src/shard_map.py",
                "line": 1,
                "depth": 1,
                "via": ["top_level_all_gather_impl", "f_shmap"],
                "precision": "name",
            }
        ],
    }
    return record, evidence
