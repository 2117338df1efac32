"""A name is fixed only where nothing changes it (review rr6: a filled ``REGISTRY``, a
``known`` list extended from ``os.listdir``, ``open`` were read as fixed)."""

from __future__ import annotations

import ast

from errdex.analyze.fixed_names import (
    PURE_BUILTINS,
    changed_names,
    module_assigned,
    module_constants,
    module_imports,
)

MODULE = """\
import os
import xml.dom as dom
from re import compile

REGISTRY = {}
KINDS = ("a", "b")
CHOICES = {"x", "y"}
_cache = {}
LIMIT = 10
counter = 0
PATH = os.getcwd()


def register(name, obj):
    REGISTRY[name] = obj


def bump():
    global counter
    counter += 1


def fill(known):
    known.extend(os.listdir("."))
    return sorted(KINDS)
"""


def test_only_names_nothing_changes_are_constants() -> None:
    tree = ast.parse(MODULE)
    assert module_constants(tree) == {"KINDS", "CHOICES", "LIMIT"}
    assert {"REGISTRY", "_cache", "counter", "PATH"} <= module_assigned(tree)
    assert "register" not in module_assigned(tree)
    assert module_imports(tree) == {"os", "dom"}


def test_what_the_code_may_change() -> None:
    changed = changed_names(ast.parse(MODULE))
    assert {"REGISTRY", "counter", "known"} <= changed
    assert "KINDS" not in changed  # handed to ``sorted``, a pure builtin
    assert "open" not in PURE_BUILTINS and "len" in PURE_BUILTINS
