"""Callers the fixed-argument and receiver rules must keep: each route below raises.

A read-only review of session 38 ran each: a ``**kwargs`` that gains keys where no fact
sees it, a class whose call may hand back a class, a name an enclosing function binds,
plumbing whose only listed caller was dropped, a method also bound under another name.
"""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import one_file_items

_KWARGS = (
    "__all__ = ['aliased', 'quiet', 'handed', 'plain', 'nested', 'loud', 'updated',"
    " 'level', 'unpacked', 'copied']\n"
    "\n\n"
    "def aliased(**kwargs):\n"
    "    opts = kwargs\n"
    "    kwargs.pop('force', None)\n"
    "    opts['filename'] = 'x'\n"
    "    if 'stream' in kwargs and 'filename' in kwargs:\n"
    "        raise ValueError('aliased: stream and filename')\n"
    "\n\n"
    "def quiet(out):\n"
    "    aliased(stream=out)\n"
    "\n\n"
    "def _fill(d):\n"
    "    d['handlers'] = [1]\n"
    "\n\n"
    "def handed(**kwargs):\n"
    "    _fill(kwargs)\n"
    "    kwargs.pop('force', None)\n"
    "    if 'handlers' in kwargs:\n"
    "        raise ValueError('handed: handlers given')\n"
    "\n\n"
    "def plain():\n"
    "    handed(level=10)\n"
    "\n\n"
    "def nested(**kwargs):\n"
    "    def add():\n"
    "        kwargs['filename'] = 'x'\n"
    "    kwargs.pop('force', None)\n"
    "    add()\n"
    "    if 'stream' in kwargs and 'filename' in kwargs:\n"
    "        raise ValueError('nested: stream and filename')\n"
    "\n\n"
    "def loud(out):\n"
    "    nested(stream=out)\n"
    "\n\n"
    "def updated(**kwargs):\n"
    "    kwargs.pop('force', None)\n"
    "    dict.update(kwargs, handlers=[1])\n"
    "    if 'handlers' in kwargs:\n"
    "        raise ValueError('updated: handlers given')\n"
    "\n\n"
    "def level():\n"
    "    updated(level=10)\n"
    "\n\n"
    "def unpacked(**kwargs):\n"
    "    kwargs.pop('force', None)\n"
    "    print(**kwargs)\n"
    "    if 'handlers' in kwargs:\n"
    "        raise ValueError('unpacked: handlers given')\n"
    "\n\n"
    "def copied():\n"
    "    unpacked(level=10)\n"
)


def _entries(items: list[tuple[dict, dict]], message: str) -> list[str]:
    """The entry points of the one record whose message holds ``message``."""
    found = [
        [p["qualname"] for p in e["entryPoints"]] for r, e in items if message in r["errorMessage"]
    ]
    assert len(found) == 1, message
    return found[0]


def test_a_kwargs_that_gains_keys_unseen_keeps_its_callers(tmp_path: Path) -> None:
    """An alias, a helper handed the mapping, a nested function and ``dict.update(kwargs,
    …)`` each add a key: the caller that passes ``stream`` alone or ``level`` alone
    reaches the raise. ``print(**kwargs)`` gets a copy: ``copied`` stays dropped."""
    items = one_file_items(tmp_path, "m.py", _KWARGS)
    assert "m.quiet" in _entries(items, "aliased: stream and filename")
    assert "m.plain" in _entries(items, "handed: handlers given")
    assert "m.loud" in _entries(items, "nested: stream and filename")
    assert "m.level" in _entries(items, "updated: handlers given")
    assert "m.copied" not in _entries(items, "unpacked: handlers given")
