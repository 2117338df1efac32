"""Python code that runs only where its C twin fails to import (issue 10): a definition
in the ``except ImportError``, one bound to the public name only there (``scanstring =
c_scanstring or py_scanstring``), and a whole module imported only there (``_pydecimal``)."""

from __future__ import annotations

import ast
import sys
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from errdex.analyze import chain_funcs, shadows, twins
from errdex.analyze.shadows import Shadow
from errdex.analyze.twins import twin_facts
from errdex.scan import scan_checkout
from errdex.source import open_source

from .stdlib_items import ON_311, stdlib_items

Item = tuple[dict[str, Any], dict[str, Any]]

#: A C module of the interpreter, faked: ``present`` puts it in ``sys.modules`` and has
#: errdex take it for a compiled module of this interpreter; absent, it is neither.
FAKE = "_fakespeedups"


_CACHED = (shadows.interpreter_module, shadows.star_names, twins.provides)


def _clear() -> None:
    for cached in _CACHED:
        cached.cache_clear()


@pytest.fixture(params=[True, False], ids=["present", "absent"])
def present(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[bool]:
    _clear()
    if request.param:
        fake = types.ModuleType(FAKE)
        for name in ("parse", "setmode", "scale", "lookup", "Table", "Future"):
            setattr(fake, name, lambda *a: None)
        fake.__all__ = ["scale", "lookup", "Table"]  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, FAKE, fake)
        real = _CACHED[0]

        def interpreter_module(module: str) -> bool:
            return module == FAKE or real(module)

        for where in (shadows, twins, chain_funcs):
            monkeypatch.setattr(where, "interpreter_module", interpreter_module)
    yield request.param
    _clear()


REPO = {
    # a public name bound to the C function, or to the Python one where that fails
    "fast.py": (
        "try:\n    from _fakespeedups import parse as c_parse\n"
        "except ImportError:\n    c_parse = None\n\n"
        "def py_parse(text):\n    if not text:\n        raise ValueError('empty text')\n"
        "    return text\n\n"
        "parse = c_parse or py_parse\n"
    ),
    # defined only in the fallback
    "modes.py": (
        "try:\n    from _fakespeedups import setmode\nexcept ImportError:\n"
        "    def setmode(mode):\n        raise OSError('no mode ' + mode)\n"
    ),
    # a whole module imported only in the fallback, and a caller of the public name
    "num.py": (
        "try:\n    from _fakespeedups import *\nexcept ImportError:\n    from _pynum import *\n"
    ),
    "_pynum.py": (
        "__all__ = ['scale']\n\n"
        "def scale(x):\n    if x < 0:\n        raise ValueError('negative scale')\n    return x\n"
    ),
    "api.py": "from num import scale\n\ndef run(x):\n    return scale(x)\n",
    # replaced by a later import; its caller calls the C one when that imports
    "late.py": (
        "def lookup(key):\n    raise KeyError(key)\n\n"
        "class Table:\n    def get(self, key):\n        raise LookupError(key)\n\n"
        "try:\n    from _fakespeedups import lookup, Table\nexcept ImportError:\n    pass\n"
    ),
    "user.py": (
        "from late import lookup, Table\n\ndef find(key):\n    return lookup(key)\n\n"
        "def get(key):\n    table = Table()\n    return table.get(key)\n"
    ),
}


def _scan(root: Path) -> dict[str, Item]:
    for name, text in REPO.items():
        (root / name).write_text(text)
    items = scan_checkout(open_source(str(root), repo="o/twins"), repo="o/twins").items
    return {str(e["site"]["qualname"]): (r, e) for r, e in items}


def _entry_points(item: Item) -> list[str]:
    return [e["qualname"] for e in item[1].get("entryPoints", [])]


def test_each_shape_says_what_runs_instead(tmp_path: Path, present: bool) -> None:
    found = _scan(tmp_path)
    record, evidence = found["fast.py_parse"]
    assert evidence["shadowedBy"] == {
        "module": FAKE,
        "line": 2,
        "conditional": True,
        "kind": "rebound",
        "name": "parse",
    }
    assert record["documentation"].endswith(
        f"At run time `parse` is the one imported from `{FAKE}` at fast.py:2 when that "
        "import succeeds, and `py_parse` only where it fails, so a call through `parse` "
        "runs this line only there."
    )
    if present:
        assert record["triggerScenarios"].endswith(
            f"Through `parse` it runs only where `{FAKE}` cannot be imported (this "
            f"interpreter has `{FAKE}`); a call to `py_parse` by that name runs it anyway."
        )
    else:
        assert record["triggerScenarios"].endswith(
            f"It runs only where `{FAKE}` cannot be imported."
        )
    # called by its own name it runs, so that entry point stays
    assert _entry_points(found["fast.py_parse"]) == ["fast.py_parse"]

    record, evidence = found["modes.setmode"]
    assert evidence["shadowedBy"] == {"module": FAKE, "line": 2, "conditional": True}
    assert "so this line runs only where it fails." in record["documentation"]


def test_a_module_imported_only_in_the_fallback(tmp_path: Path, present: bool) -> None:
    found = _scan(tmp_path)
    record, evidence = found["_pynum.scale"]
    if not present:
        # the fallback is what ``num`` is here: its callers reach this line
        assert "shadowedBy" not in evidence
        assert "api.run" in _entry_points(found["_pynum.scale"])
        return
    assert evidence["shadowedBy"] == {
        "module": FAKE,
        "line": 2,
        "conditional": True,
        "kind": "module",
        "path": "num.py",
    }
    assert (
        f"`_pynum` is imported only by num.py, and only where its import of `{FAKE}` at "
        f"line 2 fails: where it succeeds, the names it imports are `{FAKE}`'s and this "
        "line runs only where `_pynum` is imported by name."
    ) in record["documentation"]
    # ``api.run`` calls ``num.scale``, which is the C one: it is no entry point here
    assert _entry_points(found["_pynum.scale"]) == ["_pynum.scale"]


