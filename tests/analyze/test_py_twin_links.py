"""A test links to a raise of a ``_py`` copy of a C module (``_pyio`` of ``_io``) only
where it imports that copy or blocks the C module (blind review 2026-12-06, stop 36:
``test_socket``'s ``socket.socket(fileno=-1)``, which C socket code answers, was linked to
``_pyio``'s FileIO "negative file descriptor" by its message)."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.py_twin_links import python_twin
from errdex.scan import scan_checkout
from errdex.source import open_source

FILES = {
    "_pyio.py": (
        "class FileIO:\n"
        "    def __init__(self, file):\n"
        "        if file < 0:\n"
        "            raise ValueError('negative file descriptor')\n"
        "        self.fd = file\n"
    ),
    "netsock.py": (
        "import _netsock\n\n\n"
        "class Sock(_netsock.socket):\n"
        "    def __init__(self, fileno=None):\n"
        "        _netsock.socket.__init__(self, fileno)\n"
    ),
    "tests/test_netsock.py": (
        "import unittest\n\nimport netsock\n\n\n"
        "class SockTests(unittest.TestCase):\n"
        "    def test_negative_fileno(self):\n"
        "        with self.assertRaisesRegex(ValueError, 'negative file descriptor'):\n"
        "            netsock.Sock(fileno=-1)\n"
    ),
    "tests/test_fileio.py": (
        "import unittest\n\nimport _pyio as pyio\n\n\n"
        "class PyFileTests(unittest.TestCase):\n"
        "    def test_negative_fd(self):\n"
        "        with self.assertRaisesRegex(ValueError, 'negative file descriptor'):\n"
        "            pyio.FileIO(-1)\n"
    ),
    "tests/test_blocked.py": (
        "import unittest\n"
        "from test.support.import_helper import import_fresh_module\n\n"
        "io = import_fresh_module('io', blocked=['_io'])\n\n\n"
        "class BlockedTests(unittest.TestCase):\n"
        "    def test_negative_fd(self):\n"
        "        with self.assertRaisesRegex(ValueError, 'negative file descriptor'):\n"
        "            io.FileIO(-1)\n"
    ),
}


def test_a_py_copy_is_linked_only_to_tests_that_run_it(tmp_path: Path) -> None:
    for rel, text in FILES.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    result = scan_checkout(open_source(str(tmp_path), repo="o/io"), repo="o/io")
    ((record, evidence),) = result.items
    assert record["filePath"] == "_pyio.py"
    names = sorted(t["name"].rpartition("::")[0] for t in evidence["tests"])
    assert names == [
        "tests/test_blocked.py::BlockedTests",
        "tests/test_fileio.py::PyFileTests",
    ]


def test_python_twin_names_the_c_module() -> None:
    index = type("Index", (), {"modules": {}})()
    assert python_twin(index, "_pyio") == "_io"  # type: ignore[arg-type]
    assert python_twin(index, "_py_abc") == "_abc"  # type: ignore[arg-type]
    assert python_twin(index, "_pylong") is None  # type: ignore[arg-type]
    assert python_twin(index, "pyio") is None  # type: ignore[arg-type]
