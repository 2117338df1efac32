"""What a test link's choice reads that its memo key (:mod:`.tests_memo`) does not name,
answered again on every scan and put into the key.

The key names the functions the test's calls reach and their ranks, not the functions
in between. Without a message, a site more than a call below is linked only where the
path to it is clear (:func:`~errdex.analyze.deep_links.deep_link`), and that reads the
bodies of every function on the way and their classes' special methods: an edit to the
middle of the path (a call on an unknown object added, a ``__getitem__`` defined) kept a
stale link, or missed a new one. And a site whose module runs only where its C twin is
blocked is chosen by the modules the test's runs block
(:meth:`~errdex.analyze.twin_tests.TwinRuns.blocked`), which an ``import_fresh_module``
in another file decides. Both answers are cheap beside the choice they guard: the deep
rule once per reached site function of a message-less expectation, the blocked modules
once per expectation.
"""

from __future__ import annotations

from typing import Any

from .deep_links import NO_MESSAGE_DEPTH, deep_link
from .facts import Expect

__all__ = ["reads_key"]


def reads_key(
    linker: Any, expect: Expect, candidates: dict[int, str], ranks: list[tuple[str, Any]]
) -> tuple[object, ...]:
    """The deep rule's verdict for each site function the choice may ask it of (exactly
    reached, deeper than a call, holding a candidate), and the modules blocked for the
    test's runs."""
    deep: list[tuple[str, bool]] = []
    if expect.match is None:  # a message is fitted: the deep rule is not asked
        callees = linker.callees(expect)
        for function, (loose, depth) in ranks:
            if loose or depth <= NO_MESSAGE_DEPTH:
                continue
            held = [i for i in linker.by_function.get(function, ()) if i in candidates]
            if held:  # the rule reads the site's function alone
                deep.append((function, deep_link(linker, expect, callees, held[0])))
    return (tuple(deep), tuple(sorted(linker.twins.blocked(expect))))
