"""The catch advice moves to an outer exported call only where that call runs the raise."""

from __future__ import annotations

from pathlib import Path

from errdex.scan import scan_checkout
from errdex.source import open_source

_IMPL = "".join(
    f"def _connect{n}(url):\n"
    "    try:\n"
    "        return _open(url)\n"
    "    except OSError as exc:\n"
    f"        raise ProxyError('proxy{n} failed') from exc\n\n\n"
    for n in range(1, 5)
)
_FILES = {
    "__init__.py": (
        "from typing import TYPE_CHECKING\n"
        "from .api import pages, aget, get_strict\n"
        "if TYPE_CHECKING:\n"
        "    from .api import tc_get\n"
    ),
    "api.py": (
        "from .sessions import Session\n\n\n"
        "def pages(urls):\n"
        "    s = Session()\n"
        "    for url in urls:\n"
        "        yield s.send1(url)\n\n\n"
        "async def aget(url):\n"
        "    s = Session()\n"
        "    return s.send2(url)\n\n\n"
        "def tc_get(url):\n"
        "    s = Session()\n"
        "    return s.send3(url)\n\n\n"
        "def get_strict(url, strict=False):\n"
        "    s = Session()\n"
        "    if strict:\n"
        "        return s.send4(url)\n"
        "    return None\n"
    ),
    "sessions.py": (
        "from ._impl import _connect1, _connect2, _connect3, _connect4\n\n\n"
        "class Session:\n"
        + "".join(
            f"    def send{n}(self, url):\n        return _connect{n}(url)\n\n" for n in range(1, 5)
        )
    ),
    "_impl.py": (
        "class ProxyError(Exception):\n    pass\n\n\n"
        "def _open(url):\n    raise OSError(url)\n\n\n" + _IMPL
    ),
}


def _catch(
    tmp_path: Path, files: dict[str, str] = _FILES
) -> dict[str, tuple[list[str | None], str]]:
    package = tmp_path / "pkg"
    package.mkdir()
    for name, text in files.items():
        (package / name).write_text(text)
    items = scan_checkout(open_source(str(tmp_path), repo="o/m"), repo="o/m").items
    return {
        r["errorMessage"]: (
            [e.get("catchAround") for e in ev["entryPoints"]],
            " ".join(r["solutions"]),
        )
        for r, ev in items
        if r["errorMessage"].startswith("proxy")
    }


def test_no_move_to_a_generator_a_coroutine_or_a_call_that_needs_an_argument(
    tmp_path: Path,
) -> None:
    """``pkg.pages()`` returns a generator, ``pkg.aget()`` a coroutine: their calls raise
    nothing. ``get_strict(url, strict=False)`` reaches the raise only under ``if strict:``
    (rr3). The advice keeps the entry point, and no ``catchAround`` is written."""
    found = _catch(tmp_path)
    for message, kept in (
        ("proxy1 failed", "Session.send1()"),
        ("proxy2 failed", "Session.send2()"),
        ("proxy4 failed", "Session.send4()"),
    ):
        arounds, solution = found[message]
        assert f"around the call to `{kept}`" in solution
        assert "pkg.pages" not in solution and "pkg.aget" not in solution
        assert "pkg.get_strict" not in solution
        assert "pkg.api.pages" not in arounds and "pkg.api.aget" not in arounds
        assert "pkg.api.get_strict" not in arounds


def test_an_import_under_type_checking_is_not_exported(tmp_path: Path) -> None:
    """``if TYPE_CHECKING: from .api import tc_get``: ``pkg.tc_get`` does not exist at run
    time (rr3), so no advice names ``pkg.tc_get()``."""
    arounds, solution = _catch(tmp_path)["proxy3 failed"]
    assert "pkg.tc_get()" not in solution
    assert "pkg.api.tc_get" not in arounds


def test_a_package_that_serves_names_lazily_keeps_them(tmp_path: Path) -> None:
    """PEP 562: ``if TYPE_CHECKING: from .api import tc_get`` beside a module
    ``__getattr__`` that imports it on demand: ``pkg.tc_get`` works at run time (rr8), so
    the advice may name it as main did."""
    lazy = dict(_FILES)
    lazy["__init__.py"] += (
        "\n\ndef __getattr__(name):\n"
        "    if name == 'tc_get':\n"
        "        from .api import tc_get\n"
        "        return tc_get\n"
        "    raise AttributeError(name)\n"
    )
    arounds, solution = _catch(tmp_path, lazy)["proxy3 failed"]
    assert "pkg.tc_get()" in solution, (arounds, solution)
