"""A suite helper's own expectation, named by the tests that run it.

``check_thread(self)`` in ``test_base_events`` holds ``with self.assertRaises(
RuntimeError, msg=...)`` over calls of its own; linked as written, the record names
``BaseEventLoopTests::check_thread``, which no runner collects (issue 10, item 2: a link
named after a helper that is not a test). The expectation runs where a test calls the
helper, so it is linked once per test whose call lands in the helper exactly, named by
that test and showing the helper (``via``); a helper no test calls directly gives none.
One whose class, calls or message come from its parameters (``match=errmsg``, shown as
the text checked) is the caller's to give: :mod:`.tests_calls` reads those calls. Nor is
one whose statement names a parameter at all, unless one test alone calls it:
``test_argparse``'s ``assertTypeError(self, *args, **kwargs)`` runs ``assertRaises(
TypeError, parser.add_argument, *args, **kwargs)``, and which raise each of its tests
reaches is in the arguments it passes.
"""

from __future__ import annotations

import re
from dataclasses import replace

from .callgraph import CallGraph
from .facts import Expect, within_module
from .repo import RepoIndex

__all__ = ["by_tests", "is_test_name"]

_WORD = re.compile(r"\w+")


def is_test_name(name: str) -> bool:
    """Whether a node id (``path::Class::test_x``) names a test a runner collects."""
    last = name.rpartition("::")[2]
    return last.startswith("test") or last == "runTest"


def by_tests(index: RepoIndex, graph: CallGraph, expect: Expect) -> list[tuple[Expect, str]]:
    """``expect``, written in a helper, as each test calling that helper exactly runs it,
    beside the helper's qualified name."""
    helper = index.function(expect.function or "")
    if helper is None:
        return []
    params = {p.lstrip("*") for p in helper.params} - {"self", "cls"}
    heads = {ref[0] for ref in (*expect.classes, *expect.calls) if ref}
    if heads & params or expect.match_source in params:
        return []  # over its parameters: the caller's arguments say (``through_helpers``)
    # ``add_argument, *args, **kwargs``: each test passes its own; one test alone is the
    # only run there is, as the helper's own link read it
    passed = bool(params & set(_WORD.findall(expect.snippet)))
    out: list[tuple[Expect, str]] = []
    for caller, precision in sorted(graph.callers.get(helper.qualname, {}).items()):
        test = index.function(caller)
        if precision != "exact" or test is None:
            continue
        name = "::".join([test.path, *within_module(test.qualname, test.module).split(".")])
        if "<locals>" in name or not is_test_name(name):
            continue
        out.append(
            (
                replace(expect, path=test.path, line=test.line, name=name),
                helper.qualname,
            )
        )
    return out if len(out) == 1 or not passed else []
