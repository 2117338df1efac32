"""What a package's text shows about attributes: the names stored, read from assignment
targets (a ``.name`` read, compared or passed is no store)."""

from __future__ import annotations

from errdex.extract.python.text_facts import count_stores


def test_stores_are_counted_from_assignment_targets_only() -> None:
    text = (
        "a.x = 1\n"
        "b.y += 2\n"
        "self.p, self.q = 1, 2\n"
        "z = obj.r\n"
        "if obj.s == 1 and obj.t <= 2: pass\n"
        "f(obj.u, k=1)\n"
        "setattr(obj, 'v', 3)\n"
        "d['k=1'] = self.w\n"
    )
    counts = count_stores(text)
    assert set(counts) == {"x", "y", "p", "q", "v"}


def test_a_chained_or_augmented_store_counts_each_target() -> None:
    counts = count_stores("a = b.c = d\nx.y = z.w = 2\nself.n <<= 1\nobj(k=1).attr = 2\n")
    assert counts == {"c": 1, "y": 1, "w": 1, "n": 1, "attr": 1}
