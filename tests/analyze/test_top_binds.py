"""How often a module's top level binds each name."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.top_binds import STAR, top_bindings

_TEXT = (
    "import os.path\n"
    "from sys import argv as args\n"
    "\n\n"
    "def once():\n"
    "    x = 1\n"
    "    return x\n"
    "\n\n"
    "def twice():\n"
    "    pass\n"
    "\n\n"
    "if args:\n"
    "    def twice():\n"
    "        pass\n"
    "\n\n"
    "class int:\n"
    "    def method(self):\n"
    "        global helper\n"
    "        helper = 1\n"
    "\n\n"
    "def helper():\n"
    "    pass\n"
    "\n\n"
    "try:\n"
    "    pass\n"
    "except OSError as err:\n"
    "    pass\n"
    "\n\n"
    "f = lambda y: (z := y)\n"
)


def test_every_top_level_binding_is_counted(tmp_path: Path) -> None:
    """A ``def`` per branch counts twice, a ``global`` in a method makes a name bound
    again, imports and ``except … as`` bind; a function's and a lambda's own locals
    do not count."""
    path = tmp_path / "m.py"
    path.write_text(_TEXT)
    bound = top_bindings(str(path))
    assert bound is not None
    assert bound["once"] == 1 and bound["int"] == 1
    assert bound["twice"] == 2
    assert bound["helper"] > 1
    assert bound["os"] == 1 and bound["args"] == 1 and bound["err"] == 1
    assert bound["x"] == 0 and bound["y"] == 0 and bound["z"] == 0
    assert bound[STAR] == 0
    path.write_text("from os import *\n")
    assert (top_bindings(str(path)) or {}).get(STAR) == 1
