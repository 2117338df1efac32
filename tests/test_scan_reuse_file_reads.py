"""A re-scan extracts again the files whose own extraction read a changed file, and no
other (issue 13: on jax, every file's reads were every lookup the process had made, so
one edit re-extracted 35 unchanged files, 20 of which never import the edited module)."""

from __future__ import annotations

from pathlib import Path

import pytest

import errdex.scan as scan
from errdex.scan import FileResult, ScanContext, ScanResult

from .source.helpers import write
from .test_scan_reuse import _age, _comparable, _scan, tree

__all__ = ["tree"]

BASE = """\
class BaseError(ValueError):
    def __init__(self, x):
        super().__init__("bad widget: %r" % (x,))
"""

ERRORS = """\
from pkg.base import BaseError


class ParseError(BaseError):
    pass
"""

RAISER = """\
from pkg.errors import ParseError


def {name}(x):
    if x is None:
        raise ParseError(x)
"""

HELPERS = """\
def make(x):
    return TypeError(f"cannot use {x}")
"""

MOD = """\
from pkg.helpers import make


class ModError(ValueError):
    def __init__(self, x):
        super().__init__(f"mod failed on {x}")


def run(x):
    if x < 0:
        raise make(x)
"""

USER = """\
from pkg.mod import ModError


def use(x):
    if x is None:
        raise ModError(x)
"""


def _extracted(
    tree: Path, rel: str, text: str, monkeypatch: pytest.MonkeyPatch
) -> tuple[ScanResult, list[str]]:
    """The re-scan after writing ``rel`` once a full scan is cached, and the files it
    extracted again; the re-scan equals a full scan of the edited tree."""
    _age(tree)
    _scan(tree, analyze=False)
    write(tree, rel, text)
    extracted: list[str] = []
    real = scan.scan_file

    def spy(context: ScanContext, path: str) -> FileResult:
        extracted.append(path)
        return real(context, path)

    with monkeypatch.context() as patch:
        patch.setattr(scan, "scan_file", spy)
        after = _scan(tree, analyze=False)
    assert _comparable(after) == _comparable(_scan(tree, cache=False, analyze=False))
    return after, sorted(extracted)


def _messages(result: ScanResult, rel: str) -> list[str]:
    return [r["errorMessage"] for r, _ in result.items if r["filePath"] == rel]


def test_a_file_served_by_a_kept_reader_is_extracted_again_when_what_it_read_changes(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a_first.py is extracted first: errors.py's reader is read then, and resolves
    # ParseError's MRO through base.py; z_later.py gets that reader from the process and
    # its kept MRO, looking for base.py itself no more. Its message is built in base.py.
    # The re-scan runs in the same process: errors.py is unchanged, but its kept reader's
    # MRO holds base.py's reader from before the edit, so it is read again.
    write(tree, "pkg/base.py", BASE)
    write(tree, "pkg/errors.py", ERRORS)
    write(tree, "pkg/a_first.py", RAISER.format(name="first"))
    write(tree, "pkg/z_later.py", RAISER.format(name="later"))
    after, extracted = _extracted(
        tree, "pkg/base.py", BASE.replace("bad widget", "unusable widget"), monkeypatch
    )
    assert extracted == ["pkg/a_first.py", "pkg/base.py", "pkg/z_later.py"]
    assert _messages(after, "pkg/z_later.py") == ["unusable widget: %r"]
    assert after.cache_use is not None and after.cache_use.reads_changed == {"pkg/base.py"}


def test_a_file_that_read_no_changed_file_is_not_extracted_again(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # user.py reads mod.py for ModError's message; mod.py's own extraction read
    # helpers.py for run()'s raise, which ModError's does not need
    write(tree, "pkg/helpers.py", HELPERS)
    write(tree, "pkg/mod.py", MOD)
    write(tree, "pkg/user.py", USER)
    after, extracted = _extracted(
        tree, "pkg/helpers.py", HELPERS.replace("cannot use", "refused"), monkeypatch
    )
    assert extracted == ["pkg/helpers.py", "pkg/mod.py"]
    assert _messages(after, "pkg/mod.py") == ["refused {x}"]
    assert after.cache_use is not None and after.cache_use.files_reread_for_reads == 1
