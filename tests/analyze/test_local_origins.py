"""A condition over a local the prose cannot restate says which parameters the local
was made from (``urllib.request._parse_proxy``'s ``r_scheme``; paired blind review,
stop 36)."""

from __future__ import annotations

import ast
from pathlib import Path

from errdex.analyze.local_origins import made_from
from errdex.scan import scan_checkout
from errdex.source import open_source

from .stdlib_items import one_file_items

PROXY = """\
def _splittype(url):
    a, _, b = url.partition(":")
    return a, b


def parse_proxy(proxy, strict):
    scheme, r_scheme = _splittype(proxy)
    for part in r_scheme.split("/"):
        strict = strict or part
    if r_scheme.startswith("/") and not r_scheme.startswith("//"):
        raise ValueError("proxy URL with no authority: %r" % proxy)
    return scheme
"""


def test_the_local_is_said_as_made_from_the_parameter(tmp_path: Path) -> None:
    items = one_file_items(tmp_path, "prox.py", PROXY)
    (record,) = [r for r, _ in items if r["lineNumber"] == 11]
    assert "with `r_scheme` made from what was passed as `proxy`" in record["triggerScenarios"]
    assert "with `r_scheme` made from what was passed as `proxy`" in record["documentation"]


def test_only_a_local_bound_once_before_the_raise() -> None:
    tree = ast.parse(PROXY)
    func = tree.body[1]
    found = made_from(func, 11, {"proxy", "strict"})
    assert found == {"scheme": ["proxy"], "r_scheme": ["proxy"]}  # ``part``: a loop's
    assert made_from(func, 7, {"proxy", "strict"}) == {}  # bound at 7: not before it


REBOUND = """\
DEFAULT = "a:b"


def _split(text):
    return text.partition(":")[0]


def first(proxy=None):
    proxy = DEFAULT
    scheme = _split(proxy)
    if scheme.startswith("/"):
        raise ValueError("first")


def second(proxy, others):
    for other in others:
        scheme = _split(proxy)
        if scheme.startswith("/"):
            raise ValueError("second")
        proxy = other


def third(proxy):
    scheme = _split(proxy)
    try:
        pass
    except Exception as scheme:
        pass
    if scheme.startswith("/"):
        raise ValueError("third")
"""


def test_a_parameter_rebound_or_a_loop_store_is_no_origin(tmp_path: Path) -> None:
    """``proxy = DEFAULT`` makes ``scheme`` no longer made from what was passed; a store
    in a loop (``size -= length`` in tarfile) nor one an ``except … as`` rebinds either
    (re-reader, stop 38)."""
    items = one_file_items(tmp_path, "reb.py", REBOUND)
    said = {r["lineNumber"]: r["triggerScenarios"] for r, _ in items}
    assert set(said) >= {12, 19, 30}
    assert all("made from what was passed" not in said[n] for n in (12, 19, 30))
    tree = ast.parse(REBOUND)
    assert made_from(tree.body[2], 12, {"proxy"}) == {}
    assert made_from(tree.body[3], 19, {"proxy", "others"}) == {}
    assert made_from(tree.body[4], 30, {"proxy"}) == {}


CONNECT = '''\
def connect(host, sock=None):
    """Connect."""
    if host is not None:
        exceptions = []
        for attempt in range(3):
            try:
                sock = attempt_once(exceptions, host)
                break
            except OSError:
                continue
        if sock is None:
            if len(exceptions) == 1:
                raise exceptions[0]
            raise OSError("many")
    return sock


def attempt_once(exceptions, host):
    try:
        return open(host)
    except OSError as exc:
        exceptions.append(exc)
        raise
'''


def test_names_the_function_binds_are_said_to_be_its_own(tmp_path: Path) -> None:
    """``asyncio``'s ``create_connection``: "the arguments passed make `host is not None`
    true, and then when `sock is None` and `len(exceptions) == 1`" read the locals as
    arguments (stop-39 differing review: misleading)."""
    (tmp_path / "net.py").write_text(CONNECT)
    result = scan_checkout(open_source(str(tmp_path), repo="o/t"), repo="o/t")
    (record,) = [r for r, _ in result.items if r["lineNumber"] == 13]
    assert (
        "when `sock is None` and `len(exceptions) == 1`, where `exceptions` is a local of"
        " `connect` (bound at line 4) and `sock` is also bound inside `connect` (line 7)"
    ) in record["triggerScenarios"], record["triggerScenarios"]


GLOBALS = """\
state = None
sock = None


def connect(host):
    global state
    if host is not None:
        state = probe(host)
        if state is None:
            raise OSError("none")
    return 1


def connect3(host):
    if host is not None:
        x = [sock for sock in host.items]
        if sock is None and x:
            raise OSError("none")
    return 1
"""


def test_a_global_or_a_comprehension_s_name_is_no_local(tmp_path: Path) -> None:
    """``global state`` makes ``state`` the module's, and only the comprehension binds
    its ``sock``: the test reads the module's (rr5, f7.py and f12.py)."""
    (tmp_path / "net.py").write_text(GLOBALS)
    result = scan_checkout(open_source(str(tmp_path), repo="o/t"), repo="o/t")
    by_line = {r["lineNumber"]: r["triggerScenarios"] for r, _ in result.items}
    assert "when `state is None`" in by_line[10], by_line[10]
    assert "a local of" not in by_line[10], by_line[10]
    assert "`sock` is a local" not in by_line[18], by_line[18]
