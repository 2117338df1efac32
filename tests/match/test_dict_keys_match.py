"""A site whose message is a dict with int keys is found though its text is only the
braces, and only for a message whose keys are ints (see extract/python/dict_keys.py)."""

from __future__ import annotations

from pathlib import Path

from errdex.match.api import clues_from, index_for
from errdex.match.paste import parse_paste
from errdex.match.rank import rank
from errdex.store import SqliteStore

from ..extract.python.test_dict_keys import BY_NAME, FIELDS
from .conftest import build_package


def _answer(db: Path, message: str) -> list[str | None]:
    """The functions of the answer: the returned group, or the best alone."""
    with SqliteStore(db) as store:
        index = index_for(store)
        ranked = rank(clues_from(parse_paste(f"forms.fields.Invalid: {message}")), index)
        group = [s for s in ranked if s.group_size > 1] or ranked[:1]
        return [index.entry(s.index).function for s in group]


def test_int_keys_tell_a_list_field_from_a_schema(tmp_path: Path) -> None:
    db = build_package(tmp_path, "forms", {"fields.py": FIELDS})
    assert sorted(map(str, _answer(db, BY_NAME))) == ["load", "load_counted"]
    by_index = _answer(db, "{0: ['Field may not be null.']}")
    assert sorted(map(str, by_index)) == ["load", "load_counted", "load_list", "load_rows"]
