"""The call a handler goes around: the outermost call of the package's exported API above
an entry point, on the same exact chains.

Blind review of stop 39: "catch ProxyError around the call to `HTTPAdapter.send()`"
(users call ``requests.get``/``Session.request``), "around the call to
`BaseLoader.load()`" (users call ``env.get_template``) were judged misleading. The three
nearest entry points stay as they are; only the call the catch advice names, where the
nearest is not exported itself (``HTTPAdapter.send``), moves up to the outermost function of the same top-level package that the package exports (its
``__init__`` re-exports it or an ``__all__`` lists it, or its class), reached from the
entry point through calls errdex resolved exactly, with the class leaving it unconverted
and ungated, by no function that reaches it only under a condition of its parameters and
by no generator or coroutine (:mod:`.outer_ways`). A caller whose handler catches the class ends the walk
(:meth:`.chains.Chains.walk`), so no ``try`` in between catches it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from errdex.evidence import EntryPoint

from .chain_parts import Hop
from .chains import Chains
from .entry_receivers import called_by_name
from .entrypoints import FAR_DEPTH, PublicApi, run_by_syntax
from .outer_ways import lazy_on_way, needs_on_way
from .param_requirement import call_name
from .repo import RepoIndex
from .type_only import runtime_imports

__all__ = ["OUTER_DEPTH", "outer_calls"]

#: How far above the raise the walk looks for the package's exported call (the far walk
#: of :func:`.entrypoints.entry_points`, whose result is often memoised already).
OUTER_DEPTH = FAR_DEPTH


def outer_calls(
    index: RepoIndex,
    chains: Chains,
    api: PublicApi,
    function: str,
    found: Sequence[EntryPoint],
    how: Mapping[str, Any],
) -> dict[str, str]:
    """Entry point qualname -> the outermost exported call above it, as a caller writes
    it (``requests.get()``, ``Environment.get_template()``); only for entry points that
    have one further up and let the class out as raised. Each such entry point gets the
    call's qualname as ``catchAround``: the evidence of the advice."""
    plain = [
        e
        for e in found
        if not e.get("surfacesAs")
        and not e.get("reraisedIn")
        # an exported entry point is a call users make as it is: ``tomllib.loads`` is
        # no step of ``tomllib.load``, nor ``NNTP()`` of ``NNTP_SSL()``
        and not _exported(api, e["qualname"])
    ]
    if not plain:
        return {}
    hops = chains.walk(function, max_depth=OUTER_DEPTH, **how).hops
    below = chains.subclasses()
    out: dict[str, str] = {}
    for entry in plain:
        name = entry["qualname"]
        depth = entry.get("depth", 0)
        top = name.split(".")[0]
        above = [
            h
            for h in hops
            if h.depth > depth
            and name in h.via
            and h.qualname.split(".")[0] == top
            and _plain(h)
            and _exported(api, h.qualname)
            and called_by_name(index, h, below)
            and not needs_on_way(hops, h, name)  # ``get_strict(url, strict=False)``
            # its call gives a generator or coroutine (``pkg.pages()``), or the entry's does
            and not lazy_on_way(index, function, entry, h)
        ]
        if above:
            best = max(above, key=lambda h: (h.depth, _neg(api.order(h.qualname, 0))))
            out[name] = written(index, api, best.qualname)
            entry["catchAround"] = best.qualname
    return out


def _neg(order: tuple[int, int, int, str]) -> tuple[int, int, int]:
    return (-order[0], -order[1], -order[2])


def _plain(hop: Hop) -> bool:
    """The class leaves it as raised, by calls, under no condition of a handler."""
    return hop.conversion is None and hop.gate is None and not hop.handed and not hop.when


def _exported(api: PublicApi, qualname: str) -> bool:
    """Part of the package's exported API: users call it, and the package names it (or
    its class)."""
    func = api.function(qualname)
    if func is None or func.command_line is not None or run_by_syntax(qualname):
        return False
    if func.name == "__del__" or not api.is_public(qualname) or api.unlisted(qualname):
        return False
    return api.exported(func.cls or qualname)


def written(index: RepoIndex, api: PublicApi, qualname: str) -> str:
    """The call as a caller writes it: a function its top-level package re-exports by
    the package's name (``requests.get()``), else :func:`.param_requirement.call_name`."""
    func = api.function(qualname)
    name = qualname.rpartition(".")[2]
    top = qualname.split(".")[0]
    package = index.modules.get(top)
    if func is not None and func.cls is None and package is not None and package.is_package:
        imported = name in runtime_imports(index, package)
        target = index.resolve(top, (name,)) if imported else None
        if target is not None and target.qualname == qualname:
            return f"{top}.{name}()"
    return call_name(qualname, func)
