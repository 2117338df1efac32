"""Modules that cannot be imported under their own name hold no entry point."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.entrypoints import PublicApi
from errdex.analyze.repo import build_index
from errdex.source import open_source

from .stdlib_items import ON_311, stdlib_items

_FILES = {
    "gram/__init__.py": "",
    "gram/pgen/__init__.py": "",
    "gram/pgen/grammar.py": "class Grammar:\n    pass\n",
    # Python 2's implicit relative import: ``pgen`` is no top-level module
    "gram/pgen/conv.py": (
        "import re\n"
        "from pgen import grammar\n\n"
        "class Converter(grammar.Grammar):\n"
        "    def run(self, text):\n"
        "        if not text:\n"
        "            raise ValueError('no text')\n"
    ),
    # what imports it fails as well
    "gram/uses.py": "from gram.pgen import conv\n\ndef make():\n    return conv.Converter()\n",
    # the same import in a ``try`` may fail quietly: the module loads
    "gram/pgen/tried.py": (
        "try:\n    from pgen import grammar\nexcept ImportError:\n    grammar = None\n\n"
        "def run(text):\n    if not text:\n        raise ValueError('no text')\n"
    ),
    # the directory put on ``sys.path`` first: the import may work
    "gram/pgen/pathed.py": (
        "import os, sys\nsys.path.insert(0, os.path.dirname(__file__))\n"
        "from pgen import grammar\n\n"
        "def run(text):\n    if not text:\n        raise ValueError('no text')\n"
    ),
    "gram/pgen/fine.py": (
        "from gram.pgen import grammar\n\n"
        "def run(text):\n    if not text:\n        raise ValueError('no text')\n"
    ),
}


def test_a_module_whose_import_of_a_sibling_fails_holds_no_public_function(
    tmp_path: Path,
) -> None:
    for name, text in _FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    index = build_index(open_source(str(tmp_path), repo="o/m"), library_files=list(_FILES))
    api = PublicApi(index)
    assert api.unimportable == {"gram.pgen.conv": "pgen", "gram.uses": "gram.pgen.conv"}
    assert not api.is_public("gram.pgen.conv.Converter.run")
    assert not api.is_public("gram.uses.make")
    for ok in ("gram.pgen.tried.run", "gram.pgen.pathed.run", "gram.pgen.fine.run"):
        assert api.is_public(ok), ok


@ON_311
def test_lib2to3_conv_is_no_entry_point() -> None:
    """Blind review stop 35, record 31: ``from lib2to3.pgen2 import conv`` fails with
    "No module named 'pgen2'" (conv.py:33 ``from pgen2 import grammar, token``)."""
    items = stdlib_items("lib2to3/pgen2/*.py", "lib2to3/__init__.py")
    conv = [e for r, e in items if r["filePath"].endswith("pgen2/conv.py")]
    assert conv
    for evidence in conv:
        assert evidence["entryPoints"] == []
    driver = [e for r, e in items if r["filePath"].endswith("pgen2/driver.py")]
    assert any(e["entryPoints"] for e in driver)


def test_a_dependency_missing_here_leaves_the_package_importable(tmp_path: Path) -> None:
    """A read-only review (session 41): ``cachelib/redis.py`` does ``import redis``, the
    third-party package, which this interpreter lacks; the library's users have it. The
    module itself is no sibling package, and the tree alone is judged."""
    files = {
        "cachelib/__init__.py": "from cachelib.redis import RedisCache\n",
        "cachelib/redis.py": (
            "import redis\n\n"
            "class RedisCache:\n"
            "    def __init__(self, url):\n"
            "        if not url:\n"
            "            raise ValueError('a redis URL is required')\n"
        ),
        # a package of the import's name holding no module it names: no sign either
        "cachelib/memcache/__init__.py": "",
        "cachelib/memcache/client.py": "import memcache\nfrom memcache import Client\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    index = build_index(open_source(str(tmp_path), repo="o/m"), library_files=list(files))
    api = PublicApi(index)
    assert api.unimportable == {}
    assert api.is_public("cachelib.redis.RedisCache.__init__")