def test_a_caller_of_a_replaced_definition_calls_the_c_one(tmp_path: Path, present: bool) -> None:
    found = _scan(tmp_path)
    record, evidence = found["late.lookup"]
    assert evidence["shadowedBy"]["module"] == FAKE
    if present:
        assert _entry_points(found["late.lookup"]) == []
        assert record["triggerScenarios"].endswith(
            f"It runs only where `{FAKE}` cannot be imported; this interpreter has "
            f"`{FAKE}`, so a call to `lookup` runs `{FAKE}`'s code and no entry point "
            "reaches this line here."
        )
    else:  # nothing says the import works here: the Python line may be what runs
        assert "user.find" in _entry_points(found["late.lookup"])
    # a method of a class the C one replaces whole
    record, evidence = found["late.Table.get"]
    assert evidence["shadowedBy"]["module"] == FAKE
    assert "At run time `Table` is the one imported from" in record["documentation"]
    assert ("user.get" in _entry_points(found["late.Table.get"])) is not present


def test_statement_facts(present: bool) -> None:
    text = (
        "class _Pickler:\n    pass\n\ndef _dump(): pass\n\n"
        "try:\n    from _fakespeedups import scale as Pickler, lookup as dump\n"
        "except ImportError:\n    Pickler, dump = _Pickler, _dump\n"
        "    from _pyfallback import *\n"
    )
    text += (
        "\nclass Future:\n    pass\n\n"
        "try:\n    import _fakespeedups\nexcept ImportError:\n    pass\n"
        "else:\n    Future = _CFuture = _fakespeedups.Future\n"
    )
    facts = twin_facts(ast.parse(text))
    assert facts.rebound == {"_Pickler": (FAKE, 7, "Pickler"), "_dump": (FAKE, 7, "dump")}
    # asyncio.futures: rebound to an attribute of the module the ``try`` imports
    assert facts.replaced == {"Future": Shadow(FAKE, 16, conditional=True)}
    # the fallback import binds nothing only where the try's import certainly works
    assert facts.fallbacks == ([("_pyfallback", FAKE, 7)] if present else [])


def test_a_name_the_interpreters_module_lacks_leaves_the_fallback_live() -> None:
    """``_ctypes`` has no ``_dyld_shared_cache_contains_path`` off macOS: the fallback
    definition is what runs, so it is not marked."""
    import _json

    assert not hasattr(_json, "no_such_function")
    text = (
        "try:\n    from _json import no_such_function\nexcept ImportError:\n"
        "    def no_such_function():\n        raise OSError('fallback')\n"
        "    from _pyjson import *\n"
    )
    facts = twin_facts(ast.parse(text))
    assert facts.replaced == {} and facts.fallbacks == []
    live = (
        "try:\n    from _json import scanstring\nexcept ImportError:\n    def scanstring(): pass\n"
    )
    assert twin_facts(ast.parse(live)).replaced == {
        "scanstring": Shadow("_json", 2, conditional=True)
    }
    # defined again after the fallback (locale.py's ``setlocale``): not said of either
    assert twin_facts(ast.parse(live + "def scanstring(): pass\n")).replaced == {}


@ON_311
def test_the_standard_librarys_twins() -> None:
    """``_pydecimal`` (``decimal`` imports it only where ``_decimal`` fails) and
    ``json.decoder.py_scanstring`` (``scanstring = c_scanstring or py_scanstring``):
    the records say what runs instead, and this interpreter agrees."""
    import _decimal
    import _json
    import decimal
    import json.decoder

    items = stdlib_items(
        "_pydecimal.py", "decimal.py", "json/decoder.py", "fractions.py", "asyncio/futures.py"
    )
    by_path: dict[str, list[Item]] = {}
    for record, evidence in items:
        by_path.setdefault(str(record["filePath"]), []).append((record, evidence))
    pydecimal = by_path["Lib/_pydecimal.py"]
    assert len(pydecimal) > 40
    assert all(
        e.get("shadowedBy")
        == {
            "module": "_decimal",
            "line": 3,
            "conditional": True,
            "kind": "module",
            "path": "Lib/decimal.py",
        }
        for _, e in pydecimal
    )
    assert decimal.Decimal is _decimal.Decimal  # what the records say, checked
    # ``Fraction.from_decimal`` calls ``decimal.Decimal``'s method, the C one
    assert not any(
        ep["qualname"].startswith("fractions.")
        for _, e in pydecimal
        for ep in e.get("entryPoints", [])
    )

    scan = [
        (r, e)
        for r, e in by_path["Lib/json/decoder.py"]
        if e["site"].get("qualname") == "json.decoder.py_scanstring"
    ]
    assert len(scan) >= 4
    for record, evidence in scan:
        assert evidence["shadowedBy"] == {
            "module": "_json",
            "line": 7,
            "conditional": True,
            "kind": "rebound",
            "name": "scanstring",
        }
        assert "a call through `scanstring` runs this line only there" in record["documentation"]
    assert json.decoder.scanstring is _json.scanstring

    # ``else: Future = _CFuture = _asyncio.Future``: the Python class's methods
    future = [
        (r, e)
        for r, e in by_path["Lib/asyncio/futures.py"]
        if str(e["site"].get("qualname")).startswith("asyncio.futures.Future.")
    ]
    assert len(future) >= 5
    assert all(e["shadowedBy"]["module"] == "_asyncio" and not e["entryPoints"] for _, e in future)
    import _asyncio
    import asyncio.futures

    assert asyncio.futures.Future is _asyncio.Future
