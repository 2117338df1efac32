"""A ``KeyError`` prints its key's repr: a key that is no string prints as a bare word
(``nan``, pandas' ``NaT``) or ``<NA>``. Pasted alone, such a message is one value like
``'foo'``: the answer is the undecided group of the class's one-value sites, even when
they are more than the lone-holes pass takes (40), and not a site whose class is only
decided at run time (numpy's ``raise e`` in a function defined under ``except``)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from errdex.match import answers
from errdex.match.api import UNDECIDED
from errdex.match.rank_lone import MAX_LONE, one_value

from .conftest import build_package

GETTERS = 45
assert GETTERS > MAX_LONE
TABLES = "\n\n".join(
    f"def get{i}(d, key):\n"
    "    try:\n"
    "        return d[key]\n"
    "    except KeyError as err:\n"
    "        raise KeyError(key) from err\n"
    for i in range(GETTERS)
)
PLUGIN = """\
try:
    import not_installed_anywhere
except ModuleNotFoundError as e:

    def plugin(version):
        raise e
"""


class NAType:
    """pandas' ``NA`` prints so."""

    def __repr__(self) -> str:
        return "<NA>"


class NaTType:
    """pandas' ``NaT`` prints so."""

    def __repr__(self) -> str:
        return "NaT"


def _printed(key: object) -> str:
    """What a ``KeyError`` of ``key`` really prints, as a paste's last line."""
    with pytest.raises(KeyError) as caught:
        raise KeyError(key)
    return f"KeyError: {caught.value}"


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return build_package(tmp_path, "tab", {"tables.py": TABLES, "plugin.py": PLUGIN})


@pytest.mark.parametrize("key", [math.nan, -math.inf, NaTType(), NAType()])
def test_a_key_that_is_no_string_is_answered_by_the_undecided_group(db: Path, key: object) -> None:
    paste = _printed(key)
    assert "'" not in paste
    (answer,) = answers(paste, db=db)
    assert answer.status == UNDECIDED, paste
    files = {c.filePath for c in answer.group}
    assert files == {"src/tab/tables.py"}, paste
    assert f"({GETTERS} catalogued site(s) raise KeyError" in answer.reason


@pytest.mark.parametrize(
    ("message", "error_class", "expected"),
    [
        ("nan", "KeyError", True),
        ("-inf", "KeyError", True),
        ("NaT", "KeyError", True),
        ("<NA>", "KeyError", True),
        ("<NA>", "TypeError", True),
        ("nan", "ValueError", False),  # no repr: a word another class prints
        ("two words", "KeyError", False),
    ],
)
def test_one_value_of_a_key_error(message: str, error_class: str, expected: bool) -> None:
    assert one_value(message, error_class) is expected
