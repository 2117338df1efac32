"""The Python extractor: every message form of the foundation issue, on real-looking code."""

from __future__ import annotations

import textwrap

import pytest

from errdex.extract.python import extract_python, module_name_for
from errdex.extract.site import ErrorSite


def sites(code: str, path: str = "pkg/mod.py") -> list[ErrorSite]:
    return extract_python(textwrap.dedent(code), path)


def one(code: str, path: str = "pkg/mod.py") -> ErrorSite:
    found = sites(code, path)
    assert len(found) == 1, [s.template.display for s in found]
    return found[0]


def messages(code: str) -> list[str]:
    return [s.template.display for s in sites(code)]


def test_literal_message_and_location() -> None:
    site = one(
        """\
        def f(x):
            if x is None:
                raise ValueError("x must not be None.")
        """
    )
    assert (site.line, site.kind, site.error_class, site.qualified_class) == (
        3,
        "raise",
        "ValueError",
        "builtins.ValueError",
    )
    assert site.template.display == "x must not be None."
    assert site.template.pattern == "x must not be None\\."
    assert site.qualname == "pkg.mod.f"
    assert [(g.kind, g.text, g.line) for g in site.guards] == [("if", "x is None", 2)]


def test_implicit_concatenation_across_lines_keeps_the_raise_line() -> None:
    site = one(
        """\
        def _all_to_all_impl(*args, **kwargs):
          raise RuntimeError("all_to_all must be used within a mapped context"
                             " like vmap or shard_map.")
        """
    )
    assert site.line == 2 and site.end_line == 3
    assert (
        site.template.display
        == "all_to_all must be used within a mapped context like vmap or shard_map."
    )


def test_fstring_fields_as_written() -> None:
    site = one(
        """\
        def f(aval, axis, out_spec, x, w):
            raise ValueError(
                f"input {aval} on dimension {axis} when {out_spec=}, "
                f"{x!r} {x:>10} {x!r:>{w}} {x = } {{braces}} {x['k']}")
        """
    )
    assert site.template.display == (
        "input {aval} on dimension {axis} when {out_spec=}, {x!r} {x:>10} {x!r:>{w}} {x = } {braces} {x['k']}"
    )
    assert [h.name for h in site.template.holes] == [
        "aval",
        "axis",
        "out_spec",
        "x",
        "x",
        "x",
        "x",
        "x['k']",
    ]
    assert site.template.match(
        "input float32[8] on dimension 0 when out_spec=P(), 'a' a 'a' x = 'a' {braces} 1"
    )


def test_percent_and_format_and_plus() -> None:
    assert messages(
        """\
        def f(a, b):
            if a:
                raise TypeError("expected %s, got %r" % (a, b))
            if b:
                raise TypeError("expected {}, got {name!r}".format(a, name=b))
            raise TypeError("bad value: " + str(a) + " and " + b)
        """
    ) == ["expected %s, got %r", "expected {}, got {name!r}", "bad value: {str(a)} and {b}"]


def test_join_and_dedent_and_strip() -> None:
    assert messages(
        """\
        import textwrap
        from textwrap import dedent

        def f(a):
            if a == 1:
                raise ValueError(", ".join(["first", f"second {a}", "third"]))
            if a == 2:
                raise ValueError(textwrap.dedent(f'''
                    multi
                      line {a}
                    '''))
            raise ValueError(dedent("  x\\n  y").strip())
        """
    ) == ["first, second {a}, third", "\nmulti\n  line {a}\n", "x\ny"]


def test_message_built_earlier_with_assignment_and_augmented_assignment() -> None:
    assert messages(
        """\
        def f(x, y):
            msg = f"bad x {x}"
            msg += "; also bad"
            raise ValueError(msg)
        """
    ) == ["bad x {x}; also bad"]


def test_branches_that_assign_different_texts_give_one_template_each() -> None:
    found = sites(
        """\
        def f(graph):
            if graph.is_directed():
                errmsg = "not implemented for directed type"
            else:
                errmsg = "not implemented for multigraph type"
            raise NotImplementedError(errmsg)
        """
    )
    assert sorted(s.template.display for s in found) == [
        "not implemented for directed type",
        "not implemented for multigraph type",
    ]
    assert {s.line for s in found} == {6}


