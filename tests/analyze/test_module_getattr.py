"""A module's own ``__getattr__`` (run on CPython 3.11: ``io.nosuch`` raises "module
'io' has no attribute 'nosuch'", ``io.OpenWrapper`` warns and returns ``open``): the
raise means the name read is none of the module's, where errdex said "found no fix"."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import one_file_items

SOURCE = """
def __getattr__(name):
    if name == "OldName":
        return 1
    if name in ("Lazy", "Later"):
        return 2
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class C:
    def __getattr__(self, name):
        raise AttributeError(name)
"""


def test_a_name_the_module_lacks(tmp_path: Path) -> None:
    found = {r["lineNumber"]: r["solutions"] for r, _ in one_file_items(tmp_path, "m.py", SOURCE)}
    assert found[7][0] == (
        "Read only a name `m` has: Python runs `m.__getattr__` for a name the module does "
        "not define (`m.x`, `from m import x`), and it supplies only `OldName`, `Lazy` "
        "and `Later` and raises `AttributeError` for any other; check the name's spelling "
        "against `dir(m)`, and that this version of the module has it."
    )
    assert not found[12][0].startswith("Read only a name")  # a class's, not the module's
