"""A value a class body gives an attribute is written into a template only when every
instance holds it (issue 10): a default an instance replaces, an annotated instance
default, a property a subclass of another module overrides stay holes; a class constant
nothing stores, and a property no subclass overrides, are still text."""

from __future__ import annotations

from pathlib import Path

import pytest

from ._fixture import package_on_disk, sites_by_line

BASE = """\
class Index:
    _name = None

    def __init__(self, name=None):
        pass

    @classmethod
    def _simple_new(cls, name):
        result = cls.__new__(cls)
        result._name = name
        return result

    @property
    def name(self):
        return self._name

    @property
    def nlevels(self):
        return 1

    @property
    def dialect(self):
        return "plain"

    def check_name(self, level):
        if level != self.name:
            raise KeyError(f"Requested level ({level}) does not match index name ({self.name})")

    def check_levels(self, n):
        if n >= self.nlevels:
            raise ValueError(f"Cannot remove {n} levels from an index with {self.nlevels} levels")

    def check_dialect(self, d):
        if d != self.dialect:
            raise ValueError(f"dialect must be {self.dialect}, got {d}")
"""
MULTI = """\
from .base import Index


class MultiIndex(Index):
    def __init__(self, levels):
        super().__init__()
        self.levels = levels

    @property
    def nlevels(self):
        return len(self.levels)
"""
OPTIONS = """\
from dataclasses import dataclass


@dataclass
class Options:
    mode: str = "fast"

    @property
    def shown(self):
        return self.mode

    def check(self, m):
        if m != self.shown:
            raise ValueError(f"mode must be {self.shown}, got {m}")
"""
ERRORS = """\
class CodeError(Exception):
    code = "E1"

    def __str__(self):
        return f"[{self.code}] failed"


class TaggedError(Exception):
    tag = "T0"

    def __str__(self):
        return f"{self.tag}: failed"


def tagged(err):
    err.tag = "T9"
    return err


def f(x):
    if x == 1:
        raise CodeError()
    raise TaggedError()
"""


def _line(text: str, needle: str) -> int:
    return next(i for i, t in enumerate(text.splitlines(), 1) if needle in t)


@pytest.fixture
def sites(tmp_path: Path) -> dict[str, dict[int, object]]:
    modules = {"base": BASE, "multi": MULTI, "errors": ERRORS, "options": OPTIONS}
    with package_on_disk(tmp_path, "pkg", modules) as root:
        return {m: sites_by_line(root, f"src/pkg/{m}.py") for m in ("base", "errors", "options")}


def _display(sites: dict[str, dict[int, object]], module: str, text: str, needle: str) -> str:
    return sites[module][_line(text, needle)].template.display  # type: ignore[attr-defined]


def test_a_default_an_instance_replaces_stays_a_hole(sites: dict) -> None:
    shown = _display(sites, "base", BASE, "does not match index name")
    assert shown == "'Requested level ({level}) does not match index name ({self.name})'"
    real = KeyError("Requested level (a) does not match index name (idx)")
    template = sites["base"][_line(BASE, "does not match index name")].template
    assert template.match(str(real)) is not None


def test_a_property_a_subclass_overrides_stays_a_hole(sites: dict) -> None:
    shown = _display(sites, "base", BASE, "Cannot remove")
    assert shown == "Cannot remove {n} levels from an index with {self.nlevels} levels"
    template = sites["base"][_line(BASE, "Cannot remove")].template
    assert template.match("Cannot remove 3 levels from an index with 3 levels") is not None


def test_an_annotated_instance_default_stays_a_hole_a_settled_property_is_text(
    sites: dict,
) -> None:
    shown = _display(sites, "options", OPTIONS, "mode must be")
    assert shown == "mode must be {self.shown}, got {m}"  # ``Options(mode="slow")``
    shown = _display(sites, "base", BASE, "dialect must be")
    assert shown == "dialect must be plain, got {d}"


def test_a_class_constant_stays_text_one_stored_elsewhere_is_a_hole(sites: dict) -> None:
    assert _display(sites, "errors", ERRORS, "raise CodeError") == "[E1] failed"
    assert _display(sites, "errors", ERRORS, "raise TaggedError") == "{self.tag}: failed"


VALIDATORS = """\
class ValidationError(ValueError):
    pass


class URL:
    class Memo:
        def __init__(self):
            self.memo = {}

    default_message = "Not a valid URL."

    def __init__(self, *, error=None):
        self.error = error or self.default_message

    def _format_error(self, value):
        return self.error.format(input=value)

    def __call__(self, value):
        message = self._format_error(value)
        if not value:
            raise ValidationError(message)
        return value


class Email:
    default_message = "Not a valid email address."

    def __init__(self, *, error=None):
        self.error = error or self.default_message
"""


def test_a_sibling_class_storing_the_same_name_leaves_the_value_settled(tmp_path: Path) -> None:
    """marshmallow's validators each store ``self.error`` in their ``__init__``: Email's
    store says nothing of a URL's, so URL's default message stays text (a32 once made it
    a bare hole, and "Not a valid URL." matched "Not a valid email address." instead)."""
    with package_on_disk(tmp_path, "validators", {"validate": VALIDATORS}) as root:
        found = sites_by_line(root, "src/validators/validate.py")
    assert "Not a valid URL." in found[21].template.display, found[21].template.display


def test_a_store_by_another_object_still_unsettles(tmp_path: Path) -> None:
    """A store through an object of unknown class (``other.error = …``) may be a URL's."""
    source = VALIDATORS + "\n\ndef reset(other):\n    other.error = 'changed'\n"
    with package_on_disk(tmp_path, "validators2", {"validate": source}) as root:
        found = sites_by_line(root, "src/validators2/validate.py")
    assert "Not a valid URL." not in found[21].template.display
