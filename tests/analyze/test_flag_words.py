"""A flag a caller sets some other way is said, not dropped as private.

Mirrors CPython 3.11's ``asyncio.selector_events`` (``if self._debug and sock.gettimeout()
!= 0: raise ValueError("the socket must be non-blocking")``) and ``urllib.request``
(``try: import ssl`` / ``except ImportError: _have_ssl = False``; ``urlopen`` raises "SSL
support not available" only ``if not _have_ssl``). Blind review 2026-12-06 (records 17
and 20) found both false: the trigger said the socket alone raises (it does not outside
debug mode), and the documentation left the missing ``ssl`` module out.
"""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.flag_words import DEBUG_MODE, import_words

from .stdlib_items import ON_311, Item, one_file_items, stdlib_items

ASYNC = '''
class BaseSelectorEventLoop:
    def __init__(self):
        self._debug = False

    def set_debug(self, enabled):
        self._debug = enabled

    async def sock_recv(self, sock, n):
        """Receive data from the socket."""
        if self._debug and sock.gettimeout() != 0:
            raise ValueError("the socket must be non-blocking")
        return sock.recv(n)
'''

REQUEST = '''
try:
    import ssl
except ImportError:
    _have_ssl = False
else:
    _have_ssl = True


def urlopen(url, *, cafile=None, capath=None, cadefault=False, context=None):
    """Open the URL url."""
    if cafile or capath or cadefault:
        if context is not None:
            raise ValueError("both context and cafile")
        if not _have_ssl:
            raise ValueError("SSL support not available")
        context = ssl.create_default_context(cafile=cafile, capath=capath)
    return context
'''

NO_SSL = "only when the `ssl` module cannot be imported (a Python built without OpenSSL)"


def _by_message(items: list[Item]) -> dict[str, dict[str, object]]:
    return {str(r["errorMessage"]): r for r, _ in items}


def test_import_words() -> None:
    assert import_words("ssl", False) == NO_SSL
    assert import_words("zlib", True) == "only when the `zlib` module can be imported"
    assert import_words("numpy", False) == "only when the `numpy` module cannot be imported"


def test_the_debug_flag_is_kept_in_the_trigger(tmp_path: Path) -> None:
    (tmp_path / "asyncio").mkdir()
    (tmp_path / "asyncio" / "__init__.py").write_text("")
    record = _by_message(one_file_items(tmp_path, "asyncio/selector_events.py", ASYNC))[
        "the socket must be non-blocking"
    ]
    trigger = str(record["triggerScenarios"])
    assert trigger.startswith(
        "Triggered only when the arguments passed to `BaseSelectorEventLoop.sock_recv()`"
        f" make `sock.gettimeout() != 0` true, and then {DEBUG_MODE}."
    )
    assert f"when `sock.gettimeout() != 0`, {DEBUG_MODE}." in str(record["documentation"])


def test_a_failed_import_flag_is_said(tmp_path: Path) -> None:
    found = _by_message(one_file_items(tmp_path, "request.py", REQUEST))
    record = found["SSL support not available"]
    assert f"when `cafile or capath or cadefault`, {NO_SSL}." in str(record["documentation"])
    assert str(record["triggerScenarios"]).startswith(
        "Triggered only when the arguments passed to `urlopen()` make "
        f"`(cafile or capath or cadefault)` true, and then {NO_SSL}."
    )
    # a condition over parameters alone is said as before
    assert "`context is not None`" in str(found["both context and cafile"]["documentation"])


@ON_311
def test_the_stdlib_records() -> None:
    found = {
        (r["filePath"], r["lineNumber"]): r
        for r, _ in stdlib_items("urllib/request.py", "asyncio/selector_events.py")
    }
    ssl = found["Lib/urllib/request.py", 201]
    assert NO_SSL in str(ssl["documentation"])
    assert NO_SSL in str(ssl["triggerScenarios"])
    sock = found["Lib/asyncio/selector_events.py", 485]
    assert f"and then {DEBUG_MODE}" in str(sock["triggerScenarios"])
    assert "(`sock` reaches the check unchanged)" not in str(sock["triggerScenarios"])
