"""A private base's method is a way in through the public class that inherits it (paired
blind review of stop 38: "Which public call leads here is not known" was said of
``_ConnectionBase._check_readable`` and ``_NetlocResultMixinBase.port``, misleading; the
public ``Connection.recv()`` and ``urlsplit(url).port`` raise them)."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import ON_311, one_file_items, stdlib_items

CONN = '''\
class _Base:
    def __init__(self, flags):
        self._flags = flags

    def _check_readable(self):
        if not self._flags:
            raise OSError("connection is write-only")

    def recv(self):
        """Receive an object."""
        self._check_readable()
        return 1

    @property
    def port(self):
        if self._flags > 9:
            raise ValueError("port out of range")
        return self._flags


class Connection(_Base):
    """A connection."""


class Checked(_Base):
    """Runs its own check: its recv never reaches the base's."""

    def _check_readable(self):
        return None


class _Hidden(_Base):
    pass
'''


def _entries(tmp_path: Path, message: str) -> tuple[dict[str, object], list[dict[str, object]]]:
    ((record, evidence),) = [
        (r, e) for r, e in one_file_items(tmp_path, "conn.py", CONN) if r["errorMessage"] == message
    ]
    return record, evidence["entryPoints"]


def test_inherited_method_is_named_through_the_public_class(tmp_path: Path) -> None:
    """``Connection.recv`` runs ``_Base.recv`` and ``_Base._check_readable``: it is
    named, with the definition it inherits; ``Checked`` overrides the check and
    ``_Hidden`` is private, so neither is."""
    record, entries = _entries(tmp_path, "connection is write-only")
    assert [(e["qualname"], e.get("inheritedFrom")) for e in entries] == [
        ("conn.Connection.recv", "conn._Base.recv")
    ]
    assert entries[0]["line"] == 9  # the definition's
    assert record["commonSituations"] == "It comes from a call of `Connection.recv()`."


def test_inherited_property_is_read_on_the_public_class(tmp_path: Path) -> None:
    """A property the public class inherits is read on its objects, not called."""
    record, entries = _entries(tmp_path, "port out of range")
    assert [e["qualname"] for e in entries] == ["conn.Connection.port"]
    assert record["commonSituations"] == (
        "It comes from reading `x.port` (`x` a `Connection` object)."
    )


@ON_311
def test_stdlib_connection_and_url_results() -> None:
    """Read and run in CPython 3.11: a write-only ``Connection``'s ``recv_bytes()``,
    ``recv_bytes_into()`` and ``recv()`` raise "connection is write-only";
    ``urlparse('http://h:70000/').port`` raises "Port out of range 0-65535"."""
    found = {
        r["id"]: [e["qualname"] for e in e["entryPoints"]]
        for r, e in stdlib_items("multiprocessing/connection.py", "urllib/parse.py")
    }
    assert found["5edea7f8c5b5321a"] == [
        "multiprocessing.connection.Connection.recv_bytes",
        "multiprocessing.connection.Connection.recv_bytes_into",
        "multiprocessing.connection.Connection.recv",
    ]
    assert found["ce0e814a6f1d01b9"] == ["urllib.parse.ParseResult.port"]
