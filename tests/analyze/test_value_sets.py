"""A caller's local known to hold one of a few constants (blind review stop 32, record
13: ``tarfile.main``'s ``tar_mode``), and conditions judged on each of them."""

from __future__ import annotations

import ast
from pathlib import Path

from errdex.analyze.guard_eval import ModuleRef, OneOf
from errdex.analyze.value_sets import contradicted, each_choice, local_sets

from .fixture_chains import chains_of


def _sets(source: str) -> dict[str, tuple[object, ...]]:
    func = ast.parse(source).body[0]
    assert isinstance(func, ast.FunctionDef)
    return local_sets(func, tuple(a.arg for a in func.args.args))


_MAIN = (
    "def main(name):\n"
    "    ext = name[-3:]\n"
    "    compressions = {'.gz': 'gz', '.tgz': 'gz', '.xz': 'xz'}\n"
    "    tar_mode = 'w:' + compressions[ext] if ext in compressions else 'w'\n"
    "    return open_it(name, tar_mode)\n"
)


def test_a_dict_literal_read_only_and_a_conditional_give_the_values() -> None:
    assert _sets(_MAIN) == {"tar_mode": ("w", "w:gz", "w:xz")}


def test_a_dict_the_body_changes_gives_nothing() -> None:
    changed = _MAIN.replace("    tar_mode", "    compressions['.bz2'] = 'bz2'\n    tar_mode")
    assert _sets(changed) == {}
    updated = _MAIN.replace("    tar_mode", "    compressions.update(extra)\n    tar_mode")
    assert _sets(updated) == {}
    passed = _MAIN.replace("    tar_mode", "    fill(compressions)\n    tar_mode")
    assert _sets(passed) == {}


def test_a_local_bound_twice_or_from_an_unknown_value_gives_nothing() -> None:
    assert _sets(_MAIN.replace("    return", "    tar_mode += 'x'\n    return")) == {}
    assert _sets(_MAIN.replace("    return", "    for tar_mode in x: pass\n    return")) == {}
    assert _sets("def f(a):\n    m = 'r' if a else a\n    return m\n") == {}
    # a nested function that declares it nonlocal may bind it again
    nested = "def f(a):\n    m = 'r' if a else 'w'\n    def g():\n        nonlocal m\n"
    assert _sets(nested + "        m = a\n    return m\n") == {}
    assert _sets("def f(a):\n    a = 'r' if a else 'w'\n") == {}  # a parameter


def test_each_choice_and_contradicted() -> None:
    values = {"mode": OneOf(("w", "w:gz")), "level": 1}
    choices = each_choice(values)
    assert choices is not None
    assert list(choices) == [{"level": 1, "mode": "w"}, {"level": 1, "mode": "w:gz"}]
    # "|" in mode is false for both; "mode == 'w'" only for one of them
    assert contradicted(["'|' in mode"], values)
    assert not contradicted(["mode == 'w'"], values)
    assert contradicted(["mode == 'w'", "':' not in mode and level > 2"], values)
    assert not contradicted([], values)
    many = {f"p{i}": OneOf((1, 2)) for i in range(5)}  # 32 combinations: not judged
    assert each_choice(many) is None
    assert not contradicted(["p0 > 5"], many)


def test_a_module_s_names_are_kept_by_name() -> None:
    # ``zipapp.create_archive``: resolved to the module's constants by the chain walk
    found = _sets(
        "def create(compressed):\n"
        "    compression = zipfile.ZIP_DEFLATED if compressed else zipfile.ZIP_STORED\n"
        "    return zipfile.ZipFile(compression=compression)\n"
    )
    assert found == {
        "compression": (
            ModuleRef(("zipfile", "ZIP_DEFLATED")),
            ModuleRef(("zipfile", "ZIP_STORED")),
        )
    }
    # unresolved, such a value is not known: it rules nothing out
    assert not contradicted(["compression == 0"], {"compression": OneOf(found["compression"])})


#: ``zipfile``'s check of a compression method, and ``zipapp``'s one caller of it.
_ZIPFILE = (
    "ZIP_STORED = 0\n"
    "ZIP_DEFLATED = 8\n"
    "ZIP_BZIP2 = 12\n"
    "bz2 = None\n"
    "\n"
    "def _check_compression(compression):\n"
    "    if compression == ZIP_STORED:\n"
    "        pass\n"
    "    elif compression == ZIP_DEFLATED:\n"
    "        pass\n"
    "    elif compression == ZIP_BZIP2:\n"
    "        if not bz2:\n"
    "            raise RuntimeError('Compression requires the (missing) bz2 module')\n"
    "\n"
    "class ZipFile:\n"
    "    def __init__(self, file, mode='r', compression=ZIP_STORED):\n"
    "        _check_compression(compression)\n"
)
_ZIPAPP = (
    "import zipfile\n"
    "\n"
    "def create_archive(target, compressed=False):\n"
    "    compression = zipfile.ZIP_DEFLATED if compressed else zipfile.ZIP_STORED\n"
    "    with zipfile.ZipFile(target, 'w', compression=compression) as z:\n"
    "        pass\n"
    "\n"
    "def create_any(target, compressed=False):\n"
    "    compression = zipfile.ZIP_BZIP2 if compressed else zipfile.ZIP_STORED\n"
    "    with zipfile.ZipFile(target, 'w', compression=compression) as z:\n"
    "        pass\n"
)


def test_a_caller_passing_only_other_module_constants_is_ruled_out(tmp_path: Path) -> None:
    _, chains = chains_of(tmp_path, {"zipfile.py": _ZIPFILE, "zipapp.py": _ZIPAPP})
    guards = [
        "compression != ZIP_STORED",
        "compression != ZIP_DEFLATED",
        "compression == ZIP_BZIP2",
        "not bz2",
    ]
    hops = chains.reach(
        "zipfile._check_compression", "builtins.RuntimeError", guards, line=13, at=13
    )
    # ``create_any`` may pass ``ZIP_BZIP2``; ``create_archive`` passes DEFLATED or STORED
    assert sorted(h.qualname for h in hops) == [
        "zipapp.create_any",
        "zipfile.ZipFile.__init__",
        "zipfile._check_compression",
    ]
