"""pytest's own fixtures that a snippet can make with one line of its own.

A test that takes ``tmp_path`` (``test_gml.py::TestGraph::test_exceptions`` writes one
file there and then checks twenty parse errors) gave no snippet at all: the fixture is
pytest's, not the module's. The sandbox already runs every snippet in a fresh scratch
folder, so a folder made there stands in for it; ``monkeypatch`` is pytest's public
``MonkeyPatch``. Fixtures that capture or record (``capsys``, ``recwarn``) stay out of
reach: the statements after them read what only pytest fills in.
"""

from __future__ import annotations

import ast

__all__ = ["BUILTIN_FIXTURES", "builtin_fixture"]

BUILTIN_FIXTURES: dict[str, str] = {
    # absolute, as pytest's: a test that compares or chdirs with it reads the full path
    "tmp_path": "import pathlib\nimport tempfile\n"
    "tmp_path = pathlib.Path(tempfile.mkdtemp(dir='.')).resolve()",
    # a py.path.local, as pytest's (.join, .strpath); where the interpreter the snippet
    # runs in has no ``py`` (pytest ships it), the import fails and no run counts
    "tmpdir": "import os\nimport tempfile\nimport py\n"
    "tmpdir = py.path.local(os.path.realpath(tempfile.mkdtemp(dir='.')))",
    "monkeypatch": "import pytest\nmonkeypatch = pytest.MonkeyPatch()",
}


def builtin_fixture(name: str) -> list[ast.stmt] | None:
    """The statements that bind pytest's fixture ``name``, or None when it is none of them."""
    code = BUILTIN_FIXTURES.get(name)
    return ast.parse(code).body if code is not None else None
