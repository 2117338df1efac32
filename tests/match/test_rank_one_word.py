"""A builtin class whose message is one word, such as the attribute name a module's
``__getattr__`` raises: that is a value passed to the class by Python code (C prints
sentences), so the sites raising the class with that one value are the answer, as a
group; a sentence that only holes fit still finds no record."""

from __future__ import annotations

from pathlib import Path

from errdex.match import answers

from .conftest import build_package

LAZY = """\
def __getattr__(name):
    if name == "old_api":
        return None
    raise AttributeError(name)
"""

CONFIG = """\
class Config:
    def __getattr__(self, name):
        raise AttributeError(name)

    def parse(self, text):
        raise ValueError(text)
"""


def test_a_one_word_builtin_message_is_answered_by_the_one_value_sites(tmp_path: Path) -> None:
    db = build_package(tmp_path, "lazy", {"api.py": LAZY, "config.py": CONFIG})
    (answer,) = answers("AttributeError: no_such_attribute", db=db)
    assert {(c.filePath, c.lineNumber) for c in answer.group} == {
        ("src/lazy/api.py", 4),
        ("src/lazy/config.py", 3),
    }
    assert all(c.holes == {"name": "no_such_attribute"} for c in answer.group)
    assert sum(c.confidence for c in answer.group) < 0.5


def test_a_sentence_of_a_builtin_class_still_finds_no_one_value_site(tmp_path: Path) -> None:
    db = build_package(tmp_path, "lazy", {"api.py": LAZY, "config.py": CONFIG})
    (answer,) = answers("ValueError: invalid literal for int() with base 10: 'abc'", db=db)
    assert answer.candidates == []
    (quoted,) = answers("AttributeError: 'Config' object has no attribute 'x'", db=db)
    assert quoted.candidates == []
