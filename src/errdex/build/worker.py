"""One package of a build, in its own process: fetch → scan (with the analyst) → part file.

Run as ``python -m errdex.build.worker SPEC PART`` in a scratch directory. Each package gets a fresh
process so a crash, a leak or a runaway file in one package cannot harm the others;
the outcome is the last line of stdout, as JSON, whatever happened.
"""

from __future__ import annotations

import json
import sys
import time
import traceback
from pathlib import Path
from typing import Any

from errdex.build.fetch import FetchError, open_build_release
from errdex.build.specs import BuildSpec, parse_spec
from errdex.record import iso_now
from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.source.checkout import Checkout
from errdex.source.errors import SourceError
from errdex.store import SqliteStore, StoreError

__all__ = ["build_part", "main"]


def _checkout(spec: BuildSpec) -> Checkout:
    if spec.kind == "package":
        return open_build_release(spec.name, spec.version)
    return open_source(spec.name)


def build_part(spec: BuildSpec, part: Path, *, analyze: bool = True) -> dict[str, Any]:
    """Build ``spec`` into the SQLite file ``part``; the outcome as a plain dict."""
    started = time.perf_counter()
    outcome: dict[str, Any] = {"spec": spec.text}
    try:
        checkout = _checkout(spec)
    except FetchError as exc:
        return outcome | {
            "status": "failed",
            "cause": "fetch",
            "message": str(exc),
            "transient": exc.transient,
        }
    except SourceError as exc:
        return outcome | {"status": "failed", "cause": "source", "message": str(exc)}
    if not checkout.repo:
        why = checkout.repo_problem or "its metadata names no source repository"
        return outcome | {"status": "failed", "cause": "no-repo", "message": why}
    started_at = iso_now()
    result = scan_checkout(checkout, repo=checkout.repo, jobs=1, analyze=analyze)
    part.parent.mkdir(parents=True, exist_ok=True)
    part.unlink(missing_ok=True)
    try:
        with SqliteStore(part) as store:
            store_scan(store, checkout, checkout.repo, result, started_at)
    except StoreError as exc:
        return outcome | {"status": "failed", "cause": "store", "message": str(exc)}
    return outcome | {
        "status": "done",
        "repo": checkout.repo,
        "version": checkout.version,
        "ref": checkout.ref,
        "part": str(part),
        "records": len(result.items),
        "filesSkipped": len(result.skipped),
        "analysisError": result.analysis_error,
        "seconds": round(time.perf_counter() - started, 3),
    }


def main(argv: list[str]) -> int:
    text, part = argv[0], Path(argv[1])
    analyze = "--no-analyze" not in argv[2:]
    try:
        outcome = build_part(parse_spec(text), part, analyze=analyze)
    except Exception as exc:  # the outcome must say what broke, whatever it is
        last = traceback.extract_tb(exc.__traceback__)[-1]
        outcome = {
            "spec": text,
            "status": "failed",
            "cause": "crash",
            "message": f"{type(exc).__name__}: {exc} ({Path(last.filename).name}:{last.lineno})",
        }
    sys.stdout.write("\n" + json.dumps(outcome) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
