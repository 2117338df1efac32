"""The catalogue a fresh install can build from what is already on the machine.

The running Python's standard library, and every distribution installed in the
environment errdex runs in whose metadata names its repository, so that
``errdex serve`` has something real to show without any network.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Iterator
from dataclasses import dataclass

from errdex.source import Checkout, SourceError, open_source
from errdex.source.stdlib import stdlib_checkout

__all__ = ["EnvironmentTarget", "environment_targets"]


@dataclass(frozen=True)
class EnvironmentTarget:
    """One thing to scan, or the reason it cannot be."""

    name: str
    checkout: Checkout | None
    reason: str | None = None


def _distribution_names() -> list[str]:
    names: dict[str, str] = {}
    for dist in importlib.metadata.distributions():
        name = dist.metadata["Name"]
        if name:
            names.setdefault(name.lower().replace("_", "-"), name)
    return [names[key] for key in sorted(names)]


def environment_targets(include_stdlib: bool = True) -> Iterator[EnvironmentTarget]:
    """The standard library first, then each installed distribution, sorted by name."""
    seen: dict[str, str] = {}
    if include_stdlib:
        stdlib = stdlib_checkout()
        seen[stdlib.repo or ""] = "the standard library"
        yield EnvironmentTarget("python (standard library)", stdlib)
    for name in _distribution_names():
        try:
            checkout = open_source(package=name)
        except SourceError as exc:
            yield EnvironmentTarget(name, None, str(exc))
            continue
        if not checkout.repo:
            # never guessed: an editable install's checkout may sit anywhere (/work/main)
            why = "its metadata names no repository (Project-URL)"
            if checkout.repo_problem:
                why = f"{checkout.repo_problem} and {why}"
            yield EnvironmentTarget(name, None, why)
            continue
        if checkout.repo in seen:
            # one repository, one catalogue: a second scan would mark the first one stale
            yield EnvironmentTarget(
                name, None, f"{checkout.repo} is already scanned from {seen[checkout.repo]}"
            )
            continue
        seen[checkout.repo] = name
        yield EnvironmentTarget(name, checkout)
