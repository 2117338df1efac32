"""The house rules that the code's shape must keep, checked on the source itself.

Data flows down the map (source -> extract -> analyze -> store -> web, match); nothing
below imports from above, not even inside a function, where a cycle would otherwise hide.
A module over ~600 lines holds two jobs.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import errdex

PACKAGE = Path(errdex.__file__).parent

#: The lower layers, and the modules above them that they must never import.
LOWER_LAYERS = ("analyze", "extract", "source", "store")
UPPER_MODULES = ("errdex.scan", "errdex.cli", "errdex.web", "errdex.match")

MAX_LINES = 600


def _module_name(path: Path, package: Path) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, package: Path = PACKAGE) -> Iterator[tuple[int, str]]:
    """(line, absolute module) for every import in the file, at any depth.

    ``from errdex import scan`` yields ``errdex.scan`` as well as ``errdex``, and a
    relative import is resolved against the file's own package.
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    module = _module_name(path, package)
    parent = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = parent.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, *([base] if base else [])])
            yield node.lineno, base
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}"


def _imports_upper(name: str) -> bool:
    return any(name == upper or name.startswith(upper + ".") for upper in UPPER_MODULES)


def layer_violations(package: Path = PACKAGE) -> list[str]:
    """``path:line imports module`` for each import of an upper module by a lower layer."""
    found: list[str] = []
    for layer in LOWER_LAYERS:
        for path in sorted((package / layer).rglob("*.py")):
            for line, name in imported_modules(path, package):
                if _imports_upper(name):
                    found.append(f"{path.relative_to(package)}:{line} imports {name}")
    return found


def oversized_modules(package: Path = PACKAGE) -> dict[str, int]:
    """Modules of the package longer than MAX_LINES, with their line counts."""
    out: dict[str, int] = {}
    for path in sorted(package.rglob("*.py")):
        count = len(path.read_text(encoding="utf-8").splitlines())
        if count > MAX_LINES:
            out[path.relative_to(package).as_posix()] = count
    return out


def test_lower_layers_never_import_the_layers_above() -> None:
    assert layer_violations() == []


def test_the_import_reader_sees_function_level_and_relative_imports(tmp_path: Path) -> None:
    package = tmp_path / "errdex"
    (package / "analyze").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "analyze" / "__init__.py").write_text("")
    (package / "analyze" / "deep.py").write_text(
        "import os\n"
        "from errdex.template import MessageTemplate\n"
        "def f():\n"
        "    from errdex.scan import read_source\n"
        "    from ..web import app\n"
        "    from errdex import cli\n"
        "    import errdex.match.paste\n"
        "    from .facts import module_facts\n"
    )
    assert layer_violations(package) == [
        "analyze/deep.py:4 imports errdex.scan",
        "analyze/deep.py:4 imports errdex.scan.read_source",
        "analyze/deep.py:5 imports errdex.web",
        "analyze/deep.py:5 imports errdex.web.app",
        "analyze/deep.py:6 imports errdex.cli",
        "analyze/deep.py:7 imports errdex.match.paste",
    ]


def test_no_module_holds_more_than_600_lines() -> None:
    assert oversized_modules() == {}
