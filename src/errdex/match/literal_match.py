"""Linear-time full matching of a template (literal runs and lazy holes) against a message.

A messagePattern made by :class:`~errdex.template.MessageTemplate` is literal runs
separated by ``([\\s\\S]*?)`` groups. For that class of regex, taking each literal
run at its leftmost occurrence after the previous one is exactly what the lazy
groups do, so ``str.startswith``/``find``/``endswith`` decide a full match and
recover the hole values in one left-to-right pass, with no regex compiled at all.
Tests check that it agrees with RE2 on every template.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["match_prefix", "match_runs"]


def match_runs(runs: Sequence[str], message: str) -> list[str] | None:
    """Hole values if ``message`` is literal ``runs[0]``, a hole, ``runs[1]``, … a hole, ``runs[-1]``.

    ``runs`` has one more element than there are holes; empty strings stand for a
    template that starts or ends with a hole, or for two adjacent holes.
    """
    first = runs[0]
    if not message.startswith(first):
        return None
    if len(runs) == 1:
        return [] if len(message) == len(first) else None
    last = runs[-1]
    end = len(message) - len(last)
    if end < len(first) or not message.endswith(last):
        return None
    pos = len(first)
    values: list[str] = []
    for run in runs[1:-1]:
        found = message.find(run, pos, end)
        if found < 0:
            return None
        values.append(message[pos:found])
        pos = found + len(run)
    values.append(message[pos:end])
    return values


def match_prefix(runs: Sequence[str], text: str) -> tuple[list[str], int] | None:
    """(hole values, literal characters matched) if ``text`` is the start of a message
    the ``runs`` render: what is left of a message a summary line cut short.

    The holes are lazy, as in :func:`match_runs`; the hole the text ends in takes the
    rest, and so does the run it ends in (its start is not checked).
    """
    first = runs[0]
    if len(text) <= len(first):
        return ([], len(text)) if first.startswith(text) else None
    if not text.startswith(first):
        return None
    pos, literal = len(first), len(first)
    values: list[str] = []
    for k, run in enumerate(runs[1:], 1):
        if not run:
            if k == len(runs) - 1:
                values.append(text[pos:])
                return values, literal
            values.append("")
            continue
        found = text.find(run, pos)
        if found < 0:
            values.append(text[pos:])
            return values, literal
        values.append(text[pos:found])
        pos = found + len(run)
        literal += len(run)
    return (values, literal) if pos == len(text) else None