def test_loop_that_appends_leaves_a_hole() -> None:
    site = one(
        """\
        def f(items):
            msg = "problems:"
            for item in items:
                msg += f" {item}"
            raise ValueError(msg)
        """
    )
    assert site.template.display.startswith("problems:")
    assert site.template.match("problems: a b c") is not None


def test_no_message_forms() -> None:
    found = sites(
        """\
        class NoPath(Exception):
            pass

        def f(x):
            if x == 1:
                raise NoPath
            raise ValueError()
        """
    )
    assert [(s.error_class, s.template.is_empty, s.style) for s in found] == [
        ("NoPath", True, "class_no_args"),
        ("ValueError", True, "class_no_args"),
    ]
    assert found[0].qualified_class == "pkg.mod.NoPath"
    assert found[0].template.pattern == "^$"


def test_prebuilt_exception_and_from_clause_and_bare_reraise() -> None:
    found = sites(
        """\
        def f(n):
            exc = KeyError(f"Node {n} is not in the graph.")
            try:
                g(n)
            except LookupError as err:
                raise RuntimeError("lookup failed") from err
            except TypeError:
                raise
            except OSError as e:
                raise e
            raise exc
        """
    )
    assert [(s.line, s.error_class, s.template.display, s.style, s.cause) for s in found] == [
        (6, "RuntimeError", "lookup failed", "literal", "err"),
        (11, "KeyError", "'Node {n} is not in the graph.'", "prebuilt_exception", None),
    ]
    assert found[0].guards[-1].text == "LookupError was raised (as err)"


def test_helpers_in_the_same_module_resolve_to_their_template() -> None:
    found = sites(
        """\
        def _error(name):
            return TypeError(f"unsupported operand {name!r}")

        class Reader:
            def _make_error(self, pos):
                msg = "bad token at %d" % pos
                return ValueError(msg)

            def read(self, pos):
                if pos < 0:
                    raise self._make_error(pos)
                raise _error(pos)

        def g():
            raise build_elsewhere()
        """
    )
    assert [(s.line, s.error_class, s.template.display, s.style) for s in found] == [
        (11, "ValueError", "bad token at %d", "helper_call"),
        (12, "TypeError", "unsupported operand {name!r}", "helper_call"),
        (15, None, "{…}", "helper_call"),
    ]
    # not resolved: the message is not known, and the code is what fills it, not its text
    assert [h.filled for h in found[2].template.holes] == ["str(build_elsewhere())"]


def test_warnings() -> None:
    found = sites(
        """\
        import warnings
        from warnings import warn as _warn

        def f(x):
            warnings.warn("plain", DeprecationWarning, stacklevel=2)
            _warn(f"value {x} is odd")
            warnings.warn(FutureWarning("category as instance"))
            warnings.warn(message="kw", category=RuntimeWarning)
            other.warn("not the warnings module")
        """
    )
    assert [
        (s.error_class, s.template.display, s.error_type, s.severity, s.kind) for s in found
    ] == [
        ("DeprecationWarning", "plain", "console", "warning", "warn"),
        ("UserWarning", "value {x} is odd", "console", "warning", "warn"),
        ("FutureWarning", "category as instance", "console", "warning", "warn"),
        ("RuntimeWarning", "kw", "console", "warning", "warn"),
    ]


def test_assert_with_message_only() -> None:
    found = sites(
        """\
        def f(shape, size):
            assert shape % size == 0, f"{shape} not divisible by {size}"
            assert size > 0
        """
    )
    assert len(found) == 1
    site = found[0]
    assert (site.error_class, site.kind, site.template.display) == (
        "AssertionError",
        "assert",
        "{shape} not divisible by {size}",
    )
    assert site.guards[-1].text == "shape % size != 0"


