"""The index answers what a plain scan over every template answers; how it picks anchors
and reads templates agrees with the slower forms it replaced; a template that is all holes
and bare raises repeated at many sites are still found."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errdex.match import index as index_module
from errdex.match.index import MatchIndex, template_runs
from errdex.match.index_build import _bounded_words, _Builder
from errdex.match.literal_match import match_runs
from errdex.match.rank import MAX_BARE, Clue, rank
from errdex.template import MessageTemplate, fold_optional

from .conftest import build_package, envelopes

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")


def _bounded_words_by_loop(runs: Sequence[str]) -> Iterator[str]:
    """The former form of :func:`_bounded_words`: one match at a time."""
    last = len(runs) - 1
    for i, run in enumerate(runs):
        for m in _WORD.finditer(run):
            start, end = m.span()
            if start == 0 and i != 0:
                continue
            if end == len(run) and i != last:
                continue
            if start > 0 and (run[start - 1].isalnum() or run[start - 1] == "_"):
                continue
            yield m.group(0)


_run = st.text(alphabet=st.sampled_from("abZ_09 .é(ß)-"), max_size=14)


@settings(max_examples=800, deadline=None)
@given(st.lists(_run, min_size=1, max_size=5))
def test_bounded_words_agree_with_the_loop(runs: list[str]) -> None:
    assert _bounded_words(runs) == list(_bounded_words_by_loop(runs))


_part = st.one_of(
    st.builds(lambda t: {"literal": t}, _run),
    st.builds(
        lambda n, p, k: {"hole": "{" + n + "}", "name": n, "prefix": p, "kind": k},
        st.sampled_from(["a", "b", "x"]),
        st.sampled_from(["", "x="]),
        st.sampled_from(["", "int", "char", "other"]),
    ),
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_part, max_size=6))
def test_template_runs_agree_with_message_template(parts: list[dict[str, str]]) -> None:
    template = MessageTemplate.from_json(parts)
    assert template_runs(parts) == (template.runs(), template.has_kinds)


_maybe_optional = _part.flatmap(lambda d: st.sampled_from([d, {**d, "optional": True}]))


@settings(max_examples=400, deadline=None)
@given(st.lists(_maybe_optional, max_size=6))
def test_template_runs_leave_out_optional_parts(parts: list[dict[str, Any]]) -> None:
    template = MessageTemplate.from_json(parts)
    assert template_runs(parts) == (template.runs(), template.has_kinds)
    if template.has_optional:
        assert template_runs(parts)[1]  # verified by its pattern, not its runs


def test_a_template_with_an_optional_part_is_found_with_and_without_it() -> None:
    (position,) = fold_optional(
        [
            MessageTemplate.from_percent("missing : at position %d"),
            MessageTemplate.from_percent("missing : at position %d (line %d, column %d)"),
        ]
    )
    rival = MessageTemplate.from_percent("missing ), unterminated subpattern at position %d")
    index = MatchIndex.build([_envelope(0, rival, "error"), _envelope(1, position, "error")])
    for message in ("missing : at position 4", "missing : at position 6 (line 2, column 5)"):
        (best, *_) = rank([Clue("error", message, ())], index)
        assert best.index == 1 and best.message > 0, message


def _envelope(number: int, template: MessageTemplate, error_class: str = "ValueError") -> Any:
    return {
        "record": {
            "id": f"{number:016x}",
            "repo": "example/synthetic",
            "filePath": f"pkg/m{number % 7}.py",
            "lineNumber": number + 1,
            "errorClass": error_class,
            "messagePattern": template.pattern,
        },
        "evidence": {"site": {"template": template.to_json(), "function": f"f{number}"}},
    }


_words = st.sampled_from(["Node", "graph", "is not in", "(at", "value", "é", "x", ": "])
_hole = st.just(None)
_templates = st.lists(st.one_of(_words, _hole), max_size=5).map(
    lambda parts: MessageTemplate.join(
        [
            MessageTemplate.literal(p) if p is not None else MessageTemplate.hole(f"{{h{i}}}")
            for i, p in enumerate(parts)
        ],
        " ",
    )
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(_templates, min_size=1, max_size=25),
    st.lists(st.tuples(st.integers(0, 24), st.lists(st.sampled_from(["7", "G", ""]))), max_size=6),
    st.lists(st.sampled_from(["Node", "7", "graph", "(at", " ", "é", "is not in", "zzz"])),
)
def test_index_finds_what_a_plain_scan_finds(
    templates: list[MessageTemplate],
    rendered: list[tuple[int, list[str]]],
    noise: list[str],
) -> None:
    # a library's own class: rank weighs every fitting template of it, however thin its
    # literal text (a builtin class fitted only by holes is no answer: test_rank_thin.py)
    index = MatchIndex.build(_envelope(n, t, "GraphError") for n, t in enumerate(templates))
    messages = [" ".join(noise)]
    for k, values in rendered:
        template = templates[k % len(templates)]
        holes = len(template.holes)
        messages.append(template.render((values + ["v"] * holes)[:holes]))
    _postings, unanchored = _anchors(templates)
    for message in messages:
        scan = {n for n, t in enumerate(templates) if match_runs(t.runs(), message) is not None}
        found = {
            i
            for i in index.may_match(index.by_message(message), message)
            if match_runs(index.runs(i) or ("\x00",), message) is not None
        }
        # everything a scan finds, but for templates with no literal text to anchor them
        assert found <= scan and scan - found <= set(unanchored), (message, scan, found)
        best = {s.index for s in rank([Clue("GraphError", message, ())], index, top=50)}
        assert (scan - set(unanchored)) <= best


def _anchors(templates: list[MessageTemplate]) -> tuple[dict[str, list[int]], list[int]]:
    builder = _Builder()
    for n, template in enumerate(templates):
        builder.add(_envelope(n, template))
    return builder.anchors()


def test_may_match_keeps_order_and_regex_entries() -> None:
    templates = [
        MessageTemplate.from_format("Node {} is not in the graph."),
        MessageTemplate.from_format("Edge {} is not in the graph."),
        MessageTemplate.from_format("{} is not in the graph."),
    ]
    envs = [_envelope(n, t) for n, t in enumerate(templates)]
    envs.append(_envelope(3, templates[0]))
    envs[3]["evidence"]["site"]["template"] = None
    envs[3]["record"]["messagePattern"] = r"Node (\d+) is not in the graph\."  # RE2's
    index = MatchIndex.build(envs)
    message = "Node 7 is not in the graph."
    assert index.may_match([3, 2, 1, 0], message) == [3, 2, 0]
    assert index.may_start([3, 2, 1, 0], "Node 7 is") == [3, 2, 0]


def test_entries_are_the_same_from_the_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(index_module, "ENTRY_CACHE", 3)
    index = MatchIndex.build(
        _envelope(n, MessageTemplate.from_format(f"error {n}: {{}}")) for n in range(10)
    )
    first = [index.entry(i) for i in range(10)]
    again = [index.entry(i) for i in reversed(range(10))][::-1]
    assert first == again == [index._make_entry(i) for i in range(10)]
    assert [e.runs for e in first] == [index.runs(i) for i in range(10)]
    assert len(index._entries) <= 3


# the library's own class: a builtin one fitted only by holes is no answer (test_rank_thin.py)
ALL_HOLES = "class CheckError(Exception):\n    pass\n\n\n" + "\n".join(
    f"def check_{k}(msg, loc):\n    raise CheckError(f'{{msg}} (at {{loc}})')\n" for k in range(40)
)
BARE = "\n".join(f"def bare_{k}():\n    raise KeyError\n" for k in range(3 * MAX_BARE))


def test_templates_all_holes_and_bare_raises_are_found(tmp_path: Path) -> None:
    db = build_package(tmp_path, "holes", {"checks.py": ALL_HOLES, "bare.py": BARE})
    index = MatchIndex.build(envelopes(db))
    ranked = rank([Clue("CheckError", "55 (at 'validator')", ())], index, top=5)
    assert ranked and all(s.full_match for s in ranked)
    assert {index.entry(s.index).file_path for s in ranked} == {"src/holes/checks.py"}
    assert ranked[0].group_size == 40  # every site of the template is a rival
    assert ranked[0].holes == {"0": "55", "1": "'validator'"}

    bare = index.by_empty_message("KeyError")
    assert len(bare) == 3 * MAX_BARE
    ranked = rank([Clue("KeyError", "", ())], index, top=5)
    assert len(ranked) == MAX_BARE  # one group: a bounded sample of the sites
    assert all(s.full_match for s in ranked)
    assert any(f"one of {3 * MAX_BARE} sites" in r for r in ranked[0].reasons)
