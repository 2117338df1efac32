"""Which functions are entry points (:mod:`errdex.analyze.entrypoints`)."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.chains import Chains
from errdex.analyze.classes import ClassTree
from errdex.analyze.entrypoints import PublicApi, entry_points
from errdex.analyze.repo import build_index
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


def test_a_del_method_is_no_entry_point_of_an_exception(tmp_path: Path) -> None:
    # the interpreter prints what ``__del__`` raises and drops it: no caller sees it;
    # ``__exit__`` (a ``with`` block's end) lets it out
    (tmp_path / "arc.py").write_text(_ARCHIVE)
    index = build_index(open_source(str(tmp_path), repo="o/m"), library_files=["arc.py"])
    chains, api = Chains(index, ClassTree(index)), PublicApi(index)
    found = entry_points(index, chains, api, "arc.Archive.close")
    assert [e["qualname"] for e in found] == ["arc.Archive.close", "arc.Archive.__exit__"]
    # a warning ``__del__`` gives is shown: finalizing the object is how users get it
    found = entry_points(index, chains, api, "arc.Stream.__del__", catchable=False)
    assert [e["qualname"] for e in found] == ["arc.Stream.__del__"]
