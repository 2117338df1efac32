"""Calls through a name an import binds per platform: ``os.path.join`` is ``posixpath.join``
on POSIX systems and ``ntpath.join`` on Windows, as ``os.py``'s own ``if 'posix' in
_names: import posixpath as path`` / ``elif 'nt' in _names: import ntpath as path`` runs.

The call graph resolves such a call to what this interpreter's platform binds
(:attr:`ModuleFacts.imports`); the chains to a raise follow each platform's module, and
say on which platform the call goes there (``EntryPoint.definedOn``), so that neither a
POSIX chain names ``ntpath`` nor a Windows one is lost.
"""

from __future__ import annotations

from .facts import CallRef, FuncFacts
from .repo import RepoIndex

__all__ = ["PlatformBinds"]


class PlatformBinds:
    """The repository's per-platform import bindings, and the calls made through them."""

    def __init__(self, index: RepoIndex) -> None:
        self.index = index
        #: ``os.path`` -> ((``posixpath``, "on POSIX systems …"), (``ntpath``, "on Windows")).
        self.bound: dict[str, tuple[tuple[str, str], ...]] = {}
        for facts in index.modules.values():
            for name, choices in facts.platform_imports.items():
                key = f"{facts.name}.{name}" if facts.name else name
                self.bound[key] = tuple((module, on) for on, module in choices.items())

    def targets(self, func: FuncFacts, ref: CallRef) -> list[tuple[str, str]]:
        """(function, platform in words) for each platform's binding a call goes through;
        empty when the call names no name bound per platform."""
        if not self.bound or not ref or not ref[0]:
            return []
        dotted = self._dotted(func, ref)
        if dotted is None:
            return []
        out: list[tuple[str, str]] = []
        for key, choices in self.bound.items():
            if not dotted.startswith(key + "."):
                continue
            rest = dotted[len(key) :]
            for module, on in choices:
                target = self.index.resolve_qualified(module + rest)
                if target is not None and target.kind == "function":
                    out.append((target.qualname, on))
        return out

    def _dotted(self, func: FuncFacts, ref: CallRef) -> str | None:
        """The call's name as its module's imports spell it (``os.path.join``)."""
        head, rest = ref[0], ref[1:]
        if head in func.local_imports:
            return ".".join((func.local_imports[head], *rest))
        facts = self.index.modules.get(func.module)
        if facts is None or head in facts.top:
            return None
        if head in facts.platform_imports:  # ``os`` itself calling ``path.split``
            return ".".join((func.module, *ref)) if func.module else ".".join(ref)
        if head in facts.imports:
            return ".".join((facts.imports[head], *rest))
        return None
