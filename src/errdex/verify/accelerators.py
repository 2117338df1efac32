"""Python code that runs only when a C accelerator is missing, reached the way CPython's
own tests reach it.

Much of the standard library is written twice: ``json.decoder`` in Python and ``_json``
in C, ``heapq`` and ``_heapq``, ``decimal`` as ``_pydecimal`` and ``_decimal``. With the
accelerator importable, a test's call lands in C and no Python line raises. CPython's
tests run the Python version with
``import_helper.import_fresh_module('json', blocked=['_json'])``, which imports the module
again with ``sys.modules['_json'] = None``. A snippet that reached no record is run once
more the same way: the modules the accelerator replaces are dropped from ``sys.modules``
and the accelerator is blocked before the snippet's own imports. The record then says in
its evidence that the run needed the accelerator blocked.

Which modules an accelerator replaces comes from the analyst (``evidence.shadowedBy``)
and, for the standard library's ``try: from _x import … except ImportError`` fallbacks
the analyst does not see as rebinding, from the table below.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Any

from errdex.source.stdlib import STDLIB_REPO

from .from_tests import Candidate, module_of

__all__ = ["Accelerators"]

#: The standard library's C accelerators and the Python modules they stand in for.
STDLIB: dict[str, tuple[str, ...]] = {
    "_json": ("json",),
    "_pickle": ("pickle",),
    "_datetime": ("datetime",),
    "_heapq": ("heapq",),
    "_decimal": ("decimal", "_pydecimal"),
    "_bisect": ("bisect",),
    "_elementtree": ("xml.etree.ElementTree",),
    "_functools": ("functools",),
    "_operator": ("operator",),
    "_collections": ("collections",),
    "_statistics": ("statistics",),
    "_zoneinfo": ("zoneinfo",),
    "_warnings": ("warnings",),
}
#: Modules the snippet may import that must stay as they are (the machinery itself).
_KEEP = frozenset({"sys", "builtins", "importlib", "unittest", "test", "test.support"})


def _named_in(path: str, module: str) -> bool:
    """The test file is about ``module``: one of its dotted parts is in the file's name."""
    name = path.rsplit("/", 2)
    tail = "/".join(name[-2:])
    return any(len(part) > 3 and part.lstrip("_").lower() in tail for part in module.split("."))


def _related(a: str, b: str) -> bool:
    return a == b or a.startswith(b + ".") or b.startswith(a + ".")


class Accelerators:
    """One repository's accelerators: which Python modules each one replaces."""

    def __init__(self, repo: str, envelopes: Iterable[dict[str, Any]]) -> None:
        self.replaces: dict[str, set[str]] = defaultdict(set)
        if repo == STDLIB_REPO:
            for name, modules in STDLIB.items():
                self.replaces[name].update(modules)
        for env in envelopes:
            shadowed = (env.get("evidence") or {}).get("shadowedBy") or {}
            shadow = shadowed.get("module")
            # a module imported only where its C twin fails (``_threading_local`` for
            # ``_thread``) runs when a test imports it by name: blocking ``_thread``
            # would only break the interpreter's own imports
            if shadowed.get("kind") == "module":
                continue
            if isinstance(shadow, str) and shadow.startswith("_") and "." not in shadow:
                self.replaces[shadow].add(module_of(str(env["record"]["filePath"])))

    def for_candidate(self, cand: Candidate) -> list[str]:
        """Accelerators that stand in for what this test is about: the test module's name
        names a module the accelerator replaces (``test_json/…``, ``pickletester.py``) and
        the snippet or its test module imports it; those the snippet blocks already are
        left out. (``warnings`` or ``collections`` are imported by nearly every test; only
        their own tests are run again.)"""
        imported = set(cand.imports) | _program_imports(cand.program)
        path = cand.path.lower()
        return sorted(
            name
            for name, modules in self.replaces.items()
            if name not in cand.blocked
            and any(_named_in(path, m) for m in modules)
            and any(_related(i, m) for i in imported - _KEEP for m in modules)
        )

    def blocked_run(self, cand: Candidate, name: str) -> Candidate:
        """The snippet with ``name`` blocked and the modules it replaces imported afresh."""
        modules = sorted(self.replaces[name])
        prelude = (
            "import sys\n"
            f"for _name in [m for m in list(sys.modules) if any(m == p or m.startswith(p + '.') "
            f"for p in {modules!r})]:\n"
            "    del sys.modules[_name]\n"
            f"sys.modules[{name!r}] = None\n"
        )
        return Candidate(
            prelude + cand.program,
            cand.test,
            cand.path,
            cand.line,
            cand.kind,
            cand.warns,
            tuple(sorted({*cand.blocked, name})),
            cand.imports,
            cand.for_record,
            cand.cut_from,
            cand.expects,
        )

    def reached_with(self, envelope: dict[str, Any], cand: Candidate) -> str | None:
        """'the C accelerator `_json` blocked' when the run blocked one that stands in for
        this record's module (or that the analyst says replaces its function)."""
        record_module = module_of(str(envelope["record"]["filePath"]))
        shadow = ((envelope.get("evidence") or {}).get("shadowedBy") or {}).get("module")
        names = [
            name
            for name in cand.blocked
            if name == shadow
            or any(_related(record_module, m) for m in self.replaces.get(name, ()))
        ]
        if not names:
            return None
        shown = ", ".join(f"`{n}`" for n in names)
        noun = "accelerator" if len(names) == 1 else "accelerators"
        return f"the C {noun} {shown} blocked"


def _program_imports(program: str) -> set[str]:
    """Modules a program's import lines name (``import a.b as c, d``, ``from x import y``)."""
    out: set[str] = set()
    for line in program.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] == "from":
            out.add(words[1])
        elif len(words) >= 2 and words[0] == "import":
            out.update(part.split()[0] for part in line[6:].split(",") if part.split())
    return out
