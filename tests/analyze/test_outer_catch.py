"""The catch advice names the package's outermost exported call above the entry point."""

from __future__ import annotations

from pathlib import Path

from errdex.scan import scan_checkout
from errdex.source import open_source

_FILES = {
    "__init__.py": "from .api import get, safe_get\n",
    "api.py": (
        "from .adapters import ProxyError\n"
        "from .sessions import Session\n"
        "\n\n"
        "def get(url):\n"
        "    session = Session()\n"
        "    return session.request(url)\n"
        "\n\n"
        "def safe_get(url):\n"
        "    try:\n"
        "        return get(url)\n"
        "    except ProxyError:\n"
        "        return None\n"
    ),
    "sessions.py": (
        "from .adapters import HTTPAdapter\n"
        "\n\n"
        "class Session:\n"
        "    def request(self, url):\n"
        "        return self.send(url)\n"
        "\n"
        "    def send(self, url):\n"
        "        adapter = HTTPAdapter()\n"
        "        return adapter.send(url)\n"
    ),
    "adapters.py": (
        "class ProxyError(Exception):\n"
        "    pass\n"
        "\n\n"
        "class HTTPAdapter:\n"
        "    def send(self, url):\n"
        "        try:\n"
        "            return self.connect(url)\n"
        "        except OSError as exc:\n"
        "            raise ProxyError('proxy failed') from exc\n"
        "\n"
        "    def connect(self, url):\n"
        "        raise OSError(url)\n"
    ),
}


def test_the_catch_goes_around_the_packages_own_call_not_the_adapter(tmp_path: Path) -> None:
    """Stop 39: "catch ProxyError around the call to `HTTPAdapter.send()`" (users call
    ``requests.get``). The three nearest entry points stay; the handler goes around
    ``pkg.get()``, not ``safe_get``, whose ``try`` catches the class on the way."""
    package = tmp_path / "pkg"
    package.mkdir()
    for name, text in _FILES.items():
        (package / name).write_text(text)
    items = scan_checkout(open_source(str(tmp_path), repo="o/m"), repo="o/m").items
    ((record, evidence),) = [(r, e) for r, e in items if r["errorMessage"] == "proxy failed"]
    assert [e["qualname"] for e in evidence["entryPoints"]] == [
        "pkg.adapters.HTTPAdapter.send",
        "pkg.sessions.Session.send",
        "pkg.sessions.Session.request",
    ]
    assert evidence["entryPoints"][1]["catchAround"] == "pkg.api.get"  # the advice's evidence
    (solution,) = record["solutions"]
    assert "around the call to `pkg.get()`" in solution
    assert "safe_get" not in solution
