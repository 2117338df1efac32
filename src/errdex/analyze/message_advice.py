"""The sentences of an error message that tell the caller what to do.

A message is quoted as a solution only when it carries advice; one that states what went
wrong ("Set of Tasks/Futures is empty", "write to closed file") restated as a solution
tells the reader nothing the message did not (blind review 2026-12-06: 38 of 145
misleading statements were solutions, most of them such restatements). Two forms count:

* an instruction: an imperative verb at the start of a clause ("Use X instead", "...;
  use bytes", "..., get the daemon attribute instead", "(try using ...)", "Please ..."),
  "you must/should/need to/have to ...", "did you mean ...", or a deprecation naming its
  replacement ("... is deprecated in 3.11 use X");
* a requirement: "must", "should", "expected X" ("expected str, got int", "a coroutine
  was expected"), "requires", "expects", "can only", "only ... permitted", "need(s) a"
  / "need(s) to be" ("field 2 out of range (need a 16-bit value)").

A verb that is a noun there is none: "Set of ...", "Use of X is deprecated", "Call to
...", "install-base ...". "expected X to have been awaited" states what a check found,
not what to pass.
"""

from __future__ import annotations

import re
from typing import Literal

from .quoting import quote

__all__ = [
    "FOLLOWED",
    "RESTATED",
    "Advice",
    "advice_solutions",
    "formatting_code",
    "message_advice",
    "mostly_holes",
]

#: How a solution quoting a requirement of the message begins: dropped where the
#: requirement is said whole in the caller's parameters (it adds nothing then).
RESTATED = "The message states the requirement:"
#: How a solution quoting an instruction of the message begins.
FOLLOWED = "Follow the message's own advice:"
#: ``("instruction" | "requirement", sentence)``.
Advice = tuple[Literal["instruction", "requirement"], str]

_VERBS = (
    "use|try|consider|install|set|get|pass|call|provide|specify|supply|give|close|open|"
    "run|add|remove|define|implement|ensure|avoid|choose|check|rename|replace|upgrade|"
    "update|register|import|wrap|convert|decode|encode|create|start|stop|join|await|"
    "change|switch|correct|reinstall|enable|disable|apply|override|make sure"
)
#: A word after the verb that makes the verb a noun or the clause a statement.
_NOT_AFTER = (
    r"of|is|are|was|were|has|have|had|must|may|might|can|cannot|can't|could|should|"
    r"would|will|failed|fails|not|to|for|on|in|at|by|with|from|and|or|returned"
)
_CLAUSE_START = r"(?:^|[.;:!?,]\s+|\(\s*|\s[-–—]\s*)"
_INSTRUCTION = re.compile(
    rf"{_CLAUSE_START}(?:please\s+)?(?:{_VERBS})\b(?![-_./(\[])(?!\s+(?:{_NOT_AFTER})\b)"
    r"|\bplease\b|\bdid you mean\b"
    r"|\byou (?:have to|must|need to|should|may want to)\b"
    r"|\bdeprecated\b[^;]{0,200}?\s(?:use|call)\s+(?!of\b)\S",
    re.IGNORECASE,
)
_REQUIREMENT = re.compile(
    r"\b(?:must|should|requires?|expects)\b(?![-_])"
    r"|\bexpected\b(?!\s+(?:not\s+)?to\b)(?!.{0,200}?\bto have been\b)"
    r"|\bcan only\b|\bonly\b[^.;,]*\b(?:permitted|allowed|supported|accepted)\b"
    r"|\bneeds? (?:to be|an?)\b",
    re.IGNORECASE,
)
#: "more expected", "a total of N expected bytes": a count, not what to pass.
_COUNTED = re.compile(r"(?:\bmore|\btotal of \S+)\s+expected\b", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`'\"(])")
#: A value filled in at run time as the source writes it: ``{name}``, ``{f(x)}``,
#: ``%s``, ``%(name)r``, ``%-8.3f``.
_HOLE = re.compile(r"\{[^{}]*\}|%(?:\([^)]*\))?[-#0 +]*(?:\d+|\*)?(?:\.\d+)?[sdrifxXoeEgGca]")
#: A word of the message's own (two letters or more), or a number ("0 or 1 expected").
_WORD = re.compile(r"[A-Za-z]{2,}|\d+")
#: Words a requirement is said with, which say nothing of what is required.
_FUNCTION_WORDS = frozenset(
    re.findall(
        r"\w+",
        "must should be is are was were expected expecting expects got get not "
        "the an of to only requires require need needs can cannot use try please "
        "instead and or but in on for with it this that",
    )
)
#: A call of a private name in a hole: formatting code (``_CallList(calls)``).
_PRIVATE_CALL = re.compile(r"(?:^|[^\w])_\w*\(")
#: A sentence shorter than this says nothing to follow.
_MIN_CHARS = 4
#: Nor is one longer than this advice to quote (and the patterns above would take time
#: in proportion to its length for each match they try: a huge literal is hostile input).
_MAX_CHARS = 1000


def mostly_holes(sentence: str) -> bool:
    """A sentence that is mostly values filled in at run time, as the source writes them:
    quoted, "{problem} Expected: {_CallList(calls)}{self._calls_repr(...)}" shows the
    reader the formatting code, not a requirement (blind review 2026-12-06, record 16).
    Mostly: no word of its own beside the words every requirement uses ("%s must be %s",
    "Expected %r"), or a hole that calls something private to format the value (what the
    reader sees there is not that code); a hole that only reads a value
    (``{self._address}``, ``{type(self._x)}``) reads as that value."""
    if not _HOLE.search(sentence):
        return False
    own = {w.lower() for w in _WORD.findall(_HOLE.sub(" ", sentence))} - _FUNCTION_WORDS
    return not own or formatting_code(sentence)


def formatting_code(sentence: str) -> bool:
    """A hole of the sentence calls something private to format its value."""
    return any(_PRIVATE_CALL.search(h) for h in _HOLE.findall(sentence))


def message_advice(display: str) -> list[Advice]:
    """The sentences of a message (its template as displayed) that carry advice, at most
    two, in order; each marked as an instruction or a requirement."""
    found: list[Advice] = []
    for sentence in _SENTENCE.split(display):
        text = sentence.strip()
        if not _MIN_CHARS <= len(text) <= _MAX_CHARS or formatting_code(text):
            continue
        if _INSTRUCTION.search(text):  # "use {new} instead": the message names it
            found.append(("instruction", text))
        elif _REQUIREMENT.search(_COUNTED.sub(" ", text)) and not mostly_holes(text):
            found.append(("requirement", text))
    return found[:2]


def advice_solutions(display: str) -> list[str]:
    """The message's advice as solutions: an instruction to follow, a requirement to meet."""
    return [
        f"{FOLLOWED} {quote(text)}." if kind == "instruction" else f"{RESTATED} {quote(text)}."
        for kind, text in message_advice(display)
    ]
