"""The guard solver's rules for builtins on literals, lengths and isinstance on None."""

from __future__ import annotations

from errdex.verify._guard_solver import parse_guards, solve


def _solved(guard: str, param: str) -> list[object]:
    return [value for _, value in solve(parse_guards([guard]), {}, [param])]


def test_a_length_compared_with_a_constant_is_met_by_a_list_of_that_length() -> None:
    assert _solved("len(nodes) != 3", "nodes") == [[0, 1, 2, 3]]
    assert _solved("len(pair) == 2", "pair") == [[0, 1]]


def test_set_and_friends_apply_to_a_literal() -> None:
    # a duplicate makes the set shorter: the MISSING string repeats letters
    (value,) = _solved("len(order) != len(set(order))", "order")
    assert len(value) != len(set(value))  # type: ignore[arg-type]
    assert _solved("tuple(sorted(sizes)) == (0, 0)", "sizes") == [[0, 0]]


def test_isinstance_of_the_repositorys_class_is_false_on_none() -> None:
    assert _solved("not isinstance(G, nx.Graph)", "G") == [None]
    assert _solved("not isinstance(key, (Node, str))", "key") == [None]
    # None is Hashable: no rule says otherwise, so nothing is claimed
    assert _solved("not isinstance(key, Hashable)", "key") == []


def test_a_value_that_decides_every_guard_naming_it_comes_before_one_that_leaves_one_open() -> None:
    # 1 leaves ``n > G.size()`` unknown; 0 makes the second guard true whatever G is
    guards = parse_guards(["n is not None", "(n < 1) or (n > G.size())"])
    assert solve(guards, {}, ["n"]) == [("n", 0)]
