"""A call that unpacks ``*x`` beside a plain argument fills the callee's ``*args``."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.guard_eval import guard_value
from errdex.analyze.starred_args import PackedAtLeast

from .stdlib_items import ON_311, one_file_items, stdlib_items

_PARTS = (
    "__all__ = ['Path', 'joined', 'spread', 'spread_first', 'fixed_first']\n"
    "\n\n"
    "class Path:\n"
    "    def __init__(self, *parts):\n"
    "        if len(parts) < 1:\n"
    "            raise ValueError('need at least one part')\n"
    "        self.parts = parts\n"
    "\n"
    "    def joinpath(self, other):\n"
    "        return Path(*self.parts, other)\n"
    "\n\n"
    "def joined(parts, last):\n"
    "    return Path(*parts, last)\n"
    "\n\n"
    "def spread(parts):\n"
    "    return Path(*parts)\n"
    "\n\n"
    "def _first(head, *rest):\n"
    "    if not rest:\n"
    "        raise ValueError('need a second part')\n"
    "\n\n"
    "def spread_first(parts, last):\n"
    "    _first(*parts, last)\n"
    "\n\n"
    "def fixed_first(parts, a, b):\n"
    "    _first(a, *parts, b)\n"
)


def _entries(items: list[tuple[dict, dict]], message: str) -> list[str]:
    (evidence,) = [e for r, e in items if r["errorMessage"].startswith(message)]
    return [e["qualname"] for e in evidence["entryPoints"]]


def test_a_plain_argument_after_the_star_fills_the_packed_tuple(tmp_path: Path) -> None:
    """Blind review stop 37 (``OrphanPath(*self._path, other)``): ``joinpath`` and
    ``joined`` always pass one part at least, so they cannot raise; ``spread`` may pass
    an empty ``parts`` and stays, as does the class itself."""
    named = _entries(one_file_items(tmp_path, "m.py", _PARTS), "need at least one part")
    assert "m.Path.joinpath" not in named
    assert "m.joined" not in named
    assert "m.spread" in named


def test_plain_arguments_fill_positional_parameters_first(tmp_path: Path) -> None:
    """``_first(*parts, last)``: ``parts`` may be empty and ``last`` then binds ``head``,
    leaving ``rest`` empty (kept); ``_first(a, *parts, b)`` puts ``b`` or an item of
    ``parts`` in ``rest`` whatever ``parts`` is (dropped)."""
    named = _entries(one_file_items(tmp_path, "m.py", _PARTS), "need a second part")
    assert "m.spread_first" in named
    assert "m.fixed_first" not in named


_MIXED = (
    "__all__ = ['mixed', 'keywords_only']\n"
    "\n\n"
    "def _first(head, *rest, **named):\n"
    "    if not rest:\n"
    "        raise ValueError('need a second part')\n"
    "\n\n"
    "def mixed(parts, a, kw, c):\n"
    "    return _first(*parts, a, a) if c else _first(a, **kw)\n"
    "\n\n"
    "def keywords_only(parts, a, kw):\n"
    "    return _first(*parts, a, a) or _first(a, b=1, **kw)\n"
)


def test_a_double_star_call_is_not_read_as_its_neighbour(tmp_path: Path) -> None:
    """Re-review of a44 (s1.py): ``_first(a, **kw)`` is a starred site too, and the
    ``*parts`` call on its line was counted for it; ``mixed([], 1, {}, False)`` raises.
    Each site is matched by its own arguments, and a ``**``-only call fills no ``*args``."""
    named = _entries(one_file_items(tmp_path, "m.py", _MIXED), "need a second part")
    assert "m.mixed" in named
    assert "m.keywords_only" in named


def test_the_length_is_a_lower_bound_only() -> None:
    """``len`` is at least ``least``: a test it cannot pass is false, one it may pass is
    not decided; the tuple is true and is no ``None``."""
    known = {"parts": PackedAtLeast(2)}
    assert guard_value("len(parts) < 1", known) is False
    assert guard_value("len(parts) < 2", known) is False
    assert guard_value("len(parts) < 3", known) is None
    assert guard_value("len(parts) == 2", known) is None
    assert guard_value("not parts", known) is False
    assert guard_value("parts is None", known) is False


@ON_311
def test_orphan_path_joinpath_is_no_way_to_need_at_least_one_part() -> None:
    """``importlib.resources._adapters``: ``OrphanPath.joinpath`` (and
    ``Traversable.__truediv__`` through it) no longer named for "Need at least one path
    part"; ``OrphanPath.__init__`` itself still is."""
    items = stdlib_items("importlib/resources/_adapters.py", "importlib/resources/abc.py")
    named = _entries(items, "Need at least one path part")
    assert not any(q.endswith("OrphanPath.joinpath") for q in named)
    assert not any(q.endswith("Traversable.__truediv__") for q in named)
