"""Plain ``self.name = …`` stores by top-level class, read from the text."""

from __future__ import annotations

from collections import Counter

from errdex.extract.python.self_stores import self_stores_by_class

TEXT = """\
class URL:
    class Memo:
        def __init__(self):
            self.error = {}

    def __init__(self, error=None):
        self.error: str = error or "x"
        self.count += 1
        self.a, self.b = 1, 2
        if self.error == "y":
            self.kind = None


def helper(obj):
    obj.error = "z"
    self.stray = 1


@decorated
class Email(Base):
    def __init__(self):
        self.error = "e"
"""


def test_stores_are_read_by_class_and_nested_classes_are_passed_over() -> None:
    found = self_stores_by_class(TEXT)
    # Memo's store is another object's; the tuple target is not read; a comparison is
    # no store; a function's lines belong to no class
    assert found == {
        "URL": Counter({"error": 1, "count": 1, "kind": 1}),
        "Email": Counter({"error": 1}),
    }
