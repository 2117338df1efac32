"""``backgroundTag`` on real code: this Python's own ``http.cookies``, ``tarfile``,
``gzip``, ``pickle`` and ``logging/config.py``.

Each tag asserted here was checked by hand against CPython 3.11's sources: a family is
given only on evidence that means it, never on a keyword.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .stdlib_items import ON_311, Item, one_file_items, stdlib_items

pytestmark = ON_311


@pytest.fixture(scope="module")
def items() -> list[Item]:
    return stdlib_items(
        "http/cookies.py",
        "tarfile.py",
        "gzip.py",
        "pickle.py",
        "shutil.py",
        "dbm/dumb.py",
        "_pyio.py",
        "optparse.py",
    )


def tag(items: list[Item], qualname: str, message: str) -> tuple[str | None, list[str]]:
    found = [
        (r["backgroundTag"], e["provenance"].get("backgroundTag", {}).get("basis", []))
        for r, e in items
        if e["site"]["qualname"] == qualname and r["errorMessage"].startswith(message)
    ]
    assert found, (qualname, message)
    return found[0]


def test_a_cookie_attribute_outside_the_reserved_ones_is_no_missing_key(
    items: list[Item],
) -> None:
    # ``if key not in self._reserved: raise CookieError("Invalid attribute %r" % (key,))``
    assert tag(items, "http.cookies.Morsel.__setitem__", "Invalid attribute")[0] is None


def test_a_tar_checksum_is_no_missing_key(items: list[Item]) -> None:
    # ``if chksum not in calc_chksums(buf): raise InvalidHeaderError("bad checksum")``
    assert tag(items, "tarfile.TarInfo.frombuf", "bad checksum")[0] is None


def test_a_member_that_is_not_in_the_archive_is_a_missing_key(items: list[Item]) -> None:
    # ``raise KeyError("filename %r not found" % name)``: the class says it
    assert tag(items, "tarfile.TarFile.getmember", "'filename %r not found'") == (
        "missing-key",
        ["errorClass", "rule: KeyError"],
    )


def test_a_mode_outside_the_listed_ones_is_an_invalid_value(items: list[Item]) -> None:
    # ``if mode not in ("r", "a", "w", "x"): raise ValueError(...)``
    found, basis = tag(items, "tarfile.TarFile.taropen", "mode must be 'r', 'a', 'w' or 'x'")
    assert found == "invalid-value"
    assert basis[0] == "site.guards"


def test_a_lookup_that_failed_is_a_missing_key_when_the_message_says_so(
    items: list[Item],
) -> None:
    # ``except KeyError: raise UnpicklingError("Memo value not found at index %d" % i)``
    found, basis = tag(items, "pickle._Unpickler.load_get", "Memo value not found")
    assert found == "missing-key"
    assert basis[:2] == ["site.guards", "site.template"]


def test_a_library_oserror_subclass_for_a_bad_format_is_no_io_failure(
    items: list[Item],
) -> None:
    # ``class BadGzipFile(OSError)``: ``raise BadGzipFile('Not a gzipped file (%r)' % magic)``
    assert tag(items, "gzip._read_gzip_header", "Not a gzipped file")[0] is None


def test_builtin_oserrors_are_io_failures(items: list[Item]) -> None:
    # ``raise FileNotFoundError(...)``: the builtin subclass names the failure
    found = {
        r["backgroundTag"]
        for r, e in items
        if e["site"].get("qualifiedClass") == "builtins.FileNotFoundError"
    }
    assert found == {"io-failure"}
    # ``raise OSError(...)`` itself: only where an OS call failed (a handler) or the
    # message says so, never by the class alone
    for record, evidence in items:
        if record["backgroundTag"] == "io-failure":
            basis = evidence["provenance"]["backgroundTag"]["basis"]
            assert basis != ["errorClass", basis[-1]], record["errorMessage"]


def test_an_oserror_for_a_closed_object_or_a_bad_argument_is_no_io_failure(
    items: list[Item],
) -> None:
    # dbm.dumb: ``except TypeError: raise error('DBM object has already been closed')``
    # (``error = OSError``); _pyio: ``if not writer.writable(): raise OSError('"writer"
    # argument must be writable.')``: nothing was read or written
    assert tag(items, "dbm.dumb._Database.iterkeys", "DBM object has already")[0] != "io-failure"
    assert tag(items, "_pyio.BufferedRWPair.__init__", '"writer" argument')[0] != "io-failure"


def test_a_base_class_named_parse_error_does_not_make_a_parse_error(items: list[Item]) -> None:
    # ``class OptionError(OptParseError)``, raised by ``Option()`` when an option is
    # defined (``add_option(type='foo')``), not while the command line is parsed
    found, _ = tag(items, "optparse.Option._check_type", "[option %s: ]invalid option type")
    assert found != "parse-error"


def test_an_import_error_without_its_evidence_takes_no_family_from_its_guards(
    tmp_path: Path,
) -> None:
    """zipimport: ``if header_size < header_offset: raise ZipImportError('bad central
    directory size or offset')`` is a corrupt archive, not an out-of-range argument."""
    items = one_file_items(
        tmp_path,
        "zipped.py",
        "class ZipImportError(ImportError):\n"
        "    pass\n"
        "\n"
        "\n"
        "def read_directory(header_size, header_offset):\n"
        "    if header_size < header_offset:\n"
        "        raise ZipImportError('bad central directory size or offset')\n",
    )
    ((record, _),) = items
    assert record["backgroundTag"] is None
    assert "no fix it can state" not in record["solutions"][0]
