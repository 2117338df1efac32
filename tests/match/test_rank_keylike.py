"""``KeyError: 'NaT'`` with no frame, where a constant template is that very key: the
lookups and the one-value sites print it alike, so the answer stays an undecided group
(match/rank_keylike.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.match import answers
from errdex.match.api import MATCHED, UNDECIDED
from errdex.match.rank_keylike import key_like
from errdex.match.rank_lone import LONE_SCORE

from .conftest import build_package

STORE = """\
class Store:
    def __init__(self):
        self.data = {}

    def get(self, key):
        if key not in self.data:
            raise KeyError(key)
        return self.data[key]

    def lookup(self, key):
        try:
            return self.data[key]
        except KeyError as err:
            raise KeyError(key) from err

    def missing(self):
        raise KeyError("NaT")

    def fraction(self, numerator):
        raise ZeroDivisionError(f"Fraction({numerator}, 0)")

    def archive(self, name):
        raise KeyError(f"There is no item named {name!r} in the archive")


def first(iterable, too_short=None):
    for x in iterable:
        return x
    raise too_short
"""

ONE_VALUE = {("src/kv/store.py", 7), ("src/kv/store.py", 14)}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return build_package(tmp_path, "kv", {"store.py": STORE})


def test_a_constant_key_joins_the_one_value_sites_undecided(db: Path) -> None:
    (answer,) = answers("KeyError: 'NaT'", db=db)
    assert answer.status == UNDECIDED
    sites = [(c.filePath, c.lineNumber) for c in answer.group]
    assert sites[0] == ("src/kv/store.py", 17)  # the template fixing the key, first
    assert set(sites[1:]) == ONE_VALUE  # and not the passed-in ``raise too_short``
    assert sum(c.confidence for c in answer.group) <= LONE_SCORE + 1e-9


def test_a_sentence_is_still_decided_by_its_words(db: Path) -> None:
    (answer,) = answers("KeyError: \"There is no item named 'b.txt' in the archive\"", db=db)
    assert answer.status == MATCHED
    assert [(c.filePath, c.lineNumber) for c in answer.candidates][:1] == [("src/kv/store.py", 23)]
    assert answer.candidates[0].confidence > 0.9


def test_a_template_with_values_is_decided_by_its_own_text(tmp_path: Path) -> None:
    """``Fraction(1, 0)`` is an object's repr, one value, but ``Fraction(`` and ``, 0)``
    are the template's: no group with the class's one-value sites."""
    code = STORE + "\n\ndef divide(x):\n    raise ZeroDivisionError(x)\n"
    db = build_package(tmp_path, "kv", {"store.py": code})
    (answer,) = answers("ZeroDivisionError: Fraction(1, 0)", db=db)
    assert answer.status == MATCHED
    assert [(c.filePath, c.lineNumber) for c in answer.candidates][:1] == [("src/kv/store.py", 20)]


def test_a_key_is_a_value_without_words() -> None:
    assert key_like("'NaT'", "KeyError") and key_like("3", "IndexError")
    assert key_like("Timestamp('2020-01-01 00:00:00')", "KeyError")
    assert not key_like("\"There is no item named 'b.txt' in the archive\"", "KeyError")
    assert not key_like("not a value", "KeyError")
