"""The call graph: resolution through imports, name-only edges, depth and precision."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.callgraph import build_callgraph
from errdex.analyze.chains import Chains
from errdex.analyze.classes import ClassTree
from errdex.analyze.entrypoints import PublicApi, entry_points
from errdex.analyze.repo import RepoIndex, build_index
from errdex.source import Checkout

FILES = {
    "pkg/__init__.py": "from pkg.api import *\n",
    "pkg/api.py": (
        "__all__ = ['run', 'Engine']\n"
        "from pkg import _impl as impl\n"
        "from pkg._impl import guarded\n"
        "\n"
        "def run(x):\n"
        "    return impl.step(x)\n"
        "\n"
        "class Engine:\n"
        "    def go(self, g):\n"
        "        return g.check_it()\n"
        "    def start(self):\n"
        "        reader = impl.Reader()\n"
        "        return reader()\n"
        "\n"
        "@guarded\n"
        "def decorated():\n"
        "    return 1\n"
        "\n"
        "def _private():\n"
        "    return impl.step(1)\n"
    ),
    "pkg/_impl.py": (
        "def step(x):\n"
        "    return _inner(x)\n"
        "\n"
        "def _inner(x):\n"
        "    raise ValueError(x)\n"
        "\n"
        "class Checker:\n"
        "    def check_it(self):\n"
        "        raise TypeError('no')\n"
        "\n"
        "class Reader:\n"
        "    def __call__(self):\n"
        "        raise OSError('gone')\n"
        "\n"
        "def guarded(func):\n"
        "    def wrapper(*args):\n"
        "        raise RuntimeError('wrapped')\n"
        "    return wrapper\n"
    ),
}


def index(tmp_path: Path) -> RepoIndex:
    checkout = Checkout(
        root=tmp_path,
        repo="o/pkg",
        sha=None,
        ref=None,
        ref_kind="none",
        forge_url=None,
        version=None,
        origin="dir",
    )
    return build_index(checkout, library_files=list(FILES), test_globs=(), read=FILES.get)


def entries(tmp_path: Path, function: str) -> list[tuple[str, int, str]]:
    idx = index(tmp_path)
    found = entry_points(idx, Chains(idx, ClassTree(idx)), PublicApi(idx), function)
    return [(e["qualname"], e["depth"], e["precision"]) for e in found]


def test_chain_through_a_module_alias_and_a_private_helper(tmp_path: Path) -> None:
    # pkg._impl is a private module and exports nothing: only the api reaches users
    assert entries(tmp_path, "pkg._impl._inner") == [("pkg.api.run", 2, "exact")]


def test_method_on_an_unknown_receiver_is_a_name_edge(tmp_path: Path) -> None:
    graph = build_callgraph(index(tmp_path))
    assert graph.callers["pkg._impl.Checker.check_it"] == {"pkg.api.Engine.go": "name"}
    # an edge on a method name alone is no entry point: ``g`` may be anything
    assert entries(tmp_path, "pkg._impl.Checker.check_it") == []


def test_local_bound_to_a_constructor_is_followed(tmp_path: Path) -> None:
    assert ("pkg.api.Engine.start", 1, "exact") in entries(tmp_path, "pkg._impl.Reader.__call__")


def test_decorators_and_nested_functions(tmp_path: Path) -> None:
    graph = build_callgraph(index(tmp_path))
    assert graph.reach("pkg._impl.guarded.<locals>.wrapper")["pkg.api.decorated"].depth == 2
    # a decorator's wrapper is reached by name only: not an entry point
    assert entries(tmp_path, "pkg._impl.guarded.<locals>.wrapper") == []


def test_resolution_through_star_imports_and_all(tmp_path: Path) -> None:
    idx = index(tmp_path)
    target = idx.resolve_qualified("pkg.Engine.go")
    assert target is not None and target.qualname == "pkg.api.Engine.go"
    assert idx.resolve_qualified("pkg._private") is None  # not in api.__all__
