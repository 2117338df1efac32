"""The call graph: resolution through imports, name-only edges, depth and precision."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.callgraph import MAX_VISITED, CallGraph, Reach, ReachCounts, build_callgraph
from errdex.analyze.chains import Chains
from errdex.analyze.classes import ClassTree
from errdex.analyze.entrypoints import PublicApi, entry_points
from errdex.analyze.repo import Carried, RepoIndex, build_index
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
    return _index_of(tmp_path, FILES)


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


GLOBAL_INSTANCE = {
    "pkg/__init__.py": "",
    "pkg/decoder.py": (
        "class Decoder:\n"
        "    def parse(self, s):\n"
        "        raise ValueError('Extra data')\n"
        "\n"
        "class Other:\n"
        "    def parse(self, s):\n"
        "        raise KeyError(s)\n"
    ),
    "pkg/api.py": (
        "from pkg.decoder import Decoder, Other\n"
        "\n"
        "_default = Decoder()\n"
        "_either = Decoder()\n"
        "_either = Other()\n"
        "\n"
        "def loads(s):\n"
        "    return _default.parse(s)\n"
        "\n"
        "def loads_either(s):\n"
        "    return _either.parse(s)\n"
        "\n"
        "def loads_shadowed(_default):\n"
        "    return _default.parse(1)\n"
    ),
}


def test_a_module_level_instance_bound_once_is_followed(tmp_path: Path) -> None:
    """Like ``json.loads`` calling ``_default_decoder.decode(s)`` on ``_default_decoder =
    JSONDecoder()``: an exact edge to the class's method. A name bound twice at the top
    level, or a parameter of the same name, is no such instance."""
    graph = build_callgraph(_index_of(tmp_path, GLOBAL_INSTANCE))
    by_name = {"pkg.api.loads_either": "name", "pkg.api.loads_shadowed": "name"}
    assert graph.callers["pkg.decoder.Decoder.parse"] == {"pkg.api.loads": "exact", **by_name}
    assert graph.callers["pkg.decoder.Other.parse"] == by_name


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


def _index_of(tmp_path: Path, files: dict[str, str]) -> RepoIndex:
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
    return build_index(checkout, library_files=list(files), test_globs=(), read=files.get)


def test_a_carried_graph_resolves_only_the_changed_files_again(tmp_path: Path) -> None:
    first = index(tmp_path)
    first.carried = Carried()
    fresh = build_callgraph(first)
    assert first.carried.edges is not None
    assert first.carried.edges["pkg/api.py"]["pkg.api.run"] == {"pkg._impl.step": "exact"}
    # _impl.py changes: step now also calls a new private helper; api.py is untouched
    edited = dict(FILES)
    edited["pkg/_impl.py"] = FILES["pkg/_impl.py"].replace(
        "    return _inner(x)\n", "    _more(x)\n    return _inner(x)\n\ndef _more(x):\n    pass\n"
    )
    again = _index_of(tmp_path, edited)
    # a stale edge planted in the unchanged file's table shows that table is reused as is
    kept = {p: dict(t) for p, t in first.carried.edges.items()}
    kept["pkg/api.py"] = {**kept["pkg/api.py"], "pkg.api._private": {"pkg.api.run": "exact"}}
    again.carried = Carried(frozenset({"pkg/_impl.py"}), kept)
    graph = build_callgraph(again)
    assert graph.callers["pkg.api.run"] == {"pkg.api._private": "exact"}  # from the table
    assert graph.callers["pkg._impl._more"] == {"pkg._impl.step": "exact"}  # resolved anew
    # without the planted edge, the carried build is the fresh build of the edited files
    again.carried = Carried(frozenset({"pkg/_impl.py"}), first.carried.edges)
    assert build_callgraph(again).callers == build_callgraph(_index_of(tmp_path, edited)).callers
    assert fresh.callers != build_callgraph(again).callers


def test_a_carried_graph_without_changes_known_is_built_afresh(tmp_path: Path) -> None:
    idx = index(tmp_path)
    idx.carried = Carried(None, {"pkg/api.py": {"x": {"y": "exact"}}})
    graph = build_callgraph(idx)
    assert "y" not in graph.callers
    assert idx.carried.edges is not None and "x" not in idx.carried.edges["pkg/api.py"]


def test_reach_is_breadth_first_in_name_order_and_stops_at_the_cap() -> None:
    graph = CallGraph()
    for caller in ("b", "a", "c"):
        graph.add(caller, "target", "exact")
    graph.add("z", "a", "name")
    graph.add("y", "z", "exact")
    found = graph.reach("target")
    assert list(found) == ["target", "a", "b", "c", "z", "y"]
    assert found["y"] == Reach(3, ("y", "z", "a", "target"), "name")
    shallow = CallGraph(callers={k: dict(v) for k, v in graph.callers.items()})
    assert list(shallow.reach("target", max_depth=1)) == ["target", "a", "b", "c"]
    wide = CallGraph()
    for i in range(MAX_VISITED + 10):
        wide.add(f"f{i:05}", "target", "exact")
    reached = wide.reach("target")
    assert len(reached) == MAX_VISITED and "f00000" in reached


def test_reach_counts_are_the_sites_of_each_class_a_caller_reaches() -> None:
    """(caller, class) -> sites of that class in the functions the caller reaches, itself
    included; a function's several sites count each."""
    graph = CallGraph()
    graph.add("api", "parse", "exact")
    graph.add("api", "check", "exact")
    graph.add("cli", "api", "name")
    graph.add("other", "check", "exact")
    counts = ReachCounts(graph, {("parse", "ValueError"): 2, ("check", "ValueError"): 1})
    assert counts[("api", "ValueError")] == 3 and counts[("cli", "ValueError")] == 3
    assert counts[("other", "ValueError")] == 1 and counts[("parse", "ValueError")] == 2
    assert counts[("api", "KeyError")] == 0 and counts[("nobody", "ValueError")] == 0
