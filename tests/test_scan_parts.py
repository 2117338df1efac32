"""The analysed result and the analyst's state stored in parts: a write keeps the parts
equal to the last ones, and reading them back gives what was written."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from errdex.scan_cache import ScanCache
from errdex.scan_parts import last_maps, last_result, split, split_maps

SCOPE, KEY = "scope", "key"


def _item(
    path: str, rid: str, at: str, message: str = "m"
) -> tuple[dict[str, Any], dict[str, Any]]:
    return {"id": rid, "filePath": path, "analyzedAt": at, "errorMessage": message}, {"e": rid}


def _write(cache: ScanCache, items: list[Any], last: Any = None) -> set[str]:
    header, written = split(KEY, {"items": items, "sites": len(items)}, last)
    cache.commit(SCOPE, result=(KEY, "fp", header), parts=[written])
    return set(written[1])


def test_only_the_parts_whose_records_changed_are_written_again(tmp_path: Path) -> None:
    with ScanCache(tmp_path / "c.sqlite") as cache:
        first = [_item("a.py", "1", "t1"), _item("a.py", "2", "t1"), _item("b.py", "3", "t1")]
        first.append(_item("c.js", "4", "t0"))  # not analysed: an older analyzedAt kept
        assert _write(cache, first) == {"a.py", "b.py", "c.js"}
        last = last_result(cache, SCOPE, KEY, "fp")
        assert last is not None and last.whole["items"] == first
        # every analysed record stamped again, one message changed: only b.py is written
        second = [_item("a.py", "1", "t2"), _item("a.py", "2", "t2")]
        second += [_item("b.py", "3", "t2", "new"), _item("c.js", "4", "t0")]
        assert _write(cache, second, last) == {"b.py"}
        again = last_result(cache, SCOPE, KEY, "fp")
        assert again is not None and again.whole["items"] == second
        assert again.whole["sites"] == 4
        assert last_result(cache, SCOPE, KEY, "other inputs") is None
        # a part whose records do not share the header's analyzedAt compares it too
        third = [*second[:3], _item("c.js", "4", "t1")]
        assert _write(cache, third, again) == {"c.js"}
        found = last_result(cache, SCOPE, KEY)
        assert found is not None and found.whole["items"] == third


def test_a_part_written_over_by_another_scan_leaves_no_result(tmp_path: Path) -> None:
    with ScanCache(tmp_path / "c.sqlite") as cache:
        items = [_item("a.py", "1", "t1"), _item("b.py", "2", "t1")]
        _write(cache, items)
        last = last_result(cache, SCOPE, KEY)
        header, _ = split(KEY, {"items": items}, last)  # an older header, its parts gone
        _write(cache, [_item("a.py", "1", "t1", "other"), items[1]], last)
        cache.commit(SCOPE, result=(KEY, "fp", header))
        assert last_result(cache, SCOPE, KEY) is None


def test_the_analysts_state_is_written_by_bucket(tmp_path: Path) -> None:
    tables = ("files", "records")
    state = {
        "files": {f"f{i}.py": i for i in range(600)},
        "records": {f"r{i}": (i,) for i in range(2000)},
        "choices": {"k": 1},
        "edges": None,
    }
    with ScanCache(tmp_path / "c.sqlite") as cache:
        header, written = split_maps(KEY, state, (*tables, "edges"), None)
        cache.commit(SCOPE, result=(KEY, "fp", header), parts=[written])
        last = last_maps(cache, SCOPE, KEY)
        assert last is not None and last.whole == state
        changed = {**state, "records": {**state["records"], "r7": (8,)}}
        header, written = split_maps(KEY, changed, (*tables, "edges"), last)
        assert len(written[1]) == 1 and next(iter(written[1])).startswith("records\x00")
        cache.commit(SCOPE, result=(KEY, "fp", header), parts=[written])
        again = last_maps(cache, SCOPE, KEY)
        assert again is not None and again.whole == changed
