"""A re-scan says which unchanged files it read again only because a file their last
extraction read changed (issue 13: on jax, one edited file re-extracts 35 others this
way, the largest share of a one-file re-scan beyond the file's own cost)."""

from __future__ import annotations

from pathlib import Path

from errdex.scan_reuse import CacheUse

from .source.helpers import write
from .test_scan_reuse import ERRORS, USES_ERRORS, _age, _comparable, _scan, tree

__all__ = ["tree"]


def _edit_after_a_scan(tree: Path, rel: str, text: str) -> CacheUse:
    """How the re-scan after writing ``rel`` used the cache (errors.py is read by
    convert.py's extraction); the re-scan equals a full scan."""
    write(tree, "pkg/errors.py", ERRORS)
    write(tree, "pkg/convert.py", USES_ERRORS)
    _age(tree)
    _scan(tree, analyze=False)
    write(tree, rel, text)
    after = _scan(tree, analyze=False)
    assert _comparable(after) == _comparable(_scan(tree, cache=False, analyze=False))
    assert after.cache_use is not None
    return after.cache_use


def test_a_file_read_again_for_a_file_it_read_is_counted_and_named(tree: Path) -> None:
    use = _edit_after_a_scan(tree, "pkg/errors.py", ERRORS.replace("bad value", "unusable"))
    # errors.py changed; convert.py did not, but its extraction read errors.py
    assert (use.files_reread, use.files_reread_for_reads) == (2, 1)
    assert use.reads_changed == {"pkg/errors.py"}
    assert use.to_json()["filesRereadForReads"] == 1
    assert "1 unchanged, for a file they read: pkg/errors.py" in use.line()


def test_an_edit_no_other_file_read_counts_no_such_file(tree: Path) -> None:
    use = _edit_after_a_scan(tree, "pkg/convert.py", USES_ERRORS.replace("x is None", "not x"))
    assert (use.files_reread, use.files_reread_for_reads) == (1, 0)
    assert "unchanged, for a file" not in use.line()
