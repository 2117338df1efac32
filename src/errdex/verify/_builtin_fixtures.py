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
    "tmp_path": "import pathlib\nimport tempfile\ntmp_path = pathlib.Path(tempfile.mkdtemp(dir='.'))",
    "tmpdir": "import tempfile\ntmpdir = tempfile.mkdtemp(dir='.')",
    "monkeypatch": "import pytest\nmonkeypatch = pytest.MonkeyPatch()",
}


def builtin_fixture(name: str) -> list[ast.stmt] | None:
    """The statements that bind pytest's fixture ``name``, or None when it is none of them."""
    code = BUILTIN_FIXTURES.get(name)
    return ast.parse(code).body if code is not None else None
