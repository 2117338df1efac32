"""A caller that never passes a keyword a popped ``**kwargs`` guard needs is no way in."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.fixed_args import KeysAtMost, after_removals
from errdex.analyze.guard_eval import EMPTY_KWARGS, guard_value

from .stdlib_items import ON_311, one_file_items, stdlib_items

_POPPED = (
    "__all__ = ['configure', 'quiet', 'both', 'forwarded', 'emptied']\n"
    "\n\n"
    "def configure(**kwargs):\n"
    "    force = kwargs.pop('force', False)\n"
    "    if 'stream' in kwargs and 'filename' in kwargs:\n"
    "        raise ValueError('stream and filename together')\n"
    "    return force\n"
    "\n\n"
    "def quiet():\n"
    "    configure(format='%(message)s', level=10)\n"
    "\n\n"
    "def both(out):\n"
    "    configure(stream=out, filename='log.txt')\n"
    "\n\n"
    "def forwarded(**options):\n"
    "    configure(stream=None, **options)\n"
    "\n\n"
    "def _strict(**kwargs):\n"
    "    kwargs.pop('force', None)\n"
    "    if kwargs:\n"
    "        raise TypeError('unexpected keywords')\n"
    "\n\n"
    "def emptied():\n"
    "    _strict(force=True)\n"
)


def _entries(items: list[tuple[dict, dict]], message: str) -> list[str]:
    (evidence,) = [e for r, e in items if r["errorMessage"] == message]
    return [e["qualname"] for e in evidence["entryPoints"]]


def test_a_caller_passing_neither_popped_key_is_dropped(tmp_path: Path) -> None:
    """Blind review stop 36: ``lib2to3.main.main`` calls ``basicConfig(format=…,
    level=…)``. The body pops other keys before the test; a pop never adds one, so
    ``quiet`` cannot raise; ``both`` passes the two, ``forwarded`` may (its ``**options``)."""
    items = one_file_items(tmp_path, "m.py", _POPPED)
    named = _entries(items, "stream and filename together")
    assert "m.quiet" not in named
    assert {"m.configure", "m.both", "m.forwarded"} <= set(named)


def test_a_popped_key_leaves_the_length_unknown(tmp_path: Path) -> None:
    """``_strict(force=True)`` passes a key the body pops: ``if kwargs`` is not decided
    by what the call passed, and ``emptied`` stays a way in."""
    items = one_file_items(tmp_path, "m.py", _POPPED)
    assert "m.emptied" in _entries(items, "unexpected keywords")


def test_keys_at_most_decides_absence_alone() -> None:
    kwargs = KeysAtMost(["format", "level"])
    assert guard_value("'stream' in kwargs and 'filename' in kwargs", {"kwargs": kwargs}) is False
    assert guard_value("'stream' not in kwargs", {"kwargs": kwargs}) is True
    assert guard_value("'format' in kwargs", {"kwargs": kwargs}) is None
    assert guard_value("kwargs", {"kwargs": kwargs}) is None
    assert guard_value("len(kwargs) > 0", {"kwargs": kwargs}) is None
    assert after_removals(EMPTY_KWARGS) is EMPTY_KWARGS
    assert after_removals(("a",)) is None


@ON_311
def test_basic_config_is_not_reached_from_callers_without_both_keys() -> None:
    """``lib2to3.main.main`` passes ``format`` and ``level``, ``driver.main`` ``stream``
    without ``filename`` (blind review stop 36, record 25246228e99a5ace)."""
    items = stdlib_items("logging/__init__.py", "lib2to3/main.py", "lib2to3/pgen2/driver.py")
    named = _entries(items, "'stream' and 'filename' should not be specified together")
    assert "logging.basicConfig" in named
    assert "lib2to3.main.main" not in named
    assert "lib2to3.pgen2.driver.main" not in named
