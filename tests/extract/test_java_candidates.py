"""The Java extractor's candidate sites, found by their words in the bytes, are exactly
the nodes a tree-sitter query over the whole tree finds (the query it replaced)."""

from __future__ import annotations

import textwrap

import tree_sitter

from errdex.extract.java.syntax import SITE_METHODS, candidates, language, parse

SOURCE = textwrap.dedent(
    """\
    package p;
    import static java.util.Objects.requireNonNull;
    /** throws IllegalStateException; see error() and checkState */
    class A {
        String error = "warn";  // a field named like a logger method
        void throwsNothing() throws Exception { checkStateX(); errorCount++; }
        void f(Object o, int n) {
            assert n > 0 : "n must be positive";
            assert o != null;
            requireNonNull(o, "o");
            java.util.Objects.requireNonNull(o);
            com.google.common.base.Preconditions.checkArgument(n < 9, "n=%s", n);
            Preconditions.checkNotNull(o);
            checkState(n != 3);
            log.error("failed: {}", n).warn ("then").warning("x");
            LOG.severe("s"); LOG.fatal("f");
            String s = "throw new X(); requireNonNull(";
            Runnable r = () -> { throw new IllegalStateException("in a lambda"); };
            if (n == 4) throw (new RuntimeException("four"));
            new Object() { void g() { throw new Error("anon"); } };
        }
    }
    """
).encode()


def _reference(root: tree_sitter.Node) -> dict[str, list[tuple[int, int]]]:
    names = " ".join(f'"{n}"' for n in SITE_METHODS)
    query = tree_sitter.Query(
        language(),
        "(throw_statement) @throw\n(assert_statement) @assert\n"
        f"(method_invocation name: (identifier) @name (#any-of? @name {names})) @call",
    )
    found = tree_sitter.QueryCursor(query).captures(root)
    return {
        kind: sorted((n.start_byte, n.end_byte) for n in found.get(kind, []))
        for kind in ("throw", "assert", "call")
    }


def test_candidates_are_the_query_s_nodes() -> None:
    root = parse(SOURCE).root_node
    got = candidates(root, SOURCE)
    spans = {kind: [(n.start_byte, n.end_byte) for n in nodes] for kind, nodes in got.items()}
    assert spans == _reference(root)
    assert len(spans["throw"]) == 3 and len(spans["assert"]) == 2 and len(spans["call"]) == 10
