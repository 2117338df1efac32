"""Which functions are entry points (:mod:`errdex.analyze.entrypoints`)."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.chains import Chains
from errdex.analyze.classes import ClassTree
from errdex.analyze.entrypoints import PublicApi, entry_points
from errdex.analyze.repo import RepoIndex, build_index
from errdex.source import open_source

_ARCHIVE = (
    "import warnings\n"
    "\n"
    "class Archive:\n"
    "    def close(self):\n"
    "        if self.mode == 'w':\n"
    "            raise ValueError('cannot write the end record')\n"
    "    def __del__(self):\n"
    "        self.close()\n"
    "    def __exit__(self, *exc):\n"
    "        self.close()\n"
    "\n"
    "class Stream:\n"
    "    def __del__(self):\n"
    "        if not self.closed:\n"
    "            warnings.warn('unclosed stream', ResourceWarning)\n"
)


def _parts(tmp_path: Path, name: str, text: str) -> tuple[RepoIndex, Chains, PublicApi]:
    (tmp_path / name).write_text(text)
    index = build_index(open_source(str(tmp_path), repo="o/m"), library_files=[name])
    return index, Chains(index, ClassTree(index)), PublicApi(index)


def test_a_del_method_is_no_entry_point_of_an_exception(tmp_path: Path) -> None:
    # the interpreter prints what ``__del__`` raises and drops it: no caller sees it;
    # ``__exit__`` (a ``with`` block's end) lets it out
    index, chains, api = _parts(tmp_path, "arc.py", _ARCHIVE)
    found = entry_points(index, chains, api, "arc.Archive.close")
    assert [e["qualname"] for e in found] == ["arc.Archive.close", "arc.Archive.__exit__"]
    # a warning ``__del__`` gives is shown: finalizing the object is how users get it
    found = entry_points(index, chains, api, "arc.Stream.__del__", catchable=False)
    assert [e["qualname"] for e in found] == ["arc.Stream.__del__"]


_FRONT = (
    '__all__ = ["match", "search", "sub", "compile", "findall"]\n'
    "\n"
    "def _compile(pattern):\n"
    "    if not pattern:\n"
    "        raise ValueError('empty pattern')\n"
    "\n"
    "def compile(pattern):\n"
    "    return _compile(pattern)\n"
    "\n"
    "def findall(pattern, text):\n"
    "    return _compile(pattern)\n"
    "\n"
    "def helper(pattern):\n"
    "    return _compile(pattern)\n"
    "\n"
    "def match(pattern, text):\n"
    "    return _compile(pattern)\n"
    "\n"
    "def search(pattern, text):\n"
    "    return _compile(pattern)\n"
    "\n"
    "def sub(pattern, repl, text):\n"
    "    return _compile(pattern)\n"
)
#: ``findall`` called once by the library itself: used more, shown sooner.
_USED = _FRONT + "\ndef words(text):\n    return findall('\\\\w+', text)\n"


def test_equally_near_entry_points_by_use_then_the_order_of_all(tmp_path: Path) -> None:
    # five exported functions and one public but unlisted call ``_compile`` directly: the
    # module's ``__all__`` says which it puts first (``re`` lists match, fullmatch, search
    # before compile and findall); alphabetical order showed compile, findall, helper.
    # One the library calls itself comes before those it never calls
    found = entry_points(*_parts(tmp_path, "rx.py", _FRONT), "rx._compile")
    assert [e["qualname"] for e in found] == ["rx.match", "rx.search", "rx.sub"]
    found = entry_points(*_parts(tmp_path, "rx.py", _USED), "rx._compile")
    assert [e["qualname"] for e in found] == ["rx.findall", "rx.match", "rx.search"]
