"""Public entry points: the functions a user can call that reach a raising site.

Public means exported by the package (listed in a module's ``__all__`` or re-exported by
a package ``__init__``) or named without a leading underscore all the way down
(module path, class and function); tests, nested functions and what a module defines
under ``if __name__ == "__main__":`` never are, nor what a module holds whose own imports
fail (:mod:`.stale_imports`). A ``__del__``
is no entry point of an exception: the interpreter drops what it raises.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from errdex.evidence import CaughtBy, EntryPoint

from .callgraph import MAX_DEPTH
from .chains import Chains, Hop, Walk
from .docstrings import param_doc
from .entry_receivers import called_by_name
from .facts import FuncFacts
from .heirs import by_heirs, inherited
from .repo import RepoIndex
from .stale_imports import unimportable
from .type_only import runtime_imports

__all__ = [
    "FAR_DEPTH",
    "MAX_ENTRY_POINTS",
    "PublicApi",
    "caught_by",
    "entry_points",
    "heir_rank",
    "run_by_syntax",
]

#: Entry points kept per site: the nearest three.
MAX_ENTRY_POINTS = 3
#: How far the walk goes on when fewer than three public functions are within
#: ``MAX_DEPTH`` calls: ``re.compile`` reaches ``re._parser._parse`` in five, through
#: private helpers only, and without it ``re.Scanner`` would be the only one named.
FAR_DEPTH = 6


class PublicApi:
    """Decides, once per function, whether users can call it."""

    def __init__(self, index: RepoIndex) -> None:
        self.index = index
        #: Definition -> its place in its module's ``__all__``.
        self._listed: dict[str, int] = {}
        self._exported = self._collect_exports()
        self._memo: dict[str, bool] = {}
        self._returned: set[str] | None = None
        #: Modules no import can load under their name (``lib2to3.pgen2.conv``).
        self.unimportable = unimportable(index.modules)
        #: Methods the library calls and users do not (:mod:`.hook_methods`).
        self.hooks: Callable[[str], bool] | None = None

    def use_hooks(self, hooks: Callable[[str], bool]) -> None:
        """A hook is no way in: set before anything is asked (the memo is emptied)."""
        self.hooks = hooks
        self._memo.clear()

    def exported(self, qualname: str) -> bool:
        """Named by an ``__all__`` or re-exported by a package's ``__init__``."""
        return qualname in self._exported

    def _collect_exports(self) -> set[str]:
        """Definitions named by an ``__all__`` or reachable from a package's namespace."""
        out: set[str] = set()
        index = self.index
        for facts in index.modules.values():
            if facts.is_test:
                continue
            if facts.all_names is not None:
                for place, name in enumerate(facts.all_names):
                    target = index.resolve(facts.name, (name,))
                    if target is not None and target.kind != "module":
                        out.add(target.qualname)
                        self._listed.setdefault(target.qualname, place)
            if facts.is_package and not _private_path(facts.name):
                # ``if TYPE_CHECKING: from .api import tc_get`` exports nothing
                names = [n for n in runtime_imports(index, facts) if not n.startswith("_")]
                for name in names:
                    target = index.resolve(facts.name, (name,))
                    if target is not None and target.kind != "module":
                        out.add(target.qualname)
        return out

    def is_public(self, qualname: str) -> bool:
        found = self._memo.get(qualname)
        if found is None:
            found = self._decide(qualname)
            self._memo[qualname] = found
        return found

    def order(self, qualname: str, uses: int) -> tuple[int, int, int, str]:
        """Where an entry point stands among equally near ones: the more calls the
        library itself makes of it (``uses``), the sooner; then as its module's
        ``__all__`` lists it (``re`` presents ``match``, ``fullmatch``, ``search``
        before ``compile``), a method where its class is listed, an unlisted one
        after; then by definition line. The name breaks what is left."""
        func = self.function(qualname)
        if func is None:
            return (-uses, 1 << 30, 0, qualname)
        listed = self._listed.get(func.cls or qualname)
        return (-uses, listed if listed is not None else 1 << 30, func.line, qualname)

    def unlisted(self, qualname: str) -> bool:
        """Public by name, but its module's ``__all__`` leaves it (or its class) out and
        no package re-exports it: plumbing users reach through what is listed
        (``multiprocessing.heap`` lists ``BufferWrapper`` alone, not ``Heap``; ``re``
        lists ``compile``, not ``Scanner``). A command-line main that takes no
        argument (``trace.main``) is not: ``python -m trace`` runs it; nor a method of
        a class a function returns, or of a subclass of a listed class."""
        func = self.function(qualname)
        facts = self.index.modules.get(func.module) if func is not None else None
        if func is None or facts is None or not facts.all_names or facts.is_package:
            return False  # none, or empty: ``multiprocessing.context`` exports at run time
        if facts.all_partial or (func.command_line is not None and not func.required):
            return False  # the list may be longer; a program's main is run, not imported
        if (func.cls or qualname) in self._exported or self._listed_base(func.cls):
            return False
        # ``ZipFile.open`` returns a ``ZipExtFile``: users call its ``seek``, not its
        # constructor
        return func.cls is None or func.name == "__init__" or func.cls not in self._handed()

    def _listed_base(self, cls: str | None) -> bool:
        """A class of the module derived from one its ``__all__`` lists: ``smtplib``
        lists ``SMTP``, not ``LMTP``, which the documentation presents beside it."""
        facts = self.index.classes.get(cls) if cls is not None else None
        if facts is None:
            return False
        for ref in facts.bases:
            target = self.index.resolve(facts.module, ref)
            if target is not None and target.qualname in self._exported:
                return target.qualname.rpartition(".")[0] == facts.module
        return False

    def handed(self) -> set[str]:
        """Classes a function of the repository returns an instance of."""
        return self._handed()

    def _handed(self) -> set[str]:
        """Classes a function of the repository returns an instance of (built once)."""
        if self._returned is None:
            found: set[str] = set()
            for defs in self.index.functions.values():
                for func in defs:
                    for ref in {r for values in func.returns for r in values if r}:
                        target = self.index.resolve(func.module, ref, func.local_imports)
                        if target is not None and target.kind == "class":
                            found.add(target.qualname)
            self._returned = found
        return self._returned

    def function(self, qualname: str) -> FuncFacts | None:
        """The definition of ``qualname``, or the one its class inherits under that name
        (``Connection.recv``: :func:`.heirs.inherited`)."""
        return self.index.function(qualname) or inherited(self.index, qualname)

    def _decide(self, qualname: str) -> bool:
        func = self.function(qualname)
        if func is None or func.is_test or func.parent is not None or "<locals>" in qualname:
            return False
        if func.script_only:
            return False  # defined when the file runs as a program: nothing imports it
        if func.module in self.unimportable:
            return False  # its module's own imports fail: nothing imports it
        if _private_name(func.name):
            return False
        if self.hooks is not None and self.hooks(qualname):
            return False  # the library calls it, users do not (``trace_dispatch``)
        if func.cls is not None:
            cls = self.index.classes.get(func.cls)
            if cls is None or cls.name.startswith("_"):
                return False
            return func.cls in self._exported or not _private_path(cls.module)
        return qualname in self._exported or not _private_path(func.module)


