"""Tags say the library, its public module, the function a caller calls and the cause
family; not how errdex found the site (``raise``, ``warn``: "tool-internal" in the paired
blind reviews of stop 34)."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from errdex.analyze.tag_words import callable_tag, module_tag
from errdex.scan import scan_checkout
from errdex.source import open_source

PARSER = textwrap.dedent(
    """\
    def _escape(source):
        if source.startswith("\\\\9"):
            raise ValueError("bad escape")
        return source
    """
)
API = textwrap.dedent(
    """\
    import warnings

    from ._parser import _escape


    def compile(pattern):
        if not pattern:
            warnings.warn("empty pattern", DeprecationWarning)
        return _escape(pattern)
    """
)


def _records(tmp_path: Path) -> list[dict[str, Any]]:
    pkg = tmp_path / "regex" / "engine"
    pkg.mkdir(parents=True)
    (tmp_path / "regex" / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "_parser.py").write_text(PARSER)
    (pkg / "api.py").write_text(API)
    result = scan_checkout(open_source(str(tmp_path), repo="o/regex"), repo="o/regex")
    return [r for r, _ in result.items]


def test_no_tag_says_how_the_site_was_found(tmp_path: Path) -> None:
    records = _records(tmp_path)
    assert {r["errorClass"] for r in records} == {"ValueError", "DeprecationWarning"}
    for record in records:
        assert not {"raise", "warn", "assert"} & set(record["tags"]), record["tags"]
        assert "regex" in record["tags"]  # the library


def test_a_private_function_is_tagged_by_the_public_call_that_reaches_it(tmp_path: Path) -> None:
    (raised,) = [r for r in _records(tmp_path) if r["errorClass"] == "ValueError"]
    assert "compile" in raised["tags"], raised["tags"]  # regex.engine.api.compile reaches it
    assert "escape" not in raised["tags"]  # the private function's own name is none


def test_a_public_function_gives_its_module_and_name(tmp_path: Path) -> None:
    (warned,) = [r for r in _records(tmp_path) if r["errorClass"] == "DeprecationWarning"]
    assert {"regex-engine-api", "compile", "deprecation-warning"} <= set(warned["tags"])


def test_names_a_caller_writes() -> None:
    assert module_tag("xml.dom.minidom") == "xml-dom-minidom"
    assert module_tag("re._parser") is None and module_tag("tarfile") is None
    assert callable_tag("xml.dom.minidom.Document.renameNode") == "renameNode"
    assert callable_tag("packaging.version.Version.__init__") == "Version"
    assert callable_tag("re._parser._escape") is None
    assert callable_tag("pkg.f.<locals>.g") is None


def test_two_public_callers_are_tagged(tmp_path: Path) -> None:
    """``re._parser._parse`` is reached from ``re.Scanner`` and ``re.compile``: both
    names are what a developer has in hand; a program's ``__main__`` is none."""
    pkg = tmp_path / "lib"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "core.py").write_text(
        textwrap.dedent(
            """\
            def _check(size):
                if size < 0:
                    raise ValueError("negative size")
                return size


            def resize(size):
                return _check(size)


            def allocate(size):
                return _check(size) * 2
            """
        )
    )
    (pkg / "__main__.py").write_text("from .core import _check\n\n\ndef main(n):\n    _check(n)\n")
    result = scan_checkout(open_source(str(tmp_path), repo="o/lib"), repo="o/lib")
    (record,) = [r for r, _ in result.items if r["errorMessage"] == "negative size"]
    assert {"resize", "allocate"} <= set(record["tags"]), record["tags"]
    assert "main" not in record["tags"]
