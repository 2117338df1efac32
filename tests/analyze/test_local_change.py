"""Which functions and classes of a changed file changed, from its facts and call-graph
edges before and after the edit; None where the change is not local to them."""

from __future__ import annotations

from errdex.analyze.callgraph import build_callgraph
from errdex.analyze.local_change import LocalChange, local_changes, names_any
from errdex.analyze.repo import Carried, index_of
from errdex.analyze.walk import module_facts

REL = "pkg/api.py"

API = '''\
from pkg.core import check


def public(x):
    """Check x for the public."""
    return check(x)


class Box:
    """Holds a value."""

    def get(self):
        return check(self.value)
'''

CORE = """\
def check(x):
    if x < 0:
        raise ValueError("negative")
    return x
"""


def _scan(api: str) -> tuple[dict, dict]:
    """(modules, edge tables) of a two-module repository with ``api`` as pkg/api.py."""
    files = []
    for rel, module, text in ((REL, "pkg.api", api), ("pkg/core.py", "pkg.core", CORE)):
        facts = module_facts(text, rel, rel, module, is_test=False)
        assert facts is not None
        files.append((rel, facts))
    index = index_of(files)
    index.carried = Carried()
    build_callgraph(index)
    assert index.carried.edges is not None
    return index.modules, index.carried.edges


def _change(before: str, after: str) -> LocalChange | None:
    old_modules, old_edges = _scan(before)
    modules, edges = _scan(after)
    return local_changes(modules, {REL: old_modules["pkg.api"]}, old_edges, edges).get(REL)


def test_an_appended_function_is_the_only_unit_changed() -> None:
    change = _change(API, API + "\n\ndef _helper(n):\n    return n + 1\n")
    assert change == LocalChange(
        frozenset({"pkg.api._helper"}), frozenset(), frozenset({"_helper"})
    )


def test_a_new_method_named_as_a_function_that_stayed_is_not_local() -> None:
    """``Box.public`` would be an implementation of a ``public`` method by its name."""
    assert _change(API, API + "\n    def public(self):\n        return 1\n") is None


def test_a_name_is_found_as_a_whole_word_only() -> None:
    assert names_any({"_helper"}, "x = _helper(1)")
    assert not names_any({"_helper"}, "x = _helper2(1) + my_helper")
    assert not names_any(set(), "anything")


def test_a_body_edit_and_a_class_docstring_name_their_units() -> None:
    after = API.replace("for the public", "for everyone").replace("Holds a", "Keeps a")
    assert _change(API, after) == LocalChange(
        frozenset({"pkg.api.public"}), frozenset({"pkg.api.Box"})
    )


def test_a_function_whose_lines_moved_changed() -> None:
    change = _change(API, API.replace("class Box:", "LIMIT = 3\n\n\nclass Box:"))
    assert change is not None
    assert change.functions == {"pkg.api.Box.get"} and change.classes == {"pkg.api.Box"}


def test_a_new_edge_from_an_unchanged_function_is_not_taken_for_local() -> None:
    """A new top-level ``check`` that ``public`` now calls instead of the import."""
    assert _change(API, API + "\n\ndef check(x):\n    return x\n") is None


def test_changes_beyond_functions_and_classes_are_not_local() -> None:
    assert _change(API, "import os\n" + API) is None  # an import
    assert _change(API, API.replace("return check(x)", "return x")) is None  # an edge gone
    gone = API[: API.index("class Box")]
    assert _change(API, gone) is None  # a class gone
    rebased = API.replace("class Box:", "class Box(dict):")
    assert _change(API, rebased) is None  # other bases


def test_a_function_gone_that_called_nothing_here_is_a_local_change() -> None:
    """An appended raise replaced by another (the incremental bench's rounds): the gone
    function and its name are part of the change, nothing else is."""
    before = API + '\n\ndef _edit_1(x):\n    raise ValueError(f"edit 1: {x}")\n'
    after = API + '\n\ndef _edit_2(x):\n    raise ValueError(f"edit 2: {x}")\n'
    assert _change(before, after) == LocalChange(
        frozenset({"pkg.api._edit_1", "pkg.api._edit_2"}),
        frozenset(),
        frozenset({"_edit_1", "_edit_2"}),
    )


def test_a_function_gone_that_a_function_here_names_or_that_called_is_not_local() -> None:
    helper = "\n\ndef _helper(f):\n    return f\n"
    user = "\n\n@_helper\ndef user(n):\n    return n\n"
    assert _change(API + user + helper, API + user) is None  # named by one that stayed
    calling = "\n\ndef _calls(x):\n    return check(x)\n"
    assert _change(API + calling, API) is None  # its edge to check is gone
