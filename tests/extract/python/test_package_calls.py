"""The other modules of a package that may call a function: found by the call's name,
parsed with their own imports, and every file of the package noted as read (whole, or for
lacking the name: a cached scan reads the raising file again when one of them changes
what the search found)."""

from __future__ import annotations

from pathlib import Path

from errdex.extract.python.module import ModuleReader
from errdex.extract.python.package_calls import package_modules
from errdex.extract.python.project import reading_repository
from errdex.extract.python.read_views import absent, view_key

from ._fixture import package_on_disk

MODULES = {
    "parser": "class Parser:\n    def fail(self, msg, exc=ValueError):\n        raise exc(msg)\n",
    "ext": "from .parser import Parser\n\n\ndef parse(parser: Parser):\n    parser.fail('x')\n",
    "util": "def helper():\n    return 1\n",
}


def _reader(root: Path, rel: str, module: str) -> ModuleReader:
    return ModuleReader((root / rel).read_text(), rel, module, {})


def test_the_modules_showing_the_name_are_parsed_and_every_file_is_noted(tmp_path: Path) -> None:
    """Those showing the name are read whole, the others for lacking it (an edit of
    theirs matters only where it brings the name: :mod:`errdex.scan_views`)."""
    with package_on_disk(tmp_path, "pkg", MODULES) as root:
        with reading_repository(root) as project:
            near = _reader(root, "src/pkg/parser.py", "pkg.parser")
            found = package_modules(near, "fail(")
            assert [reader.module for reader, _ in found] == ["pkg.ext"]
            (reader, tree) = found[0]
            assert reader.imports["Parser"] == "pkg.parser.Parser"
            assert tree.body  # the tree the reader indexed, for the calls in it
            read = project.files_read("src/pkg/parser.py")
        assert "src/pkg/ext.py" in read
        for rel in ("src/pkg/util.py", "src/pkg/__init__.py"):
            assert view_key(rel, [absent("fail(")]) in read
            assert rel not in read
        assert "src/pkg/" in read  # the folder: a module added to it may call the name too


def test_a_module_outside_a_package_or_a_repository_has_no_other_modules(tmp_path: Path) -> None:
    (tmp_path / "runpy.py").write_text("def _get(error=ImportError):\n    raise error('x')\n")
    (tmp_path / "other.py").write_text("import runpy\nrunpy._get(KeyError)\n")
    near = _reader(tmp_path, "runpy.py", "runpy")
    with reading_repository(tmp_path):
        assert package_modules(near, "_get(") == []
    assert package_modules(near, "_get(") == []  # no repository being read


def test_a_file_changed_between_two_reads_is_read_again(tmp_path: Path) -> None:
    """A checkout moved to another tag in the same folder: the new text decides."""
    with package_on_disk(tmp_path, "pkg", MODULES) as root:
        near = _reader(root, "src/pkg/parser.py", "pkg.parser")
        with reading_repository(root):
            assert [r.module for r, _ in package_modules(near, "fail(")] == ["pkg.ext"]
        (root / "src/pkg/util.py").write_text(
            "from .parser import Parser\n\n\ndef check(p: Parser):\n    p.fail('y', KeyError)\n"
        )
        with reading_repository(root):
            found = package_modules(near, "fail(")
        assert sorted(r.module for r, _ in found) == ["pkg.ext", "pkg.util"]
