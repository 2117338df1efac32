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


WRONG_HEIRS = '''\
import collections


def _noop(self):
    return None


class _Base:
    def m(self):
        raise ValueError("base m refuses")


class _A(_Base):
    pass


class _B(_Base):
    def m(self):
        return 1


class Pub(_A, _B):
    """Its MRO is Pub, _A, _B, _Base: ``Pub().m()`` runs ``_B.m`` and returns 1."""


class Plain(_A):
    """Runs ``_Base.m``."""


class _Lookup:
    def get(self, key, default=None):
        raise LookupError("no such key")


class Store(collections.UserDict, _Lookup):
    """``UserDict.get`` comes first."""


class _CB:
    def recv(self):
        self._check()
        return 1

    def _check(self):
        raise OSError("handle is closed")


class Conn(_CB):
    _check = _noop


class _W:
    _mode = "r"

    def write(self, data):
        if self._mode != "w":
            raise PermissionError("not opened for writing")
        return len(data)


class Writer(_W):
    _mode = "w"


class _P:
    @property
    def level(self):
        return 0

    @level.setter
    def level(self, v):
        raise ValueError("negative level")


class Levelled(_P):
    """Setting ``x.level`` runs the setter: no call of ``Levelled.level()``."""
'''


def _ways(tmp_path: Path) -> dict[str, list[tuple[str, object]]]:
    return {
        str(r["errorMessage"]): [(e["qualname"], e.get("inheritedFrom")) for e in e["entryPoints"]]
        for r, e in one_file_items(tmp_path, "wrong.py", WRONG_HEIRS)
    }


def test_a_class_is_looked_up_by_its_mro(tmp_path: Path) -> None:
    """``Pub(_A, _B)`` runs ``_B.m`` (C3, not depth-first), so only ``Plain.m`` is a way
    in; ``Store.get`` runs ``UserDict.get``, a class outside the repository that comes
    before ``_Lookup``: no way is claimed through it (review rr5, both run)."""
    ways = _ways(tmp_path)
    assert ways["base m refuses"] == [("wrong.Plain.m", "wrong._Base.m")]
    assert ways["no such key"] == []


def test_a_check_shadowed_by_an_assignment_is_no_way(tmp_path: Path) -> None:
    """``Conn._check = _noop`` replaces the check ``recv`` calls, and ``Writer._mode =
    "w"`` makes ``write``'s guard false: neither class is a way to the raise."""
    ways = _ways(tmp_path)
    assert ways["handle is closed"] == []
    assert ways["not opened for writing"] == []


def test_an_inherited_setter_is_no_call(tmp_path: Path) -> None:
    """A setter runs on assignment: "a call of `Levelled.level()`" (integ40) was false,
    and a deleter was worded as a read; neither is named through the class below."""
    assert _ways(tmp_path)["negative level"] == []


def test_the_trigger_says_where_the_method_is_inherited_from(tmp_path: Path) -> None:
    """``Plain.m`` is not "the raising function itself": it runs ``_Base.m``."""
    (record,) = [
        r
        for r, _ in one_file_items(tmp_path, "wrong.py", WRONG_HEIRS)
        if r["errorMessage"] == "base m refuses"
    ]
    assert "`wrong.Plain.m`, inherited from `wrong._Base.m`" in str(record["triggerScenarios"])
    assert "the raising function itself" not in str(record["triggerScenarios"])
