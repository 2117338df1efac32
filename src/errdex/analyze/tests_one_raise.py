"""Which of the sites a test's expectation picked are one raise, for linking tests.

A raise whose message has two forms is two records at one line: a test that picks it is
linked to both (:func:`one_raise`). Without a message, a record that another of them
writes out more generally is left out (:func:`general`): the test's call may give any
form of the general one.
"""

from __future__ import annotations

import re

from errdex.template import Hole, MessageTemplate

from .sites import SiteView

__all__ = ["general", "one_raise"]


def general(sites: list[SiteView], chosen: list[int]) -> list[int]:
    """Without a message, the records of one raise that no other of them writes out
    more generally: ``'%s.%s() not supported'`` beside its callers' forms
    (``'%s.detach() not supported'``, ``'%s.seek() not supported'``…), of which the
    test's call may give any."""
    templates = {i: sites[i].template for i in chosen}
    return [
        i
        for i in chosen
        if not any(j != i and _specialises(templates[i], templates[j]) for j in chosen)
    ]


def one_raise(sites: list[SiteView], chosen: list[int]) -> list[int]:
    """``chosen`` when its sites are one statement (a raise whose message has two
    forms is two records at one line), else none: the evidence is ambiguous."""
    return chosen if len({(sites[i].path, sites[i].line) for i in chosen}) == 1 else []


def _specialises(special: MessageTemplate, general: MessageTemplate) -> bool:
    """Whether ``special`` is ``general`` with some of its holes written out as text
    (each of ``general``'s holes either text without a hole or one hole of ``special``)."""
    if len(special.holes) >= len(general.holes):
        return False
    text = "".join("\x00" if isinstance(p, Hole) else p.text for p in special.parts)
    pattern = "".join(
        "(?:\x00|[^\x00]*)" if isinstance(p, Hole) else re.escape(p.text) for p in general.parts
    )
    return re.fullmatch(pattern, text, re.DOTALL) is not None
