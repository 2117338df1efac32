"""Calls through a name bound to one class or function (:mod:`errdex.analyze.bound_names`),
and the class a constructor call builds judging the ``self`` lookups below it."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.chains import Chains
from errdex.analyze.classes import ClassTree
from errdex.analyze.repo import build_index
from errdex.source import open_source

from .stdlib_items import ON_311, stdlib_items

_MODULE = """
class Base:
    def __init__(self, data=None):
        if data is not None:
            self._parse(data)

    def _parse(self, data):
        pass


class Strict(Base):
    def _parse(self, data):
        if not data:
            raise ValueError("empty data")


def load(data, class_=None):
    if class_ is None:
        class_ = Strict
    return class_(data)


def build(data, factory=Strict):
    return factory(data)


def alias(data):
    make = Strict
    return make(data)


def plain(data):
    return Base(data)
"""


def _reaching(tmp_path: Path) -> set[str]:
    (tmp_path / "mod.py").write_text(_MODULE)
    index = build_index(open_source(str(tmp_path), repo="o/m"), library_files=["mod.py"])
    hops = Chains(index, ClassTree(index)).reach("mod.Strict._parse", "builtins.ValueError")
    return {h.qualname for h in hops}


def test_a_local_or_parameter_bound_to_one_class_is_followed(tmp_path: Path) -> None:
    # ``class_ = Strict`` under ``if class_ is None``, a default naming the class, a
    # local bound once: each call builds a Strict, whose _parse raises
    assert {"mod.load", "mod.build", "mod.alias"} <= _reaching(tmp_path)


def test_a_constructor_call_runs_the_lookups_of_the_class_it_builds(tmp_path: Path) -> None:
    # ``Base(data)`` builds a Base: its __init__'s ``self._parse`` is Base._parse, which
    # does not raise; only a Strict reaches Strict._parse
    found = _reaching(tmp_path)
    assert "mod.Base.__init__" in found
    assert "mod.plain" not in found


@ON_311
def test_gettext_translation_reaches_the_gnu_parse_errors() -> None:
    """Blind review stop 33: ``translation`` binds ``class_ = GNUTranslations`` when the
    caller leaves ``class_`` and makes ``class_(fp)`` outside any ``try``; ``install``
    calls ``translation`` so too (checked by hand in gettext.py, lines 519-561)."""
    items = stdlib_items("gettext.py")
    for message in ("Bad magic number", "Bad version number", "File is corrupt"):
        (evidence,) = [
            e
            for r, e in items
            if e["site"]["qualname"] == "gettext.GNUTranslations._parse"
            and message in r["errorMessage"]
        ]
        names = [e["qualname"] for e in evidence["entryPoints"]]
        assert names[1:] == ["gettext.translation", "gettext.install"]
