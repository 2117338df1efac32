"""The evidence one site's fields are written from, and the words every field uses
to name the site, its class and the function that raises it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from errdex.evidence import CaughtBy, ClassInfo, EntryPoint, FunctionInfo, RaisesDoc, TestEvidence

from .background import Rule
from .docstrings import cleaned
from .facts import FuncFacts
from .guards import code
from .sites import SiteView
from .twins import ShadowFact

if TYPE_CHECKING:
    from .class_links import ClassLinks
    from .hook_callers import HookCallers
    from .made_ways import MadeWay
    from .roles import Role
    from .way_ends import WayEnd

__all__ = [
    "Gathered",
    "callable_name",
    "class_phrase",
    "function_info",
    "location",
    "noun",
    "short_name",
    "verb",
]


@dataclass
class Gathered:
    """The evidence one site's fields are written from."""

    site: SiteView
    func: FuncFacts | None = None
    raises_own: list[RaisesDoc] = field(default_factory=list)
    raises_entry: list[RaisesDoc] = field(default_factory=list)
    class_info: ClassInfo | None = None
    entry_points: list[EntryPoint] = field(default_factory=list)
    #: Public functions that return a nested function reaching the raise (``validator``),
    #: kept apart from the calls (:func:`errdex.analyze.entrypoints.entry_points`).
    handed_out: list[EntryPoint] = field(default_factory=list)
    #: Where a walk that reaches no public function ends: a ``__del__``, a script's main.
    way_end: WayEnd | None = None
    #: Where none reaches it either: a public call whose product's method does.
    made_way: MadeWay | None = None
    entry_funcs: dict[str, FuncFacts] = field(default_factory=dict)
    #: Entry point -> what its call gives where it does not run the raise: a generator or
    #: coroutine to iterate or await, or "unknown" (:mod:`.lazy_chain`).
    lazy: dict[str, str] = field(default_factory=dict)
    #: Callers that swallow it, when no public function sees it (analyze.chains).
    caught_by: list[CaughtBy] = field(default_factory=list)
    #: Where a handler turns it into what the caller gets instead (:mod:`.conversions`).
    conversion: dict[str, Any] | None = None
    tests: list[TestEvidence] = field(default_factory=list)
    #: Tests that also expect it beyond those listed (:mod:`.test_choice`).
    tests_more: int = 0
    observed: list[dict[str, Any]] = field(default_factory=list)
    background: tuple[str | None, Rule | None] = (None, None)
    import_lines: dict[str, str] = field(default_factory=dict)  # name in guard -> import line
    same_class_in_function: int = 1  # sites of this class in the enclosing function
    #: Sites of this class in the enclosing function and the functions it calls directly.
    same_class_reached: int = 1
    #: For a pickling or copying special method: which of pickle, copy and deepcopy run it
    #: on an object of its class (:mod:`.pickle_paths`); None where not known.
    pickled_by: frozenset[str] | None = None
    #: Set only where the repository's tests were read (static._Wide); by default a record
    #: says it does not know of tests rather than that none expects it.
    tests_read: bool = False
    #: How many test modules were read: "linked none" then says of how many, instead of
    #: reading as "the repository has no test of it".
    test_files_read: int = 0
    #: What runs instead of the site's code where a C twin imports (``analyze.twins``).
    shadow: ShadowFact | None = None
    role: Role | None = None  # an abstract method or a control-flow signal (analyze.roles)
    #: By the raising function's or an entry point's qualname, the library's public calls
    #: that run it as an override of a base class's method (:mod:`.hook_callers`):
    #: ``RawConfigParser.get`` for ``ExtendedInterpolation.before_get``.
    hooks: dict[str, HookCallers] = field(default_factory=dict)
    #: The raising function is a hook the library calls, users not (:mod:`.hook_methods`):
    #: no handler goes around a call of it.
    own_hook: bool = False
    #: Entry point -> the outermost exported call of its package above it, as written
    #: (:mod:`.outer_catch`): where the catch advice puts the handler.
    outer_calls: dict[str, str] = field(default_factory=dict)
    #: For a method, the public base method it implements and the subclasses that bind
    #: its name by assignment (:mod:`.class_links`).
    links: ClassLinks | None = None
    #: What the raise's condition tests (:func:`.guard_subject.guards_subject`): the
    #: caller's "argument", the object's "state", the "environment", or None: not known.
    subject: str | None = None
    #: The module's constants bound to a platform test (``_mswindows``), name -> the test.
    constants: dict[str, str] = field(default_factory=dict)
    #: The module's flags set by whether an import worked (``_have_ssl``): name -> module.
    import_flags: dict[str, str] = field(default_factory=dict)
    #: Public names the module binds at its top level (definitions, imports, names bound
    #: once): a caller reaches them as the module's attributes (``asyncio.FIRST_COMPLETED``),
    #: so a condition may name them beside the caller's parameters.
    module_names: frozenset[str] = frozenset()
    #: By the class an enclosing ``except`` catches, its docstring's first sentence, for
    #: the repository's own classes (:mod:`.caught_words`).
    caught_docs: dict[str, str] = field(default_factory=dict)
    #: The module's compiled regular expressions (:mod:`.compiled_patterns`): ``NAME`` or
    #: ``Class.NAME`` -> ``"str"`` or ``"bytes"``.
    patterns: dict[str, str] = field(default_factory=dict)
    #: The raising module's file on disk, for rules that read its whole tree again
    #: (:mod:`.file_trees`); None where the index knows no directory.
    source_file: str | None = None
    #: Every library module's file on disk, for rules that look for a store of a name
    #: anywhere in the repository (:mod:`.attr_stores`).
    repo_files: tuple[str, ...] = ()

    @property
    def has_evidence(self) -> bool:
        """More than the site itself: anything the extractor did not already know."""
        return bool(
            (self.func is not None and self.func.docstring)
            or self.raises_own
            or self.raises_entry
            or self.class_info
            or self.entry_points
            or self.made_way is not None  # a public call whose product reaches it
            or self.tests
            or self.observed
            or self.role is not None  # what the site is for outranks the extractor's account
            or self.own_hook  # the extractor's "around the call to" names the hook
            or self.shadow is not None
            or (self.func is not None and self.func.platform is not None)  # defined on one
        )


