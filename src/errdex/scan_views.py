"""What a cached scan compares for a package file read only in part (issue 13).

A view read (:mod:`errdex.extract.python.read_views`) is stored as the file's content
digest and a digest of the views taken: ``content|projection``. A re-scan compares the
content digest first (nothing to compute: the listing has it); only for a file whose
content changed is the projection made from its new text and compared, so an edit that
leaves what the package-wide searches found in that file alone (a function appended, a
line changed inside a body) re-extracts none of the files that searched it.

A module read by name (:mod:`errdex.extract.python.name_views`) is compared by the
statements that are not top-level functions and the functions looked up, each by its
text and its order among the module's statements (not its line numbers).

A needle or word view is taken only of a file that lacked it when searched (a file
holding it is read whole), so its projection at save is "absent"; the new text's must
say so too.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from pathlib import Path

from errdex.extract.python import text_store
from errdex.extract.python.name_views import is_name_view, module_views, view_atom
from errdex.extract.python.package_calls import package_text
from errdex.extract.python.read_views import CLASSES, DEFINED, MADE, STORES, split
from errdex.extract.python.self_stores import self_stores_by_class
from errdex.extract.python.text_facts import file_facts

__all__ = ["ViewDigests"]


def _digest(parts: list[str]) -> str:
    text = "\x00".join(parts).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(text, digest_size=16).hexdigest()


class ViewDigests:
    """View digests of one scan's package files under ``root``; ``stored``: the package
    texts' facts the cache keeps (loaded only when a file's facts are not at hand)."""

    def __init__(self, root: Path, stored: Callable[[], text_store.Stored]) -> None:
        self.root = root
        self._stored = stored
        self._loaded: text_store.Stored | None = None
        self._texts: dict[str, str | None] = {}
        self._atoms: dict[tuple[str, str], str] = {}
        self._same: dict[tuple[str, str, str | None], bool] = {}
        self._modules: dict[str, dict[str, str]] = {}

    def value(self, key: str, content: str | None) -> str | None:
        """What is stored for the view read ``key`` (content digest ``content``)."""
        found = split(key)
        assert found is not None, key
        if content is None:
            return None
        return f"{content}|{self._projection(found[0], found[1], absent=True)}"

    def unchanged(self, key: str, stored: str | None, content: str | None) -> bool:
        """Whether the views of ``key`` are as ``stored`` says, the file's content digest
        being ``content`` now."""
        memo = (key, stored or "", content)
        if memo not in self._same:
            found = split(key)
            assert found is not None, key
            if stored is None or content is None:
                same = stored is None and content is None
            else:
                was, _, projection = stored.partition("|")
                same = was == content or projection == self._projection(*found, absent=False)
            self._same[memo] = same
        return self._same[memo]

    def _text(self, rel: str) -> str | None:
        if rel not in self._texts:
            self._texts[rel] = package_text(self.root / rel)
        return self._texts[rel]

    def _projection(self, rel: str, views: list[str], absent: bool) -> str:
        text = self._text(rel)
        if text is None:
            return "none"
        parts = [
            self._atom(rel, text, v)
            if v in MADE
            else view_atom(self._names(rel, text), v)
            if is_name_view(v)
            else v
            for v in views
        ]
        if not absent:  # a needle or word the file now holds: read whole it would be
            parts = [p + "!" if _holds(text, p) else p for p in parts]
        return _digest(parts)

    def _atom(self, rel: str, text: str, view: str) -> str:
        if (rel, view) not in self._atoms:
            if view in (STORES, DEFINED, CLASSES):
                stores, defined, classes = self._facts(rel, text)
                shown = repr(
                    sorted(stores.items())
                    if view == STORES
                    else sorted(defined)
                    if view == DEFINED
                    else classes
                )
            else:
                by_class = self_stores_by_class(text)
                shown = repr(sorted((c, sorted(n.items())) for c, n in by_class.items()))
            self._atoms[(rel, view)] = view + _digest([shown])
        return self._atoms[(rel, view)]

    def _names(self, rel: str, text: str) -> dict[str, str]:
        """The views of a module read by name (:mod:`.name_views`), made once."""
        if rel not in self._modules:
            self._modules[rel] = module_views(rel, text)
        return self._modules[rel]

    def _facts(self, rel: str, text: str) -> text_store.FileFacts:
        """The file's facts: the process's or the cache's when at hand, else made."""
        with text_store.keeping(self._load):
            return file_facts(rel, text)

    def _load(self) -> text_store.Stored:
        if self._loaded is None:
            self._loaded = self._stored()
        return self._loaded


def _holds(text: str, view: str) -> bool:
    kind, _, what = view.partition(":")
    if kind == "n":
        return what in text
    if kind == "w":
        return re.search(rf"\b{re.escape(what)}\b", text) is not None
    return False
