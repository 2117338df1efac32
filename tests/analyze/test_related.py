"""Related errors: nearest first, in an order that does not depend on the input's."""

from __future__ import annotations

from errdex.analyze.related import related_ids
from errdex.analyze.sites import SiteView
from errdex.evidence import EntryPoint


def view(index: int, rid: str, line: int, function: str | None = "m.f") -> SiteView:
    return SiteView(
        index=index,
        record={"id": rid, "filePath": "m.py", "lineNumber": line},
        evidence={},
        rel="m.py",
        module="m",
        kind="raise",
        error_class="ValueError",
        qualified_class=None,
        canonical_class="builtins.ValueError",
        function=function,
    )


def related_by_id(order: list[tuple[str, int]]) -> dict[str, list[str]]:
    sites = [view(i, rid, line) for i, (rid, line) in enumerate(order)]
    entries: dict[int, list[EntryPoint]] = {}
    out = related_ids(sites, entries)
    return {s.record["id"]: out[s.index] for s in sites}


def test_sites_on_one_line_are_related_in_the_same_order_whatever_the_input_order() -> None:
    sites = [("c" * 16, 10), ("b" * 16, 10), ("a" * 16, 4), ("d" * 16, 16)]
    forward = related_by_id(sites)
    assert forward == related_by_id(list(reversed(sites)))
    assert forward["a" * 16] == ["b" * 16, "c" * 16, "d" * 16]


def test_nearest_first_lower_line_on_a_tie_and_at_most_five() -> None:
    sites = [(f"{i:016x}", 10 + 2 * i) for i in range(20)]
    related = related_by_id(sites)
    middle = f"{10:016x}"  # line 30
    lines = {rid: line for rid, line in sites}
    assert [lines[r] for r in related[middle]] == [28, 32, 26, 34, 24]


def _site(index: int, path: str, module: str, line: int = 3) -> SiteView:
    return SiteView(
        index=index,
        record={"id": f"{index:016x}", "filePath": path, "lineNumber": line},
        evidence={},
        rel=path,
        module=module,
        kind="raise",
        error_class="ValueError",
        qualified_class=None,
        canonical_class="builtins.ValueError",
        function=f"{module}.f",
    )


def test_the_same_class_is_related_only_within_its_package() -> None:
    """``pprint``'s ValueError was related to ``_aix_support``'s, the first ValueErrors
    of the standard library by path: the same class elsewhere is no relation."""
    sites = [
        _site(0, "Lib/_aix_support.py", "_aix_support"),
        _site(1, "Lib/pprint.py", "pprint"),
        _site(2, "Lib/email/_parser.py", "email._parser"),
        _site(3, "Lib/email/utils.py", "email.utils"),
        _site(4, "Lib/email/mime/text.py", "email.mime.text"),
        _site(5, "Lib/email/mime/base.py", "email.mime.base"),
    ]
    related = related_ids(sites, {})
    assert related[1] == [] and related[0] == []  # top-level modules: their file only
    # the package's own modules, then its subpackages'
    assert related[2] == ["0000000000000003", "0000000000000005", "0000000000000004"]
    # the subpackage first, then the package
    assert related[4] == ["0000000000000005", "0000000000000002", "0000000000000003"]