def function_info(func: FuncFacts) -> FunctionInfo:
    """The raising function as ``evidence.function`` states it."""
    return FunctionInfo(
        qualname=func.qualname,
        signature=func.signature,
        docstring=cleaned(func.docstring),
        path=func.path,
        line=func.line,
    )


def short_name(qualname: str) -> str:
    return qualname.rpartition(".")[2]


def location(path: str, line: int) -> str:
    return f"{path}:{line}"


def noun(g: Gathered) -> str:
    return "warning" if g.site.kind == "warn" else "error"


def verb(g: Gathered, *, with_object: bool = False) -> str:
    """ "raises"; for a warning "warns", or "issues" when the class follows; for an
    exception a generator yields (its consumer raises it), "yields"."""
    if g.site.kind == "warn":
        return "issues" if with_object else "warns"
    if g.site.kind == "yield":
        return "yields"
    return "raises"


def callable_name(func: FuncFacts) -> str:
    """How a caller names ``func``: the class for a constructor, else the function's name."""
    if func.cls is not None and func.name in ("__init__", "__new__"):
        return short_name(func.cls)
    return func.name


def class_phrase(g: Gathered) -> str:
    return code(g.site.error_class) if g.site.error_class else "an exception"


def _public(qualified: str) -> bool:
    return not any(part.startswith("_") for part in qualified.split("."))


def catch_phrase(g: Gathered) -> str:
    """The class to name in an ``except``: a private class (``_DeadlockError``) is not for
    callers to import, so its nearest public ancestor (from ``classInfo``) is named instead."""
    name = g.site.error_class
    ancestors = (g.class_info or {}).get("ancestors") or []
    if not name or not name.rsplit(".", 1)[-1].startswith("_"):
        return class_phrase(g)
    public = next((a for a in ancestors if _public(a)), None)
    if public is None:
        return class_phrase(g)
    return f"{code(short_name(public))} (its public base)"
