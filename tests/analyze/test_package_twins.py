"""A package's pure-Python module imported only in place of its compiled one (issue 9):
the ``__init__`` picks the compiled module by a switch or a ``try``, and the Python
module's records say the compiled one runs instead."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path
from typing import Any

import pytest

from errdex.analyze.package_twins import Alternative, alternatives, typing_only
from errdex.scan import scan_checkout
from errdex.source import open_source

Item = tuple[dict[str, Any], dict[str, Any]]

PY_IMPL = textwrap.dedent(
    """\
    class Table:
        def get(self, key):
            if not isinstance(key, str):
                raise TypeError("table keys must be str")
            return key


    def version(table):
        if not isinstance(table, Table):
            raise TypeError("version of a table only")
        return 1
    """
)
#: multidict's shape: a flag chooses, and ``TYPE_CHECKING`` reads the Python one
SWITCH = textwrap.dedent(
    """\
    from typing import TYPE_CHECKING

    from ._compat import USE_EXTENSIONS

    if TYPE_CHECKING or not USE_EXTENSIONS:
        from ._table_py import Table, version
    else:
        from ._table import Table, version
    """
)
#: msgpack's shape: an environment switch, then a ``try`` with the Python module as fallback
TRY_UNDER_SWITCH = textwrap.dedent(
    """\
    import os

    if os.environ.get("PKG_PUREPYTHON"):
        from ._table_py import Table, version
    else:
        try:
            from ._table import Table, version
        except ImportError:
            from ._table_py import Table, version
    """
)
COMPAT = "import os\n\nUSE_EXTENSIONS = not os.environ.get('PKG_NO_EXTENSIONS')\n"
ABC = (
    "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    from ._table_py import Table\n"
    "else:\n    Table = object\n"
)
C_SOURCE = (
    "static PyObject *table_get(PyObject *self, PyObject *key) {\n"
    "    if (!PyUnicode_Check(key)) {\n"
    '        PyErr_SetString(PyExc_TypeError, "table keys must be str");\n'
    "        return NULL;\n    }\n    return key;\n}\n"
)


def _scan(root: Path, files: dict[str, str]) -> dict[str, Item]:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    items = scan_checkout(open_source(str(root), repo="o/pkg"), repo="o/pkg").items
    return {f"{r['filePath']}:{r['lineNumber']}": (r, e) for r, e in items}


def _package(init: str) -> dict[str, str]:
    return {
        "pkg/__init__.py": init,
        "pkg/_compat.py": COMPAT,
        "pkg/_abc.py": ABC,
        "pkg/_table_py.py": PY_IMPL,
        "pkg/_table.c": C_SOURCE,
    }


def test_a_switch_taking_the_compiled_module_where_it_holds(tmp_path: Path) -> None:
    found = _scan(tmp_path, _package(SWITCH))
    record, evidence = found["pkg/_table_py.py:4"]
    # ``TYPE_CHECKING`` is false at run time: the compiled branch runs where the flag holds
    assert evidence["shadowedBy"] == {
        "module": "pkg._table",
        "line": 8,
        "conditional": True,
        "guard": "USE_EXTENSIONS",
        "kind": "module",
        "path": "pkg/__init__.py",
    }
    assert (
        "`pkg._table_py` is imported only by pkg/__init__.py, and only where `USE_EXTENSIONS` "
        "does not hold: elsewhere the names it imports are `pkg._table`'s (compiled)"
    ) in record["documentation"]
    assert record["triggerScenarios"].endswith("It runs only where `USE_EXTENSIONS` does not hold.")
    # a function of the module, not only the class, is the compiled module's there
    assert found["pkg/_table_py.py:10"][1]["shadowedBy"]["module"] == "pkg._table"


@pytest.mark.parametrize("change", ["none", "imported elsewhere", "python rival"])
def test_only_a_compiled_rival_imported_nowhere_else_makes_a_twin(
    tmp_path: Path, change: str
) -> None:
    files = _package(SWITCH)
    if change == "imported elsewhere":  # a module of the library runs it anyway
        files["pkg/helpers.py"] = (
            "from ._table_py import version\n\ndef v(t):\n    return version(t)\n"
        )
    elif change == "python rival":  # both are Python: which one runs is the flag's
        del files["pkg/_table.c"]
        files["pkg/_table.py"] = PY_IMPL
    evidence = _scan(tmp_path, files)["pkg/_table_py.py:4"][1]
    assert ("shadowedBy" in evidence) is (change == "none")


def test_a_try_under_a_switch_names_both_conditions(tmp_path: Path) -> None:
    found = _scan(tmp_path, _package(TRY_UNDER_SWITCH))
    record, evidence = found["pkg/_table_py.py:4"]
    assert evidence["shadowedBy"] == {
        "module": "pkg._table",
        "line": 7,
        "conditional": True,
        "guard": "not os.environ.get('PKG_PUREPYTHON')",
        "kind": "module",
        "path": "pkg/__init__.py",
    }
    assert (
        "only where `os.environ.get('PKG_PUREPYTHON')` holds or its import of "
        "`pkg._table` at line 7 fails"
    ) in record["documentation"]
    assert record["triggerScenarios"].endswith(
        "It runs only where `os.environ.get('PKG_PUREPYTHON')` holds or `pkg._table` "
        "cannot be imported."
    )


def test_the_statements_read() -> None:
    tree = ast.parse(SWITCH)
    # both branches read alike: which module is compiled is decided over the repository
    assert alternatives(tree, "pkg") == [
        Alternative("pkg._table_py", "pkg._table", 8, "USE_EXTENSIONS"),
        Alternative("pkg._table", "pkg._table_py", 6, "not USE_EXTENSIONS"),
    ]
    later = "from ._py import f\ntry:\n    from ._c import f\nexcept ImportError:\n    pass\n"
    assert alternatives(ast.parse(later), "pkg") == [
        Alternative("pkg._py", "pkg._c", 3, "", caught=True)
    ]
    # imported after the compiled one, unconditionally: the Python one is what runs
    first = "from ._c import f\nfrom ._py import f\n"
    assert [a.python for a in alternatives(ast.parse(first), "pkg")] == ["pkg._c"]
    # star imports: the compiled module's names are not known, the Python one's are its all
    star = "try:\n    from ._c import *\nexcept ImportError:\n    from ._py import *\n"
    assert alternatives(ast.parse(star), "pkg") == [
        Alternative("pkg._py", "pkg._c", 2, "", caught=True)
    ]
    # the Python one in the ``try`` body is what runs where it imports
    primary = "try:\n    from ._py import f\nexcept ImportError:\n    from ._c import f\n"
    assert [a.python for a in alternatives(ast.parse(primary), "pkg")] == ["pkg._c"]
    assert typing_only(ast.parse(ABC), "pkg") == ("pkg._table_py",)


def test_a_module_imported_at_run_time_too_is_not_typing_only() -> None:
    """A plain ``import`` (or one in a function) of the module the ``TYPE_CHECKING``
    block names runs: the module is no twin for that."""
    typed = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg._py\n"
    assert typing_only(ast.parse(typed), "pkg") == ("pkg._py",)
    assert typing_only(ast.parse(typed + "import pkg._py\n"), "pkg") == ()
    inner = typed + "def f():\n    from . import _py\n    from ._py import g\n"
    assert typing_only(ast.parse(inner), "pkg") == ()
