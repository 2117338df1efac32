"""Glob patterns for ``include``/``exclude`` on relative posix paths.

fnmatch semantics (``*`` may cross ``/``) plus three conveniences users
expect from gitignore-style tools: ``**/`` also matches no folder at all,
a pattern matching a folder covers everything below it, and a pattern
without ``/`` (``tests``, ``*_pb2.py``) matches a name at any depth.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Glob", "GlobSet"]


def _translate(pattern: str) -> str:
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if c == "*":
            while i < n and pattern[i] == "*":
                i += 1
            out.append(".*")
            continue
        if c == "?":
            out.append("[^/]")
        elif c == "[":
            j = pattern.find("]", i + 2 if pattern[i + 1 : i + 2] in ("!", "]") else i + 1)
            if j < 0:
                out.append(re.escape(c))
            else:
                body = pattern[i + 1 : j]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = j
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


@dataclass(frozen=True)
class Glob:
    """One compiled pattern."""

    pattern: str
    regex: re.Pattern[str]
    anywhere: bool  # no '/' in the pattern: match single names at any depth
    dir_only: bool  # trailing '/': match folders only
    literal_prefix: str  # text before the first wildcard, to prune the walk

    @classmethod
    def compile(cls, pattern: str) -> Glob:
        """Compile ``pattern``; a leading ``/`` or ``./`` anchors at the root and is dropped."""
        pat = pattern.strip().replace("\\", "/")
        pat = pat.removeprefix("./").lstrip("/")
        dir_only = pat.endswith("/")
        pat = pat.rstrip("/")
        wild = re.search(r"[*?\[]", pat)
        prefix = pat[: wild.start()] if wild else pat
        return cls(
            pattern=pattern,
            regex=re.compile(_translate(pat), re.DOTALL),
            anywhere="/" not in pat,
            dir_only=dir_only,
            literal_prefix=prefix,
        )

    def matches(self, rel: str, *, is_dir: bool = False) -> bool:
        """Whether ``rel`` (a file, or a folder when ``is_dir``) or a folder above it matches."""
        parts = rel.split("/")
        last = len(parts) if is_dir else len(parts) - 1  # parts[:last] are folders
        if self.anywhere:
            return any(
                self.regex.fullmatch(part)
                for k, part in enumerate(parts)
                if not self.dir_only or k < last
            )
        full = self.regex.fullmatch
        if (not self.dir_only or is_dir) and full(rel):
            return True
        return any(full("/".join(parts[:k])) for k in range(1, len(parts)))

    def names_folder(self, rel_dir: str) -> bool:
        """Whether the pattern names folder ``rel_dir``: as one of its literal segments
        (``build``, ``**/build/*.py``) or in its literal start (``build/**``)."""
        name = rel_dir.rsplit("/", 1)[-1]
        if name in self.pattern.strip().replace("\\", "/").split("/"):
            return True
        if self.anywhere:
            return False
        return (self.literal_prefix + "/").startswith(rel_dir + "/")

    def may_match_below(self, rel_dir: str) -> bool:
        """Whether some path under folder ``rel_dir`` could match (False lets the walk prune)."""
        if self.anywhere:
            return True
        prefix = self.literal_prefix
        return (rel_dir + "/").startswith(prefix) or prefix.startswith(rel_dir + "/")


class GlobSet:
    """Several patterns; a path matches when any of them does."""

    def __init__(self, patterns: Sequence[str]) -> None:
        if isinstance(patterns, str):  # a lone string would be read as characters
            patterns = [patterns]
        self.globs = tuple(Glob.compile(p) for p in patterns if p.strip())

    def __bool__(self) -> bool:
        return bool(self.globs)

    def matches(self, rel: str, *, is_dir: bool = False) -> bool:
        """Whether any pattern matches ``rel`` or a folder above it."""
        return any(g.matches(rel, is_dir=is_dir) for g in self.globs)

    def names_folder(self, rel_dir: str) -> bool:
        """Whether any pattern names folder ``rel_dir`` (see ``Glob.names_folder``)."""
        return any(g.names_folder(rel_dir) for g in self.globs)

    def may_match_below(self, rel_dir: str) -> bool:
        """Whether any pattern could match something under ``rel_dir``."""
        return any(g.may_match_below(rel_dir) for g in self.globs)
