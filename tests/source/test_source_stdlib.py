"""The standard library as ``python/cpython``: its release tag, Lib/, and the commit where known."""

from __future__ import annotations

import sys

from errdex.evidence import source_evidence
from errdex.source import permalink
from errdex.source.gitcmd import is_full_sha
from errdex.source.stdlib import STDLIB_REPO, stdlib_checkout, stdlib_tag
from errdex.source.tags import load_schemes


def _built_commit() -> str | None:
    info = getattr(sys, "_git", ("", "", ""))
    return info[2] if len(info) > 2 and is_full_sha(info[2]) else None


def test_stdlib_pins_cpythons_tag_from_the_table() -> None:
    co = stdlib_checkout()
    assert (co.repo, co.origin, co.path_prefix) == (STDLIB_REPO, "stdlib", "Lib/")
    scheme = load_schemes()["cpython"]
    assert scheme.repo == STDLIB_REPO and scheme.path_prefix == co.path_prefix
    source = source_evidence(co)
    if _built_commit() is not None:
        assert source["refSource"] == "build" and source["commit"] == _built_commit()
        return
    tag = stdlib_tag()
    assert co.tag == tag == scheme.tag_for(tag.removeprefix("v"))
    assert source["refSource"] == "table" and source["tag"] == tag
    commit = scheme.commit_for(tag.removeprefix("v"))
    if commit is None:
        # nothing says which commit v3.X.Y is: the record keeps the tag and says why
        assert (co.ref, co.ref_kind, co.sha) == (tag, "tag", None)
        assert source["commit"] is None
        assert "not its commit" in (source["commitNote"] or "")
        assert permalink(co, "json/decoder.py", 1, 2) == (
            f"https://github.com/python/cpython/blob/{tag}/Lib/json/decoder.py#L1-L2"
        )
    else:
        assert (co.sha, co.ref_kind, source["commit"]) == (commit, "commit", commit)
