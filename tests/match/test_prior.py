"""The tie prior orders a group the paste cannot split, and only that: the group, its
confidence and everything outside it stay as the evidence made them."""

from __future__ import annotations

from pathlib import Path

from errdex.match.api import clues_from, index_for
from errdex.match.paste import parse_paste
from errdex.match.prior import FEATURES, prior_key
from errdex.match.rank import rank
from errdex.store import SqliteStore

from .conftest import build_package

CORE = """\
class LoadError(Exception):
    pass


def _read(path):
    raise LoadError(f"cannot load {path}: the file is empty")


def load(path):
    raise LoadError(f"cannot load {path}: the file is empty")
"""
PASTE = "loader.core.LoadError: cannot load a.toml: the file is empty"


def _ranked(db: Path, prior: tuple[str, ...]) -> list[tuple[str | None, float, int]]:
    with SqliteStore(db) as store:
        index = index_for(store)
        ranked = rank(clues_from(parse_paste(PASTE)), index, prior=prior)
        return [(index.entry(s.index).function, s.confidence, s.group_size) for s in ranked]


def test_the_prior_orders_the_group_and_changes_nothing_else(tmp_path: Path) -> None:
    db = build_package(tmp_path, "loader", {"core.py": CORE})
    plain = _ranked(db, ())
    public = _ranked(db, ("public_function",))
    assert [f for f, _, _ in plain] == ["_read", "load"]  # the evidence's order: the index's
    assert [f for f, _, _ in public] == ["load", "_read"]
    assert sorted(plain) == sorted(public)  # same sites, same shared confidence, same group
    assert {size for _, _, size in public} == {2}


def test_each_feature_reads_the_index_entry(tmp_path: Path) -> None:
    db = build_package(tmp_path, "loader", {"core.py": CORE, "_impl/io.py": CORE})
    with SqliteStore(db) as store:
        index = index_for(store)
        keys = {
            (index.entry(i).file_path, index.entry(i).function): prior_key(index, tuple(FEATURES))(
                i
            )
            for i in range(len(index))
            if index.entry(i).function
        }
    assert keys[("src/loader/core.py", "load")] == (False, False, False, False, 1, 1)
    assert keys[("src/loader/core.py", "_read")] == (True, False, False, False, 1, 1)
    assert keys[("src/loader/_impl/io.py", "load")] == (False, True, False, False, 1, 1)


VALIDATOR = """\
class Invalid(Exception):
    pass


class Text:
    url = False

    def check(self, value):
        if not isinstance(value, str):
            raise Invalid("Not a valid URL." if self.url else "Not a valid string.")


def url(value):
    if not value:
        raise Invalid("Not a valid URL.")
    if "://" not in value:
        raise Invalid("Not a valid URL.")
    return value
"""


def test_fewer_texts_counts_the_records_of_the_line(tmp_path: Path) -> None:
    """The check's line prints either of two texts (two records), each of ``url``'s raises
    one."""
    db = build_package(tmp_path, "forms", {"fields.py": VALIDATOR})
    with SqliteStore(db) as store:
        index = index_for(store)
        key = prior_key(index, ("fewer_texts",))
        found = {
            index.entry(i).line: key(i)
            for i in range(len(index))
            if index.entry(i).runs == ("Not a valid URL.",)
        }
    assert found == {10: (2,), 15: (1,), 17: (1,)}
