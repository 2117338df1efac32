"""A module's own ``__getattr__`` is described as Python runs it: only for a name the
module does not define (``urllib.parse.quote`` never reaches urllib.parse's, run on 3.11),
not as a call of ``__getattr__()`` or as any name but the supplied ones (stop 39's blind
review, three statements misleading)."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import one_file_items
from .test_module_getattr import SOURCE


def test_the_three_fields_say_only_names_the_module_lacks(tmp_path: Path) -> None:
    found = {r["lineNumber"]: r for r, _ in one_file_items(tmp_path, "m.py", SOURCE)}
    record = found[7]
    assert record["documentation"] == (
        "`m.__getattr__` is the module's own `__getattr__`: Python runs it only when code "
        "reads a name `m` does not define (`m.x` or `from m import x`). It supplies "
        "`OldName`, `Lazy` and `Later` and raises `AttributeError` at m.py:7 for any other "
        "name."
    )
    assert record["triggerScenarios"] == (
        "Triggered when code reads a name `m` does not define, other than `OldName`, `Lazy` "
        "and `Later`."
    )
    assert record["commonSituations"].startswith("It comes from reading a name `m` does not")
    # a class's __getattr__ runs for any attribute the instance lacks: not this wording
    assert "does not define" not in found[12]["documentation"]


def test_the_module_really_runs_it_only_for_missing_names(tmp_path: Path) -> None:
    """What the sentences claim, run: a defined name never reaches the function."""
    path = tmp_path / "mga.py"
    path.write_text(SOURCE + "\nDEFINED = 3\n")
    import importlib.util

    spec = importlib.util.spec_from_file_location("mga", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.DEFINED == 3 and module.OldName == 1
    try:
        module.nosuch  # noqa: B018
    except AttributeError as err:
        assert str(err) == "module 'mga' has no attribute 'nosuch'"
    else:
        raise AssertionError("nosuch did not raise")
