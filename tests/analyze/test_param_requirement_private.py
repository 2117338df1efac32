"""A requirement on a public name of a private module, where errdex finds no entry point.

Mirrors CPython 3.11's ``_pyio`` (the pure-Python ``io``): nothing in a private module is
public, so no entry point is found for ``_pyio.BufferedReader.seek``'s ``whence not in
valid_seek_flags`` nor ``_pyio.FileIO.__init__``'s ``not isinstance(mode, str)``, and the
records said "errdex found no fix" (blind review 2026-12-06, record 05). Whoever imports
the module calls them by those names: the fix is stated in their parameters. A private
method (``_check``), a module function whose call would read as a builtin's
(``_pyio.open``), and any function of a private module that is no ``_py`` twin of a public
one (``email._header_value_parser``: the package's own helpers) still get none.
"""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.quoting import NO_FIX

from .stdlib_items import one_file_items

SOURCE = """
class BytesIO:
    def seek(self, pos, whence=0):
        if whence not in (0, 1, 2):
            raise ValueError("invalid whence value")
        return pos

    def _check(self, pos):
        if pos < 0:
            raise ValueError("negative position")


class FileIO:
    def __init__(self, file, mode='r'):
        if not isinstance(mode, str):
            raise TypeError("invalid mode: %s" % (mode,))


def open(file, buffering=-1):
    if buffering < -1:
        raise ValueError("invalid buffering size")
"""


def _solutions(tmp_path: Path) -> dict[str, list[str]]:
    items = one_file_items(tmp_path, "_pyio.py", SOURCE)
    return {r["errorMessage"]: r["solutions"] for r, _ in items}


def test_a_public_method_and_constructor_of_a_private_module(tmp_path: Path) -> None:
    found = _solutions(tmp_path)
    assert found["invalid whence value"][0].startswith(
        "Pass `whence` to `BytesIO.seek()` as one of `0`, `1` or `2`:"
    )
    assert found["invalid mode: %s"][0].startswith(
        "Pass `mode` to `FileIO()` as an instance of `str`:"
    )


def test_no_requirement_for_a_private_method_or_a_private_call(tmp_path: Path) -> None:
    found = _solutions(tmp_path)
    assert found["negative position"] == [NO_FIX]
    assert found["invalid buffering size"] == [NO_FIX]


def test_no_requirement_in_a_private_helper_module(tmp_path: Path) -> None:
    items = one_file_items(tmp_path, "_helpers.py", SOURCE)
    found = {r["errorMessage"]: r["solutions"] for r, _ in items}
    assert found["invalid whence value"] == [NO_FIX]


def test_no_requirement_in_a_private_package_named_like_a_twin(tmp_path: Path) -> None:
    """``_pytest`` begins with ``_py`` but pairs with no C module: its names are pytest's
    own helpers, as ``email._header_value_parser``'s are."""
    items = one_file_items(tmp_path, "_pytest.py", SOURCE)
    found = {r["errorMessage"]: r["solutions"] for r, _ in items}
    assert found["invalid whence value"] == [NO_FIX]
    assert found["invalid mode: %s"] == [NO_FIX]
