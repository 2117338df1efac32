"""What a dependent reads of a module read by name: the functions it looks up, the rest
of the module's statements, or the whole module (issue 13)."""

from __future__ import annotations

import ast

from errdex.extract.python import name_views
from errdex.extract.python.walk import ModuleExtractor

TEXT = '''\
"""Doc."""
import os


class Bad(ValueError):
    pass


def helper(x):
    return Bad(x)


def other(x):
    return x
'''


def _watched(text: str = TEXT) -> ModuleExtractor:
    reader = ModuleExtractor(text, "pkg/mod.py", "pkg.mod", {})
    tree = ast.parse(text)
    reader._index_module(tree)
    name_views.watch(reader, "pkg/mod.py", tree)
    return reader


def _views(read: str) -> list[str]:
    _rel, _, views = read.partition("\x00")
    return sorted(views.split("\x01"))


def test_a_lookup_is_read_by_name() -> None:
    reader = _watched()
    assert reader.functions.get("helper") is not None
    assert "missing" not in reader.functions
    assert reader.binding_lines.get("other") == [13]
    read = name_views.read_of(reader)
    assert read is not None
    assert _views(read) == ["b", "f:helper", "f:missing", "f:other"]


def test_iterating_the_functions_reads_the_module_whole() -> None:
    reader = _watched()
    assert sorted(reader.functions) == ["helper", "other"]
    assert name_views.read_of(reader) == "pkg/mod.py"


def test_reading_the_text_reads_the_module_whole() -> None:
    for read in (lambda r: r.source, lambda r: r.lines, lambda r: r.lines_with("os")):
        reader = _watched()
        read(reader)
        assert name_views.read_of(reader) == "pkg/mod.py"


def test_a_segment_of_a_node_is_no_whole_read() -> None:
    reader = _watched()
    node = reader.functions["helper"]
    assert reader.segment(node.body[0]) == "return Bad(x)"
    read = name_views.read_of(reader)
    assert read is not None and read != "pkg/mod.py"


def test_a_star_import_or_module_getattr_is_not_watched() -> None:
    for head in ("from os.path import *\n", "def __getattr__(name):\n    raise AttributeError\n"):
        assert name_views.read_of(_watched(head + TEXT)) is None


def test_views_of_an_appended_function_change_only_its_own() -> None:
    before = name_views.module_views("pkg/mod.py", TEXT)
    after = name_views.module_views("pkg/mod.py", TEXT + "\n\ndef new(x):\n    return x\n")
    assert {k: v for k, v in after.items() if k != "f:new"} == before
    assert "f:new" not in before


def test_views_of_a_rebinding_del_or_star_import_change_the_base() -> None:
    before = name_views.module_views("pkg/mod.py", TEXT)
    for tail in ("\nhelper = other\n", "\ndel helper\n", "\nfrom os import *\n"):
        after = name_views.module_views("pkg/mod.py", TEXT + tail)
        assert name_views.view_atom(after, "b") != name_views.view_atom(before, "b")
    inserted = TEXT.replace("import os\n", "import os\nimport sys\n")
    after = name_views.module_views("pkg/mod.py", inserted)  # every line below moves
    assert name_views.view_atom(after, "f:other") != name_views.view_atom(before, "f:other")


def test_a_form_feed_above_a_function_does_not_shift_its_view() -> None:
    # str.splitlines() also breaks at \x0c and \u2028, which the parser's line numbers do
    # not count: the view of helper() left out its last line, so editing that line left
    # the modules that import helper() stale after a re-scan (rr3, session 41).
    before = "def other():\n    pass\n\x0c\ndef helper():\n    return ValueError('bad')\n"
    after = before.replace("ValueError('bad')", "TypeError('other')")
    assert (
        name_views.module_views("a.py", before)["f:helper"]
        != name_views.module_views("a.py", after)["f:helper"]
    )
    in_string = "X = 'a\u2028b'\n\ndef helper():\n    return 1\n"
    edited = in_string.replace("return 1", "return 2")
    assert (
        name_views.module_views("a.py", in_string)["f:helper"]
        != (name_views.module_views("a.py", edited)["f:helper"])
    )


def test_lines_added_in_a_body_change_only_that_functions_view() -> None:
    """Lines below move, but a view holds no line numbers: the modules that looked up
    ``other`` or the base keep their items (issue 13, a body edit of jax's core.py)."""
    before = name_views.module_views("pkg/mod.py", TEXT)
    edited = TEXT.replace("    return Bad(x)\n", "    y = x\n    return Bad(y)\n")
    after = name_views.module_views("pkg/mod.py", edited)
    assert after["f:helper"] != before["f:helper"]
    assert {k: v for k, v in after.items() if k != "f:helper"} == {
        k: v for k, v in before.items() if k != "f:helper"
    }


def test_a_function_inserted_mid_file_changes_only_the_next_in_its_run() -> None:
    text = TEXT + "\n\nLIMIT = 3\n"  # a statement below the insert: its lines move
    before = name_views.module_views("pkg/mod.py", text)
    inserted = text.replace("def other(x):", "def new(y):\n    return y\n\n\ndef other(x):")
    after = name_views.module_views("pkg/mod.py", inserted)
    assert after["b"] == before["b"] and after["f:helper"] == before["f:helper"]
    assert after["f:other"] != before["f:other"]  # ``new`` now comes between


def test_the_order_of_functions_is_in_their_views() -> None:
    """``binding_lines`` answers are compared by order (a rebinding after a function):
    swapping two functions or moving one past a statement changes their views."""
    swapped = TEXT.replace("def helper(x):\n    return Bad(x)\n\n\n", "") + (
        "\n\ndef helper(x):\n    return Bad(x)\n"
    )
    before = name_views.module_views("pkg/mod.py", TEXT)
    after = name_views.module_views("pkg/mod.py", swapped)
    assert after["f:helper"] != before["f:helper"] and after["f:other"] != before["f:other"]
    moved = TEXT.replace("class Bad", "def other(x):\n    return x\n\n\nclass Bad", 1)
    moved = moved[: moved.rindex("\n\ndef other")] + "\n"
    assert name_views.module_views("pkg/mod.py", moved)["f:other"] != before["f:other"]