def test_guard_chain_with_else_negated() -> None:
    site = one(
        """\
        def f(a, b, items):
            for x in items:
                if a is None:
                    pass
                elif b:
                    pass
                else:
                    raise ValueError("neither")
        """
    )
    assert [(g.kind, g.text) for g in site.guards] == [
        ("for", "for x in items"),
        ("else", "a is not None"),
        ("else", "not b"),
    ]


def test_multiline_guard_drops_comments_and_line_breaks() -> None:
    """A condition written over several lines with a trailing comment reads as code
    (requests' ``rewind_body`` carried ``# type: ignore[…]`` into its guard)."""
    site = one(
        """\
        def f(body, pos, kinds):
            if body is not None and isinstance(
                pos,  # type: ignore[reportPrivateUsage]
                kinds,
            ):
                pass
            else:
                raise ValueError("cannot rewind")
        """
    )
    assert site.guards[-1].text == "not (body is not None and isinstance(pos, kinds))"


def test_resolved_class_through_imports() -> None:
    found = sites(
        """\
        import networkx as nx
        from .exception import NetworkXError
        from ..errors import Bad as Renamed

        def f():
            if a:
                raise nx.NetworkXError("one")
            if b:
                raise NetworkXError("two")
            raise Renamed("three")
        """,
        path="networkx/algorithms/dag.py",
    )
    assert [(s.error_class, s.qualified_class) for s in found] == [
        ("NetworkXError", "networkx.NetworkXError"),
        ("NetworkXError", "networkx.algorithms.exception.NetworkXError"),
        ("Bad", "networkx.errors.Bad"),
    ]


def test_keyerror_prints_its_argument_as_repr_and_multiple_args_as_tuple() -> None:
    assert messages(
        """\
        def f(k):
            if k:
                raise KeyError("missing")
            raise ValueError("bad", k)
        """
    ) == ["'missing'", "('bad', {k})"]


def test_qualname_of_nested_functions_and_methods() -> None:
    found = sites(
        """\
        class A:
            class B:
                def m(self):
                    def inner():
                        raise ValueError("x")
                    return inner
        """
    )
    assert found[0].qualname == "pkg.mod.A.B.m.<locals>.inner"


def test_newer_syntax_is_scanned_with_exact_lines() -> None:
    code = textwrap.dedent(
        """\
        type Pair[T] = tuple[T, T]

        class Box[T: (int, str)]:
            def get[K](self, key: K) -> T:
                raise KeyError(f"no {key["name"]} in {self!r}")

        def f[**P](x):
            raise ValueError(f"bad {x=} and {f"{x["a"]}"}")
        """
    )
    found = extract_python(code, "pkg/new.py")
    assert [(s.line, s.error_class, s.template.display) for s in found] == [
        (5, "KeyError", "'no {key[\"name\"]} in {self!r}'"),
        (8, "ValueError", 'bad {x=} and {f"{x["a"]}"}'),
    ]
    assert found[1].template.match("bad x=1 and 2") == {"x": "1", 'f"{x["a"]}"': "2"}


def test_syntax_errors_raise_for_the_caller_to_count() -> None:
    with pytest.raises(SyntaxError):
        extract_python('print "python 2"\n', "old.py")


@pytest.mark.parametrize(
    ("path", "module"),
    [
        ("networkx/classes/graph.py", "networkx.classes.graph"),
        ("src/pkg/__init__.py", "pkg"),
        ("Lib/json/decoder.py", "json.decoder"),
        ("setup.py", "setup"),
    ],
)
def test_module_names(path: str, module: str) -> None:
    assert module_name_for(path) == module


def test_several_arguments_print_as_a_tuple_unless_the_class_says_otherwise() -> None:
    assert messages(
        """\
        from .exception import NetworkXError

        class Plain(Exception):
            pass

        class Custom(Exception):
            def __str__(self):
                return "custom"

        def f(k, msg):
            msg = f"pairs k>kmax ({k}) "
            if k == 1:
                raise NetworkXError(msg, "Increase kmax")
            if k == 2:
                raise Plain("a", k)
            if k == 3:
                raise Custom("b", k)
            raise OSError(2, "No such file")
        """
    ) == [
        "('pairs k>kmax ({k}) ', 'Increase kmax')",
        "('a', {k})",
        "custom",  # str() of Custom is what its own __str__ returns
        "[Errno 2] No such file",
    ]


