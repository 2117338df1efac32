"""Where errdex can state no requirement, a mistake of the calling code gets the handler
as its fix, named by the class's public path, instead of the filler "errdex found no fix
it can state in the caller's terms" (blind review stop 39: misleading every time)."""

from __future__ import annotations

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

LIBRARY = """\
class Response:
    def __init__(self):
        self._request = None
        self._text = None

    @property
    def request(self):
        if self._request is None:
            raise RuntimeError("The request instance has not been set on this response.")
        return self._request



def params(*args):
    if len(args) >= 2:
        raise ValueError("too many params were given here")
    return args


def url(query):
    return params(query)
"""

PRIVATE = """\
class _Hidden(ValueError):
    pass


def check(x):
    if x.flag:
        raise _Hidden("hidden flag was set on the object")
"""


@pytest.fixture(scope="module")
def solutions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    root = tmp_path_factory.mktemp("catch")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text(
        "from .models import Response, params, url\nfrom .hidden import check\n"
    )
    (root / "pkg" / "models.py").write_text(LIBRARY)
    (root / "pkg" / "hidden.py").write_text(PRIVATE)
    result = scan_checkout(open_source(str(root), repo="o/pkg"), repo="o/pkg")
    return {r["errorMessage"]: r["solutions"] for r, _ in result.items}


def test_a_property_is_read_not_called(solutions: dict[str, list[str]]) -> None:
    got = solutions["The request instance has not been set on this response."]
    assert got == [
        "Catch `RuntimeError` around the read of `Response.request` where the program must "
        "go on after it."
    ]
    # a private class is no path a caller imports: no catch of it is offered
    assert not any("Catch `_Hidden`" in s for s in solutions["hidden flag was set on the object"])


def test_the_raising_call_itself_where_a_caller_calls_it(solutions: dict[str, list[str]]) -> None:
    # ``url()`` passes one argument only: the handler goes around ``params()`` itself
    (text,) = solutions["too many params were given here"]
    assert text.startswith("Catch `ValueError` around the call to `params()`"), text
