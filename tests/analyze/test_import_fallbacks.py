"""Calls in an ``except ImportError`` fallback that cannot run (:mod:`errdex.analyze.import_fallbacks`)."""

from __future__ import annotations

import ast
from pathlib import Path

from errdex.analyze.entrypoints import PublicApi, entry_points
from errdex.analyze.import_fallbacks import guarded_imports

from .fixture_chains import chains_of

#: ``tempfile`` as far as ``distutils.util.byte_compile`` uses it.
_TEMP = (
    "def mkstemp(suffix=''):\n"
    "    return 3, 'x' + suffix\n"
    "\n"
    "def mktemp(suffix=''):\n"
    "    if suffix is None:\n"
    "        raise FileExistsError('No usable temporary filename found')\n"
    "    return 'x' + suffix\n"
)
#: ``byte_compile``'s fallback, and one around a name ``tmp`` does not define.
_UTIL = (
    "def byte_compile(files):\n"
    "    try:\n"
    "        from tmp import mkstemp\n"
    "        (fd, name) = mkstemp('.py')\n"
    "    except ImportError:\n"
    "        from tmp import mktemp\n"
    "        (fd, name) = None, mktemp('.py')\n"
    "    return name\n"
    "\n"
    "def old_compile(files):\n"
    "    try:\n"
    "        from tmp import mkstemp_v2\n"
    "        (fd, name) = mkstemp_v2('.py')\n"
    "    except ImportError:\n"
    "        from tmp import mktemp\n"
    "        (fd, name) = None, mktemp('.py')\n"
    "    return name\n"
)


def test_a_fallback_around_an_import_that_works_is_no_way_to_the_raise(tmp_path: Path) -> None:
    # byte_compile imports ``mkstemp`` from a module that defines it: its handler never
    # runs, so it does not reach ``mktemp``; old_compile imports a name ``tmp`` lacks
    index, chains = chains_of(tmp_path, {"tmp.py": _TEMP, "util.py": _UTIL})
    api = PublicApi(index)
    found = entry_points(index, chains, api, "tmp.mktemp", error_class="builtins.FileExistsError")
    assert [e["qualname"] for e in found] == ["tmp.mktemp", "util.old_compile"]


def _try(text: str) -> ast.Try:
    node = ast.parse(text).body[0]
    assert isinstance(node, ast.Try)
    return node


def test_only_a_handler_of_import_errors_around_imports_alone_is_read() -> None:
    plain = _try("try:\n    from .tmp import mkstemp\nexcept ImportError:\n    pass\n")
    assert guarded_imports(plain, plain.handlers[0], "pkg") == (("pkg.tmp", "mkstemp"),)
    # ``except Exception`` may run for anything the body raises
    broad = _try("try:\n    import tmp\nexcept Exception:\n    pass\n")
    assert guarded_imports(broad, broad.handlers[0], "") == ()
    # an import made at run time may fail whatever the module defines
    dynamic = _try(
        "try:\n    import tmp\n    importlib.import_module(name)\nexcept ImportError:\n    pass\n"
    )
    assert guarded_imports(dynamic, dynamic.handlers[0], "") == ()


def test_a_module_a_build_or_platform_may_lack_is_no_certain_import(tmp_path: Path) -> None:
    """``import ssl``/``fcntl`` work on this interpreter, not on every user's: a Python
    built without OpenSSL, or Windows, runs the fallback (re-read, stop 34)."""
    from errdex.analyze.import_fallbacks import dead_fallback

    index, _ = chains_of(tmp_path, {"tmp.py": _TEMP, "util.py": _UTIL})
    assert dead_fallback(index, (("tmp", "mkstemp"),))  # in the tree: certain
    assert dead_fallback(index, (("math", None),))  # compiled into every build
    # compiled here too (``twins.provides``), but a build or platform may lack them
    assert not dead_fallback(index, (("_ssl", None),))
    assert not dead_fallback(index, (("zlib", None),))
    assert not dead_fallback(index, (("fcntl", "flock"),))
    assert not dead_fallback(index, (("math", None), ("_ssl", None)))
