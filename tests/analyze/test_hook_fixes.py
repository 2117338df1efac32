"""An abstract method with a private name: the fix is a class that defines it, not
"implement `_make_x`" (a hook no caller calls), where errdex said "found no fix"."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.quoting import NO_FIX

from .stdlib_items import one_file_items

SOURCE = """
class BaseLoop:
    def _make_transport(self):
        raise NotImplementedError

    def _write(self):
        raise NotImplementedError

    def connect(self):
        return self._make_transport()


class SelectorLoop(BaseLoop):
    def _make_transport(self):
        return 1


class _Private(BaseLoop):
    def _write(self):
        return 2
"""


def test_a_private_hook_names_the_classes_that_define_it(tmp_path: Path) -> None:
    found = {r["lineNumber"]: r["solutions"] for r, _ in one_file_items(tmp_path, "m.py", SOURCE)}
    (text,) = found[4]
    assert text == (
        "`BaseLoop` leaves `_make_transport` to its subclasses: its own raises "
        "`NotImplementedError` with no condition, on an object of `BaseLoop` itself or of a "
        "subclass that does not define `_make_transport`. Use a class that defines it (the "
        "repository's own include `m.SelectorLoop`) or a subclass of one."
    )
    assert found[7] == [NO_FIX]  # only a private class defines it: none to name
