"""Exception classes as tracebacks print them, against the classes sites raise.

A traceback prints ``type.__module__ + "." + __qualname__``: ``re.error``,
``configparser.DuplicateOptionError``, ``_csv.Error`` (defined in C, documented as
``csv.Error``), ``jax.errors.ConcretizationTypeError`` (defined in ``jax._src.errors``,
its ``__module__`` set to the public one). A site's record names the short class
(``errorClass``) and, where imports resolve it, the defining one
(``evidence.site.qualifiedClass``); the repository's hierarchy comes from what the
analyst stored about each raised class (``evidence.classInfo``: its bases, and all its
ancestors when recorded).

Two names are the same class when, past the known aliases, their top-level package
and short name agree (a class re-exported through a public module keeps both). The
relation is then read along the repository's own bases and the builtin hierarchy.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Literal

__all__ = ["ALIASES", "ClassResolver", "Relation", "canonical_class", "foreign_subclass"]

#: Answers remembered per resolver before the memo starts over.
_MEMO_LIMIT = 1 << 16
Relation = Literal["same", "subclass", "superclass", "namesake", "unrelated", "unknown"]

_BUILTIN_TYPES: dict[str, type] = {
    name: obj
    for name, obj in vars(builtins).items()
    if isinstance(obj, type) and issubclass(obj, BaseException)
}

#: Public names of one class, as tracebacks and documentation spell them -> one name.
ALIASES: dict[str, str] = {
    # re's error moved modules and was renamed (3.13: re.PatternError)
    "re.PatternError": "re.error",
    "re._constants.error": "re.error",
    "sre_constants.error": "re.error",
    # OSError's old names (PEP 3151), and TimeoutError's (3.10 socket, 3.11 asyncio/futures)
    "IOError": "builtins.OSError",
    "EnvironmentError": "builtins.OSError",
    "socket.error": "builtins.OSError",
    "select.error": "builtins.OSError",
    "os.error": "builtins.OSError",
    "socket.timeout": "builtins.TimeoutError",
    "asyncio.TimeoutError": "builtins.TimeoutError",
    "asyncio.exceptions.TimeoutError": "builtins.TimeoutError",
    "concurrent.futures.TimeoutError": "builtins.TimeoutError",
    "concurrent.futures._base.TimeoutError": "builtins.TimeoutError",
    "json.JSONDecodeError": "json.decoder.JSONDecodeError",
    # C modules whose public twin is not their name without the underscore
    "xml.parsers.expat.ExpatError": "pyexpat.ExpatError",
    "xml.parsers.expat.error": "pyexpat.ExpatError",
    "pyexpat.error": "pyexpat.ExpatError",
}


@lru_cache(maxsize=4096)
def canonical_class(name: str) -> str:
    """One spelling per class: ``ValueError`` -> ``builtins.ValueError``, ``re.PatternError``
    -> ``re.error``, ``_csv.Error`` -> ``csv.Error`` (a C module's public twin)."""
    name = name.strip()
    name = ALIASES.get(name, name)
    if "." not in name:
        return f"builtins.{name}" if name in _BUILTIN_TYPES else name
    head, _, rest = name.partition(".")
    if head == "exceptions" and rest in _BUILTIN_TYPES:  # Python 2's spelling
        return f"builtins.{rest}"
    if head.startswith("_") and not head.startswith("__") and len(head) > 1:
        name = f"{head[1:]}.{rest}"  # _csv.Error is csv.Error, _socket.gaierror is socket's
        name = ALIASES.get(name, name)
    return name


def _key(canonical: str) -> tuple[str, str]:
    """(top-level package, short name): what survives re-export through a public module."""
    head, _, rest = canonical.partition(".")
    short = canonical.rpartition(".")[2]
    return (head if rest else "", short)


class ClassResolver:
    """Answers how a pasted class relates to the class a site raises."""

    def __init__(self, bases: Mapping[str, Sequence[str]]) -> None:
        # the hierarchy by (package, short name), so that a re-exported name finds it
        self._bases: dict[tuple[str, str], set[tuple[str, str]]] = {}
        for cls, above in bases.items():
            found = self._bases.setdefault(_key(canonical_class(cls)), set())
            found.update(_key(canonical_class(b)) for b in above if b)
        self._memo: dict[tuple[str, str], frozenset[tuple[str, str]]] = {}
        # ranking asks once per candidate, for few distinct (pasted, site class) pairs
        self._relations: dict[tuple[str, str, str | None], Relation] = {}

    @classmethod
    def from_class_infos(cls, infos: Iterable[Mapping[str, object]]) -> ClassResolver:
        """From ``evidence.classInfo`` objects: their bases, and ancestors where stored."""
        bases: dict[str, list[str]] = {}
        for info in infos:
            name = info.get("qualified")
            if not isinstance(name, str):
                continue
            for field in ("bases", "ancestors"):
                value = info.get(field)
                if isinstance(value, list):
                    bases.setdefault(name, []).extend(v for v in value if isinstance(v, str))
        return cls(bases)

    def ancestors(self, canonical: str) -> frozenset[tuple[str, str]]:
        """The class and every class above it, as (package, short name)."""
        return self._ancestors(_key(canonical), canonical)

    def _ancestors(self, key: tuple[str, str], canonical: str) -> frozenset[tuple[str, str]]:
        found = self._memo.get(key)
        if found is not None:
            return found
        self._memo[key] = frozenset({key})  # cycles stop here
        out = {key}
        if key[0] == "builtins":
            builtin = _BUILTIN_TYPES.get(key[1])
            if builtin is not None:
                out.update(("builtins", k.__name__) for k in builtin.__mro__ if k is not object)
        for base in self._bases.get(key, ()):
            out |= self._ancestors(base, "")
        found = self._memo[key] = frozenset(out)
        return found

    def relation(self, pasted: str, recorded: str, qualified: str | None = None) -> Relation:
        """How the pasted class relates to the site's (its short ``recorded`` name and,
        when known, the ``qualified`` one it resolves to)."""
        asked = (pasted, recorded, qualified)
        found = self._relations.get(asked)
        if found is None:
            if len(self._relations) >= _MEMO_LIMIT:
                self._relations.clear()
            found = self._relations[asked] = self._relation(pasted, recorded, qualified)
        return found

    def _relation(self, pasted: str, recorded: str, qualified: str | None) -> Relation:
        p = canonical_class(pasted)
        r = canonical_class(qualified if qualified and "." in qualified else recorded)
        pk, rk = _key(p), _key(r)
        if pk == rk:
            return "same"
        if pk[1] == rk[1] and not (pk[0] and rk[0]):
            return "same"  # the paste printed the short name only, or the site's is unresolved
        if pk[1] == rk[1] and pk[0] and rk[0]:
            # the same short name in two packages: another class, unless one of them
            # derives from the other (a re-export that subclasses)
            if pk in self._ancestors(rk, r):
                return "subclass"
            if rk in self._ancestors(pk, p):
                return "superclass"
            return "namesake"
        if pk[0] == "" and pk[1] != rk[1]:
            pk = ("builtins", pk[1]) if pk[1] in _BUILTIN_TYPES else pk
        if self._matches(pk, self._ancestors(rk, r)):
            return "subclass"  # the site raises a subclass of the class pasted
        if self._matches(rk, self._ancestors(pk, p)):
            return "superclass"  # the paste names a subclass of the site's class
        known = rk in self._bases or rk[0] == "builtins"
        return "unrelated" if known or pk[0] == "builtins" else "unknown"

    @staticmethod
    def _matches(key: tuple[str, str], ancestors: frozenset[tuple[str, str]]) -> bool:
        """``key`` is among ``ancestors``; an unqualified name matches any package's."""
        if key in ancestors:
            return True
        return key[0] == "" and any(a[1] == key[1] for a in ancestors)


def foreign_subclass(pasted: str, recorded: str, qualified: str | None, site_path: str) -> bool:
    """Whether the paste names a subclass defined in another package than the site's.

    ``attr.exceptions.FrozenInstanceError`` derives from ``AttributeError``, but a site in
    ``Lib/types.py`` that raises ``AttributeError`` cannot have raised attrs' class: a
    subclass is only the site's when its package is the site's own (its file's, or its
    class's), where the repository's hierarchy can make one stand for the other.
    """
    head, dot, _ = canonical_class(pasted).partition(".")
    if not dot or head == "builtins":
        return False
    site_class = canonical_class(qualified if qualified and "." in qualified else recorded)
    if site_class.partition(".")[0] == head:
        return False
    return _path_package(site_path) != head


def _path_package(path: str) -> str:
    """``src/click/core.py`` -> ``click``; ``Lib/types.py`` -> ``types``."""
    parts = [p for p in path.replace("\\", "/").split("/") if p]
    if len(parts) > 1 and parts[0] in ("src", "Lib", "lib"):
        parts = parts[1:]
    return parts[0].removesuffix(".py") if parts else ""
