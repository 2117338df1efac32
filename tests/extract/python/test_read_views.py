"""A file's reads: each package file once, whole or by the views taken of it."""

from __future__ import annotations

from errdex.extract.python.read_views import STORES, absent, merged, split, view_key


def test_the_views_of_one_file_are_one_read_and_a_whole_read_takes_them_in() -> None:
    reads = {
        view_key("pkg/a.py", [STORES]),
        view_key("pkg/a.py", [absent("fail(")]),
        view_key("pkg/b.py", [STORES]),
        "pkg/b.py",
        "pkg/",
    }
    out = merged(reads)
    assert out == {view_key("pkg/a.py", [STORES, absent("fail(")]), "pkg/b.py", "pkg/"}
    assert split(view_key("pkg/a.py", [absent("fail("), STORES])) == (
        "pkg/a.py",
        sorted([STORES, absent("fail(")]),
    )
    assert split("pkg/b.py") is None
