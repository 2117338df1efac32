"""Shared by the template tests: a fixture's templates at a line, what it really raises,
and a package written to disk and importable."""

from __future__ import annotations

import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from errdex.extract.python import extract_python
from errdex.extract.python.project import reading_repository
from errdex.extract.site import ErrorSite
from errdex.template import MessageTemplate


def templates_at(code: str, source: str) -> dict[str, MessageTemplate]:
    """The templates (by display) of the line of ``code`` holding ``source``."""
    line = next(i for i, text in enumerate(code.splitlines(), 1) if source in text)
    found = extract_python(textwrap.dedent(code), "m.py", module="m")
    return {s.template.display: s.template for s in found if s.line == line}


def raised(code: str, call: str) -> BaseException:
    """What running ``call`` after ``code`` raises."""
    scope: dict[str, Any] = {}
    exec(compile(textwrap.dedent(code), "m.py", "exec"), scope)
    try:
        exec(call, scope)
    except BaseException as exc:  # whatever it raises is what is checked
        return exc
    raise AssertionError(f"{call} raised nothing")


def raises_as_recorded(code: str, sites: list[ErrorSite], cases: dict[str, str]) -> None:
    """Each call of ``cases`` (call -> class name) raises that class, and the one site of
    that class among ``sites`` matches what ``str()`` of it prints."""
    for call, name in cases.items():
        exc = raised(code, call)
        assert type(exc).__name__ == name
        (site,) = [s for s in sites if s.error_class == name]
        assert site.template.match(str(exc)) is not None, str(exc)


@contextmanager
def package_on_disk(root: Path, name: str, modules: dict[str, str]) -> Iterator[Path]:
    """``root/src/<name>/<module>.py`` for each module, importable while the block runs."""
    pkg = root / "src" / name
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    for module, text in modules.items():
        (pkg / f"{module}.py").write_text(text)
    sys.path.insert(0, str(root / "src"))
    try:
        yield root
    finally:
        sys.path.remove(str(root / "src"))
        for loaded in [m for m in sys.modules if m.split(".")[0] == name]:
            del sys.modules[loaded]


def printed_by(module: str, call: str) -> str:
    """``str()`` of the ``ValueError`` that ``call`` raises in the imported ``module``."""
    import importlib

    import pytest

    namespace = vars(importlib.import_module(module))
    with pytest.raises(ValueError) as caught:
        eval(call, namespace)
    return str(caught.value)


def sites_by_line(root: Path, rel: str) -> dict[int, ErrorSite]:
    """The sites of ``root/rel``, read as the scan reads a repository."""
    with reading_repository(root):
        return {s.line: s for s in extract_python((root / rel).read_text(), rel)}
