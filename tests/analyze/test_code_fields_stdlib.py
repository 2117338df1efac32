"""Code fields on this Python's own library: no handler for a failed internal check."""

from __future__ import annotations

from .stdlib_items import ON_311, stdlib_items

pytestmark = ON_311


def test_no_handler_is_written_for_a_failed_assertion() -> None:
    """``assert`` and ``AssertionError`` mark a bug to fix, and an ``assert`` is not run under
    ``python -O``: a try/except around the call would be wrong advice there."""
    # tempfile's io-failure handlers are the other families here: the one these four files
    # had, around pydoc.cli(), went with t31's rule that no handler wraps a command line
    items = stdlib_items(
        "pydoc.py", "argparse.py", "subprocess.py", "asyncio/base_events.py", "tempfile.py"
    )
    checks = [r for r, _ in items if r["backgroundTag"] == "internal-assertion"]
    assert checks
    for record in checks:
        assert record["tryCatchPattern"] is None, record["errorMessage"]
        assert record["handlingStrategy"] != "try-catch"
    # other families keep their handlers
    assert any(r["tryCatchPattern"] for r, _ in items if r["backgroundTag"] != "internal-assertion")
