"""Values the tests give a name: kept with the imports they read, one of each kind."""

from __future__ import annotations

import ast

from errdex.verify._alternatives import Alternatives, fits, program_bindings

PROGRAMS = [
    "import networkx as nx\nG = nx.DiGraph()\nG.add_edge(1, 2)\n",
    "import networkx as nx\nG = nx.DiGraph([(1, 2)])\nnx.f(G, weight='w')\n",
    "import networkx as nx\nG = nx.path_graph(4)\n",
    "from networkx import MultiGraph\nG = MultiGraph()\n",
    "import networkx as nx\nH = nx.Graph()\nG = nx.union(H, H)\n",  # reads a made value
    "G = [n for n in range(3)]\n",  # a comprehension binds a name of its own
]


def test_one_value_of_each_kind_the_most_common_first() -> None:
    alts = Alternatives(PROGRAMS)
    texts = [a.text for a in alts.of("G", 6)]
    assert texts == ["nx.DiGraph()", "MultiGraph()", "nx.path_graph(4)"]
    assert [a.text for a in alts.of("weight", 6)] == ["'w'"]
    besides = [a.text for a in alts.of("G", 6, besides="nx.DiGraph()")]
    assert "nx.DiGraph([(1, 2)])" in besides and "nx.DiGraph()" not in besides
    assert alts.of("nothing", 6) == []


def test_a_value_brings_the_imports_it_reads_and_never_rebinds_a_name() -> None:
    (multi,) = [a for a in Alternatives(PROGRAMS).of("G", 6) if a.text == "MultiGraph()"]
    here = program_bindings(ast.parse("import networkx as nx\nx = 1\n"))
    assert fits(multi, here) == ["from networkx import MultiGraph"]
    assert fits(multi, program_bindings(ast.parse("MultiGraph = list\n"))) is None
    (nx_value,) = [a for a in Alternatives(PROGRAMS).of("G", 6) if a.text == "nx.DiGraph()"]
    assert fits(nx_value, here) == []  # the program imports nx the same way
    assert fits(nx_value, program_bindings(ast.parse("import numpy as nx\n"))) is None
