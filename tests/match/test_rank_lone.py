"""A builtin class pasted with one value and no frame (``KeyError: 'foo'``): the
interpreter's own lookups print the very same text, so the answer is the class's
one-value sites as a group the text cannot decide, marked so everywhere it is shown;
a traceback whose frames name a site still decides."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from errdex import cli
from errdex.match import answers
from errdex.match.api import MATCHED, UNDECIDED
from errdex.match.commands import EXIT_NO_MATCH, EXIT_UNDECIDED
from errdex.match.rank_lone import LONE_SCORE, UNDECIDED_REASON, one_value

from .conftest import build_package, traceback_of

REGISTRY = """\
class Registry:
    def __init__(self):
        self.items = {}

    def get(self, key):
        if key not in self.items:
            raise KeyError(key)
        return self.items[key]

    def remove(self, key):
        if key not in self.items:
            raise KeyError(key)
        del self.items[key]

    def rename(self, key):
        raise KeyError(f"cannot rename {key}")

    def check(self, flag):
        assert flag, flag
"""

SITES = {("src/reg/registry.py", 7), ("src/reg/registry.py", 12)}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return build_package(tmp_path, "reg", {"registry.py": REGISTRY})


def test_a_one_value_key_error_is_answered_by_an_undecided_group(db: Path) -> None:
    (answer,) = answers("KeyError: 'foo'", db=db)
    assert answer.status == UNDECIDED
    assert {(c.filePath, c.lineNumber) for c in answer.group} == SITES
    assert all(c.groupReason == UNDECIDED_REASON for c in answer.group)
    assert all(c.holes == {"key": "'foo'"} for c in answer.group)
    shared = sum(c.confidence for c in answer.group)
    assert shared <= LONE_SCORE + 1e-9
    assert all(c.confidence <= 1 / len(SITES) for c in answer.group)
    assert "interpreter's own lookups" in answer.reason
    group = answer.to_json()["group"]
    assert group["undecided"] is True and group["reason"] == answer.reason
    assert group["size"] == 2


def test_an_int_and_a_tuple_key_are_one_value_too(db: Path) -> None:
    for paste in ("KeyError: 3", "KeyError: ('a', 1)", "KeyError: <object object at 0x7f>"):
        (answer,) = answers(paste, db=db)
        assert answer.status == UNDECIDED, paste
        assert {(c.filePath, c.lineNumber) for c in answer.group} == SITES


def test_a_frame_naming_a_site_still_decides(tmp_path: Path) -> None:
    db = build_package(tmp_path, "reg", {"registry.py": REGISTRY})
    code = "from reg.registry import Registry\nRegistry().get('foo')\n"
    tb = traceback_of(tmp_path, code)
    assert tb.rstrip().endswith("KeyError: 'foo'")
    (answer,) = answers(tb, db=db)
    assert answer.status == MATCHED
    best = answer.candidates[0]
    assert (best.filePath, best.lineNumber) == ("src/reg/registry.py", 7)
    assert best.confidence >= 0.9 and best.groupReason is None


def test_sentences_asserts_and_a_message_with_text_are_left_as_they_were(db: Path) -> None:
    (sentence,) = answers("KeyError: 'no such key in the table'", db=db)
    assert sentence.status == UNDECIDED  # quoted: a key's repr, whatever its words
    (text,) = answers("KeyError: 'cannot rename foo'", db=db)
    assert text.status == MATCHED
    assert [(c.lineNumber, c.groupReason) for c in text.candidates][:1] == [(16, None)]
    (asserted,) = answers("AssertionError: 'x'", db=db)
    assert asserted.candidates == []
    (c_text,) = answers("ValueError: invalid literal for int() with base 10: 'abc'", db=db)
    assert c_text.candidates == []


def test_match_and_explain_say_it_is_undecided(db: Path) -> None:
    runner = CliRunner()
    as_json = runner.invoke(cli.main, ["match", "--db", str(db), "--json", "KeyError: 'foo'"])
    assert as_json.exit_code == EXIT_UNDECIDED, as_json.output
    data = json.loads(as_json.stdout)
    assert {(c["group"], c["groupSize"], c["groupReason"]) for c in data} == {
        (0, 2, UNDECIDED_REASON)
    }
    human = runner.invoke(cli.main, ["match", "--db", str(db), "KeyError: 'foo'"])
    assert human.exit_code == EXIT_UNDECIDED
    flat = " ".join(human.stdout.split())
    assert flat.startswith("Undecided: this KeyError is also raised by the interpreter")
    assert "registry.py:7" in flat and "registry.py:12" in flat
    explained = runner.invoke(cli.main, ["explain", "--db", str(db), "KeyError: 'foo'"])
    assert explained.exit_code == EXIT_UNDECIDED
    flat = " ".join(explained.stdout.split())
    assert "Undecided" in flat and "The sites of this group" in flat
    assert "How to fix it" not in flat  # no one site's page: the text names none of them
    none = runner.invoke(cli.main, ["match", "--db", str(db), "--json", "AssertionError: 'x'"])
    assert none.exit_code == EXIT_NO_MATCH


@pytest.mark.parametrize(
    ("message", "error_class", "expected"),
    [
        ("'foo'", "KeyError", True),
        ("3", "IndexError", True),
        ("b'x'", "KeyError", True),
        ("None", "KeyError", True),
        ("<Node object at 0x7f3a>", "TypeError", True),
        ("Node(1, 'a')", "KeyError", True),
        ("<enum 'More'> cannot extend <enum 'Less'>", "TypeError", False),
        ("Node(1) and Other(2)", "TypeError", False),
        ("('a', 1)", "KeyError", True),
        ("('a', 1)", "ValueError", False),  # several arguments, as a tuple
        ("invalid literal for int() with base 10: 'abc'", "ValueError", False),
        ("'a'\n'b'", "KeyError", False),
        ("", "KeyError", False),
    ],
)
def test_one_value(message: str, error_class: str, expected: bool) -> None:
    assert one_value(message, error_class) is expected


def test_only_a_key_error_is_said_to_come_from_the_interpreters_lookups() -> None:
    """No lookup prints ``IndexError: 3`` (a list says "list index out of range"): the
    reason given for another class is the bare value alone (re-read, stop 34)."""
    from errdex.match.rank_lone import ONE_VALUE_REASON, UNDECIDED_REASON, undecided_reason

    assert undecided_reason("KeyError") == UNDECIDED_REASON
    assert undecided_reason("builtins.KeyError") == UNDECIDED_REASON
    for cls in ("IndexError", "ValueError", "TypeError"):
        assert undecided_reason(cls) == ONE_VALUE_REASON
        assert "lookups" not in undecided_reason(cls)
