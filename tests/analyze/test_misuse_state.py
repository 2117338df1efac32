"""A use after close or in a forbidden state: fixed by the calling code, not caught."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import one_file_items

SOURCE = """
class error(OSError):
    pass


class Database:
    def __init__(self):
        self._index = {}
        self.state = "NONAUTH"

    def close(self):
        self._index = None

    def __contains__(self, key):
        try:
            return key in self._index
        except TypeError:
            if self._index is None:
                raise error("DBM object has already been closed") from None
            raise

    def select(self, name):
        if self.state not in ("AUTH", "SELECTED"):
            raise error("command %s illegal in state %s" % (name, self.state))
        return name

    def fetch(self, sock):
        data = sock.recv(10)
        if not data and self.state:
            raise error("connection closed by server")
        return data
"""


def test_no_catch_advice_for_a_use_after_close(tmp_path: Path) -> None:
    """Blind review stop 35 (record 07): "Catch OSError where the program must go on"
    for ``key in db`` on a closed ``dbm.dumb`` database hides a use-after-close bug;
    imaplib's "command X illegal in state Y" had the same catch advice."""
    items = one_file_items(tmp_path, "m.py", SOURCE)
    by_message = {r["errorMessage"]: r for r, _ in items}
    closed = by_message["DBM object has already been closed"]
    assert closed["solutions"][0].startswith(
        "The message says the object was already closed (“DBM object has already been "
        "closed”): using it after its close is a mistake of the calling code"
    )
    assert not any("Catch" in s for s in closed["solutions"])
    assert closed["handlingStrategy"] == "validation"
    state = next(r for m, r in by_message.items() if "illegal in state" in m)
    assert state["solutions"][0].startswith(
        "The message says the call is not allowed in the object's current state"
    )
    assert "Database.select()" in state["solutions"][0]
    assert state["handlingStrategy"] == "validation"
    # a peer that closed the connection is no mistake of the caller: still caught
    peer = by_message["connection closed by server"]
    assert not peer["solutions"][0].startswith("The message says")


CLOSED_DICT = """
class ClosedDict:
    def closed(self, *args):
        raise ValueError("invalid operation on closed shelf")
"""


def test_a_closed_object_without_a_condition(tmp_path: Path) -> None:
    """``shelve._ClosedDict.closed`` raises with no condition: the class is what a closed
    shelf's dict becomes; errdex said "no fix"."""
    items = one_file_items(tmp_path, "m.py", CLOSED_DICT)
    ((record, _),) = items
    assert record["solutions"][0].startswith(
        "The message says the object was already closed (“invalid operation on closed shelf”)"
    )
    # a closed object is not opened again (``asyncio.Runner``): a new one is made
    assert record["solutions"][0].endswith(
        "only while the object is open (after its close, open or make a new one), "
        "rather than catching `ValueError`."
    )
