"""Where no public call reaches a raise, commonSituations says how it is still reached
when the record's evidence shows it: a function a public one returns, an object's
``__del__``, a module run as a program (read-only review, session 39: "Which public call
leads here is not known …" was false of each)."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.unknown_way import UNKNOWN_WAY
from errdex.scan import scan_checkout
from errdex.source import open_source

WSGI = '''\
def validator(app):
    """Wrap app in checks."""
    def lint_app(*args, **kw):
        if len(args) != 2:
            raise TypeError("Two arguments required")
        return app(*args)
    return lint_app


class Resource:
    def __init__(self):
        self.fd = None

    def _close(self):
        if self.fd is None:
            raise OSError("not open")
        self.fd = None

    def __del__(self):
        self._close()


def _check(name):
    if not name:
        raise ValueError("empty name")
    return name


def _main():
    import sys
    print(_check(sys.argv[1]))


def _orphan(x):
    if x:
        raise KeyError("orphan")


if __name__ == "__main__":
    _main()
'''


def situations(root: Path, name: str, text: str) -> dict[str, str]:
    """commonSituations by message of ``pkg/<name>`` holding ``text``, with a test file
    that links none of it (so the sentence is the one for an unseen site)."""
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / name).write_text(text)
    (root / "tests").mkdir()
    (root / "tests" / "test_x.py").write_text("def test_x():\n    assert True\n")
    result = scan_checkout(open_source(str(root), repo="o/pkg"), repo="o/pkg")
    return {r["errorMessage"]: r["commonSituations"] for r, _ in result.items}


def test_each_known_end_is_said(tmp_path: Path) -> None:
    """``lint_app`` is what ``validator()`` returns (``evidence.handedOut``);
    ``_close`` runs only from ``__del__``, whose exception Python prints and drops;
    ``_check`` only from the ``_main`` the ``__main__`` block calls. A helper nothing
    calls keeps the short not-known sentence, with no reasons that were not checked."""
    said = situations(tmp_path, "wsgi.py", WSGI)
    assert said["Two arguments required"] == (
        "It comes from calling the function `validator()` returns (`lint_app`)."
    )
    assert said["not open"] == (
        "It is raised when a `Resource` object is garbage-collected (`Resource.__del__`): "
        'Python prints it as "Exception ignored in" and no caller sees it.'
    )
    assert said["empty name"] == (
        "It comes from running the module `pkg.wsgi` as a program (`python -m pkg.wsgi`): its "
        '`if __name__ == "__main__":` block calls `_main()`.'
    )
    assert said["'orphan'"] == UNKNOWN_WAY
    assert "callback" not in UNKNOWN_WAY