#: Methods the interpreter runs whose exception never reaches a caller: what ``__del__``
#: raises is printed as "Exception ignored in" and dropped (``ZipFile.__del__`` calls
#: ``close``, whose errors no one who lets a ZipFile go can catch). A warning it gives
#: is shown as any other (``StreamWriter.__del__``'s "unclosed" ``ResourceWarning``).
_NEVER_PROPAGATES = frozenset({"__del__"})
#: Dunder methods a caller does call by name, as ``Class()`` or ``obj()``.
_CALLED_DUNDERS = frozenset({"__init__", "__new__", "__call__"})


def run_by_syntax(qualname: str) -> bool:
    """A special method the language runs for syntax (``obj.attr``, ``x[k]``, ``round(x)``):
    its parameters are not what the caller wrote, so a call to it or a requirement on its
    parameters, written as if the caller made it, misleads."""
    name = qualname.rpartition(".")[2]
    return name.startswith("__") and name.endswith("__") and name not in _CALLED_DUNDERS


def _private_name(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _private_path(module: str) -> bool:
    return any(p.startswith("_") and p not in ("__init__", "__main__") for p in module.split("."))


def entry_points(
    index: RepoIndex,
    chains: Chains,
    api: PublicApi,
    function: str,
    *,
    error_class: str | None = None,
    guards: Sequence[str] = (),
    catchable: bool = True,
    line: int | None = None,
    at: int | None = None,
    guard_lines: Sequence[int] = (),
    handed: bool = False,
) -> list[EntryPoint]:
    """The nearest public functions whose exactly resolved calls reach ``function`` and let
    ``error_class`` out (as itself or converted), closest first, equally near ones in
    :meth:`PublicApi.order`. With ``handed``, instead, the nearest public functions that
    return a nested function that reaches it
    (``validator`` returns ``lint_app``): calling them raises nothing, calling what they
    hand out does (:mod:`.closures`), so they are kept apart from the calls.

    ``guards`` are the site's conditions: a caller whose constants make one false is
    dropped. Calls resolved by name alone are not followed (:mod:`errdex.analyze.chains`).
    ``line`` is the raise's when no loop encloses it, ``at`` the raise's in any case,
    ``guard_lines`` where each guard is tested (:meth:`Chains.walk`).
    """
    out: list[EntryPoint] = []

    def walked(depth: int) -> list[Hop]:
        return chains.walk(
            function,
            error_class,
            guards,
            catchable=catchable,
            max_depth=depth,
            line=line,
            at=at,
            guard_lines=guard_lines,
        ).hops

    uses = chains.callers

    def listed(hop: Hop) -> bool:
        return api.is_public(hop.qualname) and not api.unlisted(hop.qualname)

    def offered(hop: Hop) -> bool:
        return listed(hop) and not hop.handed  # above a hand-out, only hand-outs (.chains)

    raising = index.function(function)
    # what hands out a way is said from the raise's own module only: through other
    # modules' plumbing, a factory's product is followed with too little known
    # (``inspect.formatannotationrelativeto`` -> ``re._compile``'s flag checks)
    module = raising.module if raising is not None else function
    hops = walked(MAX_DEPTH)
    if sum(offered(h) for h in hops) < MAX_ENTRY_POINTS:
        hops = walked(FAR_DEPTH)

    def rank(hop: Hop) -> tuple[int, int, tuple[int, int, int, str]]:
        """What users call (0) before plumbing a module's ``__all__`` leaves out (1);
        then the nearest, in :meth:`PublicApi.order`."""
        used = len(uses.get(hop.qualname, ()))
        return (0 if listed(hop) else 1, hop.depth, api.order(hop.qualname, used))

    # a method called by its name on no object that runs the chain is no way in, nor is
    # what it reaches a step of a way in (``entry_receivers``)
    below = chains.subclasses()
    hops = [h for h in hops if called_by_name(index, h, below)]
    # a private class's method a public class inherits is named through that class
    hops, defined = by_heirs(index, hops, below, api.is_public, heir_rank(api))
    # plumbing a listed entry point reaches the raise through is its step, not a way in
    # of its own (``getopt.getopt`` -> ``do_longs``, which ``__all__`` leaves out); a
    # constructor stays: the class is built so (``aifc.open`` -> ``Aifc_read()``); not
    # below one that converts the class (pydoc's ``cli`` exits: ``render_doc`` stays)
    stepped = {
        q
        for h in hops
        if offered(h) and h.conversion is None
        for q in h.via[1:]
        if q.rpartition(".")[2] not in ("__init__", "__new__")
    }
    public = [
        h
        for h in hops
        if api.is_public(h.qualname)
        and h.handed is handed
        and (not handed or _module_of(index, h.qualname) == module)
        and not (catchable and h.qualname.rpartition(".")[2] in _NEVER_PROPAGATES)
        and (defined.get(h.qualname, h.qualname) not in stepped or offered(h))
    ]
    by_name = {h.qualname: h for h in public}

    def placed(hop: Hop) -> tuple[tuple[int, int, tuple[int, int, int, str]], int]:
        """A method only its constructor calls comes right after that constructor."""
        callers = [c for c, _ in uses.get(hop.qualname, ())]
        made = [by_name[q] for q in _set_up_by(index, hop.qualname, callers, below) if q in by_name]
        return (min(rank(m) for m in made), 1) if made else (rank(hop), 0)

    hops = sorted(public, key=placed)
    for hop in hops:
        func = index.function(defined.get(hop.qualname, hop.qualname), hop.line)
        if func is None:
            continue
        entry = EntryPoint(
            qualname=hop.qualname,
            path=func.path,
            line=func.line,
            depth=hop.depth,
            via=list(hop.via),
            precision="exact",
        )
        if func.platform is not None and len(index.functions.get(hop.qualname, ())) > 1:
            entry["definedOn"] = func.platform  # the definition that calls on, of several
        elif hop.on is not None:
            entry["definedOn"] = hop.on  # its call goes this way there only (``os.path``)
        if hop.qualname in defined:
            entry["inheritedFrom"] = defined[hop.qualname]
        if handed:
            entry["handsOut"] = hop.via[1]
        if hop.conversion is not None:
            entry["surfacesAs"] = hop.conversion.written
            entry["convertedIn"] = hop.conversion.function
            entry["convertedLine"] = hop.conversion.line
        if hop.gate is not None:
            entry["reraisedIn"], entry["reraisedWhen"] = hop.gate
        if hop.when:
            entry["onlyWhen"] = [list(w) for w in hop.when]
        if hop.passes:
            entry["passes"] = dict(hop.passes)
            docs = {
                param: text
                for param in sorted(set(hop.passes.values()))
                if (text := param_doc(func.docstring, param))
            }
            if docs:
                entry["paramDocs"] = docs
        out.append(entry)
        if len(out) >= MAX_ENTRY_POINTS:
            break
    return out


def heir_rank(api: PublicApi) -> Callable[[str], tuple[object, ...]]:
    """Which public class below names an inherited method: one ``__all__`` lists (or a
    function hands out) first, then as its class stands in ``__all__``."""
    return lambda qualname: (api.unlisted(qualname), api.order(qualname, 0)[1])


def _module_of(index: RepoIndex, qualname: str) -> str | None:
    func = index.function(qualname)
    return func.module if func is not None else None


def _set_up_by(
    index: RepoIndex,
    qualname: str,
    callers: Sequence[FuncFacts],
    below: Mapping[str, Sequence[str]],
) -> set[str]:
    """The constructors that stand for a method only they call (``Aifc_read.initfp``,
    called by ``Aifc_read.__init__`` alone: users call ``Aifc_read()``); empty for any
    other function. The method is named after them, not left out: some are an API of
    their own as well (``NNTP.login``, which ``__init__`` calls when given a user)."""
    func = index.function(qualname)
    if func is None or func.cls is None or func.name == "__init__" or not callers:
        return set()
    own = {func.cls, *below.get(func.cls, ())}
    if all(c.name == "__init__" and c.cls in own for c in callers):
        return {c.qualname for c in callers}
    return set()


def caught_by(walk: Walk) -> list[CaughtBy]:
    """The nearest callers (three at most) whose handler swallows the error."""
    return [CaughtBy(qualname=c.qualname, line=c.line) for c in walk.caught[:MAX_ENTRY_POINTS]]