def test_extraction_leaves_no_reference_cycles() -> None:
    """Trees must be freed as soon as a file is done: the scan pauses the cyclic GC."""
    import gc

    code = textwrap.dedent(
        """\
        import warnings

        def f(x):
            msg = "bad"
            if x:
                raise ValueError(msg)
            warnings.warn("w")
        """
    )
    gc.collect()
    gc.disable()
    try:
        for _ in range(20):
            extract_python(code, "m.py")
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_closure_message_built_in_the_enclosing_function() -> None:
    site = one(
        """\
        def not_implemented_for(*graph_types):
            errmsg = f"not implemented for {' '.join(graph_types)} type"

            def _not_implemented_for(g):
                if g.is_directed():
                    raise NotImplementedError(errmsg)
                return g

            return _not_implemented_for
        """
    )
    assert site.template.display == "not implemented for {' '.join(graph_types)} type"
    assert site.template.match("not implemented for directed type") is not None


def test_keyerror_repr_quotes_follow_the_value() -> None:
    found = sites(
        """\
        def f(graph_types):
            if graph_types:
                raise KeyError(f"use one or more of graph.  You used {graph_types}")
            raise KeyError("it's missing")
        """
    )
    with_hole, literal = found
    assert with_hole.template.display == "'use one or more of graph.  You used {graph_types}'"
    assert with_hole.template.match("\"use one or more of graph.  You used ('foo',)\"") is not None
    assert with_hole.template.match("'use one or more of graph.  You used 3'") is not None
    assert literal.template.display == repr("it's missing") == '"it\'s missing"'
    assert literal.template.match(str(KeyError("it's missing"))) is not None


def test_try_except_reassignment_gives_both_messages() -> None:
    assert sorted(
        messages(
            """\
            def f(x):
                msg = "default"
                try:
                    int(x)
                except ValueError:
                    msg = f"not a number: {x}"
                raise ValueError(msg)
            """
        )
    ) == ["default", "not a number: {x}"]


def test_self_referential_reassignment_keeps_the_earlier_text() -> None:
    assert messages(
        """\
        def f(parts):
            text = "missing: "
            text = text + ", ".join(parts)
            raise ValueError(text)
        """
    ) == ['missing: {", ".join(parts)}']


def test_message_as_keyword_and_starred_arguments() -> None:
    assert messages(
        """\
        def f(parts, text):
            if parts:
                raise ValueError(*parts)
            raise ValueError(msg=f"bad {text}")
        """
    ) == ["{*parts}", "bad {text}"]


def test_a_class_that_builds_its_message_in_init() -> None:
    found = sites(
        """\
        class JSONDecodeError(ValueError):
            def __init__(self, msg, doc, pos):
                lineno = doc.count('\\\\n', 0, pos) + 1
                colno = pos - doc.rfind('\\\\n', 0, pos)
                errmsg = '%s: line %d column %d (char %d)' % (msg, lineno, colno, pos)
                ValueError.__init__(self, errmsg)
                self.msg = msg

        def scan(s, idx):
            raise JSONDecodeError("Expecting value", s, idx) from None
        """
    )
    site = found[0]
    assert site.style == "class_init"
    assert site.template.display == "Expecting value: line %d column %d (char %d)"
    assert site.template.match("Expecting value: line 1 column 1 (char 0)") is not None


def test_a_base_class_bound_by_another_name_is_followed_to_its_str() -> None:
    """``UnpackValueError = ValueError`` then ``class ExtraData(UnpackValueError)``: the
    alias is the builtin, so the class's own ``__str__`` is known to print the message."""
    source = (
        "UnpackValueError = ValueError\n\n\nclass ExtraData(UnpackValueError):\n"
        "    def __str__(self):\n        return 'received extra data.'\n\n\n"
        "def unpack(b):\n    raise ExtraData(b, b[1:])\n"
    )
    (site,) = extract_python(source, "pkg/m.py")
    assert site.template.display == "received extra data."
