"""gc_paused: the collector is off inside; with ``promote`` what it made is left in the
oldest generation, not handed to a young collection at the first allocation after."""

from __future__ import annotations

import gc

from errdex._gc import gc_paused


def _in_oldest(objects: list[list[int]]) -> bool:
    oldest = {id(o) for o in gc.get_objects(generation=2)}
    return all(id(o) in oldest for o in objects)


def test_promote_leaves_what_the_pause_made_in_the_oldest_generation() -> None:
    assert gc.isenabled()
    with gc_paused(promote=True):
        assert not gc.isenabled()
        made = [[i] for i in range(2000)]
    assert gc.isenabled()
    assert _in_oldest(made)


def test_without_promote_the_objects_stay_young() -> None:
    with gc_paused():
        made = [[i] for i in range(2000)]
    assert gc.isenabled()
    assert not _in_oldest(made)


def test_objects_someone_froze_stay_frozen() -> None:
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with gc_paused(promote=True):
            made = [[i] for i in range(100)]
        assert gc.get_freeze_count() >= frozen > 0
        assert not _in_oldest(made)
    finally:
        gc.unfreeze()
