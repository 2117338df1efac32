"""What the static analyst keeps of a file: definitions, imports, calls, docstrings and
test expectations, with the syntax tree dropped.

Keeping syntax trees of a whole repository (the standard library is ~1 GB of nodes)
would not scale, so each file is parsed once (:mod:`errdex.analyze.walk`) and reduced to
these facts; everything later works on them.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .callsites import CallSite

__all__ = [
    "CallRef",
    "ClassFacts",
    "Expect",
    "FuncFacts",
    "FunctionNode",
    "ModuleFacts",
    "clean",
    "dotted",
]

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef

#: A call as written: the dotted parts of the callee. ``("", "add_edge")`` is a method on
#: an unknown receiver, ``("super()", "m")`` a call through ``super()``.
CallRef = tuple[str, ...]


@dataclass(slots=True)
class FuncFacts:
    """A function or method: where it is, how it is called, what it calls."""

    qualname: str
    name: str
    module: str
    path: str
    line: int
    end_line: int
    signature: str
    params: tuple[str, ...]  # as written: ``*args`` and ``**kwargs`` keep their stars
    required: tuple[str, ...]  # parameters without defaults; keyword-only ones as ``k=k``
    docstring: str | None
    doc_line: int
    cls: str | None  # the class qualname, for methods
    parent: str | None  # the enclosing function, for nested functions
    decorators: list[CallRef]  # the dotted ones (``@a.b``, ``@a.b(…)``)
    calls: list[CallRef]
    local_imports: dict[str, str]
    is_test: bool
    #: ``reader = GraphMLReader(...)``: local names bound once, to a call's result.
    local_calls: dict[str, CallRef] = field(default_factory=dict)
    #: Other local names bound once (:mod:`.binds`): ``f = obj.method`` as ``("alias",
    #: ref)``, ``with open_db() as db`` as ``("enter", callee)``, ``a, b = Pipe()`` as
    #: ``("0", callee)`` and ``("1", callee)``.
    local_binds: dict[str, tuple[str, CallRef]] = field(default_factory=dict)
    #: What each ``return`` gives, element by element for a tuple: the callee of a call
    #: (or of the call a local name was bound to), ``("self",)``, or None for the rest.
    returns: tuple[tuple[CallRef | None, ...], ...] = ()
    #: Each call with its enclosing handlers and known arguments (:mod:`.callsites`), and
    #: the names the body rebinds (a parameter among them does not reach a call unchanged).
    call_sites: list[CallSite] = field(default_factory=list)
    rebound: frozenset[str] = frozenset()
    #: How a call runs its body: ``async def`` needs awaiting, a ``yield`` iterating.
    #: Name -> lines where the body binds it (guards over a name bound again before the
    #: raise are stale: :mod:`.rebinding`).
    bound_lines: dict[str, tuple[int, ...]] = field(default_factory=dict)
    #: The line an ``else`` guard is given (:mod:`errdex.extract.python.guards`) -> the
    #: first and last lines of the ``if`` body that path skips: a name bound there does
    #: not reach a raise under that guard.
    else_skips: dict[int, tuple[int, int]] = field(default_factory=dict)
    is_async: bool = False
    is_generator: bool = False
    #: The method's class declares an abstract method, so it cannot be instantiated as
    #: it is (abstract methods inherited from a base are not seen).
    cls_abstract: bool = False
    #: Defined in a module or class body's ``if`` on the platform: "on Windows" (the
    #: function does not exist elsewhere), from :mod:`errdex.analyze.platforms`.
    platform: str | None = None
    #: What makes it a program's command line (reads ``sys.argv``, parses it, ends the
    #: process), in words, from :mod:`errdex.analyze.script_mains`; None for the rest.
    command_line: str | None = None
    #: Defined under ``if __name__ == "__main__":`` (:func:`.script_mains.main_block`):
    #: it exists only when the file runs as a program, so no caller imports it.
    script_only: bool = False
    #: Locals bound once in the body, to a literal (``main_name = "__main__"``).
    local_consts: dict[str, object] = field(default_factory=dict)
    #: Parameters bound again only to literals: name -> (line, literal) of each binding.
    param_literals: dict[str, tuple[tuple[int, object], ...]] = field(default_factory=dict)
    #: Names the body adds items to (``kwargs["x"] = 1``, ``kwargs.setdefault(…)``): a
    #: ``**kwargs`` empty at the call may not be empty where it is tested.
    filled: frozenset[str] = frozenset()
    #: Names the body removes items from (``kwargs.pop(…)``): a ``**kwargs`` is judged by
    #: the call only when the call leaves it empty, as it stays.
    drained: frozenset[str] = frozenset()
    #: Its ``**kwargs`` name, when a use of it may add keys no fact names (an alias, a
    #: call handed it, a nested function) (:mod:`errdex.analyze.kwargs_escape`).
    escaped: frozenset[str] = frozenset()
    #: Local -> (first line, last line, expression over the parameters) where it holds
    #: that expression's value (:mod:`errdex.analyze.local_values`).
    local_values: dict[str, tuple[tuple[int, int, str], ...]] = field(default_factory=dict)
    #: A local bound once to one of a few constants -> them, or to ``x & C`` -> its bounds
    #: (:mod:`errdex.analyze.value_sets`).
    local_sets: dict[str, tuple[object, ...]] = field(default_factory=dict)
    #: A local list the body has added an item to -> (the line of the one call handed it
    #: while it certainly holds one, whether that call may run again)
    #: (:mod:`errdex.analyze.filled_locals`).
    filled_lists: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: A parameter -> (first line where it may not hold the caller's untouched object,
    #: whether the caller's object may change) (:mod:`errdex.analyze.param_changes`).
    param_changes: dict[str, tuple[int, bool]] = field(default_factory=dict)
    #: Functions defined in its body that it returns or passes to a call
    #: (:mod:`errdex.analyze.closures`).
    handed_out: tuple[str, ...] = ()
    #: A call's line -> the ``if`` conditions over parameters it is made under
    #: (:mod:`errdex.analyze.call_paths`).
    call_conditions: dict[int, tuple[str, ...]] = field(default_factory=dict)
    #: Each top-level ``if COND: raise ...`` of the body: (its last line, ``COND``)
    #: (:mod:`.early_raises`).
    early_raises: tuple[tuple[int, str, int], ...] = ()
    #: Each ``if COND: … return`` (or ``raise``, ``continue``, ``break``) with no ``else``,
    #: with the lines of the rest of its block (:mod:`.early_exits`).
    early_exits: tuple[tuple[int, str, int, int], ...] = ()
    #: Of ``params``, those before ``/`` and those after ``*`` or ``*args``: a call that
    #: passes the one by keyword or the other by position fails in the interpreter
    #: (:mod:`.call_fit`).
    posonly: tuple[str, ...] = ()
    kwonly: tuple[str, ...] = ()
    #: Decorators that are no dotted name (``@_eager[0]``, ``@make()(x)``), left out of
    #: ``decorators``: what the call returns is not known (:mod:`.lazy_chain`).
    odd_decorators: int = 0


@dataclass(slots=True)
class ClassFacts:
    qualname: str
    name: str
    module: str
    path: str
    line: int
    bases: list[CallRef]
    docstring: str | None
    doc_line: int
    is_test: bool
    #: ``tarinfo = TarInfo`` in the class body: name -> the dotted name it is bound to.
    attrs: dict[str, CallRef] = field(default_factory=dict)
    #: ``gen = random.Random()`` in the class body: name -> the callee (an instance of it).
    attr_calls: dict[str, CallRef] = field(default_factory=dict)
    #: ``class EnumType(type)`` named by ``metaclass=EnumType``: what runs ``x in Cls``.
    metaclass: CallRef | None = None
    #: Names the body binds by assignment (:mod:`.class_body`): they shadow what the
    #: bases define under the same name.
    assigned: frozenset[str] = frozenset()
    #: A decorator, a base written as a call or a class keyword other than ``metaclass=``
    #: (:mod:`errdex.analyze.class_shape`): calling it may not build an instance of it.
    opaque: bool = False


@dataclass(slots=True)
class Expect:
    """A test that expects an exception or warning (``pytest.raises`` and friends)."""

    path: str
    line: int
    name: str  # node id: path::Class::test
    kind: str
    classes: list[CallRef]
    match: str | None  # the regex (or literal) as the test gives it
    match_is_literal: bool  # True for ``assert "x" in str(e.value)``: not a regex
    match_whole: bool  # True for ``str(e.value) == "x"``
    match_source: str | None  # the argument as written, when not a plain string
    snippet: str
    calls: list[CallRef]
    module: str
    function: str | None  # qualname of the enclosing test function
    #: For a helper call, its string arguments by position (``"0"``) or keyword.
    texts: dict[str, str] = field(default_factory=dict)
    #: ``assertRaises(E, f, a, b)``: the positional arguments passed to ``f`` (None: the
    #: context-manager form, or ``*args`` passed).
    given: int | None = None
    #: The keywords passed to ``f`` with them (``msg`` aside), for the same check.
    keywords: tuple[str, ...] = ()
    #: The expected class is a warning category a filter of the test turned into an
    #: exception (``simplefilter("error", C)`` before ``assertRaises(C)``): ``warn``
    #: sites raise it as well as ``raise`` sites.
    raised_warning: bool = False
    #: Of those, the positions that are literals no call can run (``3``, ``"x"``,
    #: ``(1, 2)``): passed where the function calls its parameter, the interpreter raises
    #: ``TypeError`` ("'int' object is not callable") before any raise of the library's.
    uncallable: tuple[int, ...] = ()
    #: The literal arguments of the one call it checks (``assertRaises(E, f, 1, k=True)``
    #: or a ``with`` block of one call): position (``"0"``) or keyword -> value.
    constants: dict[str, object] = field(default_factory=dict)
    #: What that call passes at all, positions (``"0"``) and keywords, literal or not;
    #: None when a ``*args`` or ``**kwargs`` hides some (:mod:`.arg_values`).
    passed: tuple[str, ...] | None = None
    #: The suite's helper whose body holds the expectation, when it is a test's call of
    #: one (its local names are the helper's, not the test's).
    written_in: str | None = None
    #: The concrete test class it runs in, when the class its test is written in is a
    #: mixin whose subclasses bind what it calls differently (:mod:`.mixins`).
    runs_in: str | None = None
    #: Each call it makes: (callee as written, positional arguments or -1 with
    #: ``*args``/``**kwargs``, keywords), to tell one that cannot bind (:mod:`.call_shapes`).
    shapes: tuple[tuple[CallRef, int, tuple[str, ...]], ...] = ()


@dataclass(slots=True)
class ModuleFacts:
    name: str
    rel: str
    path: str
    is_test: bool
    is_package: bool
    imports: dict[str, str] = field(default_factory=dict)
    star: list[str] = field(default_factory=list)
    all_names: tuple[str, ...] | None = None
    #: ``__all__`` is extended with names the file does not list (``socket``'s
    #: ``__all__.extend(os._get_exports_list(_socket))``): a name missing from it may
    #: still be exported (:mod:`.module_all`).
    all_partial: bool = False
    #: Modules its top level imports by absolute name with no condition around
    #: (:mod:`errdex.analyze.stale_imports`).
    hard_imports: tuple[str, ...] = ()
    top: dict[str, str] = field(default_factory=dict)  # name -> qualname of a def/class
    functions: list[FuncFacts] = field(default_factory=list)
    classes: list[ClassFacts] = field(default_factory=list)
    expects: list[Expect] = field(default_factory=list)
    #: ``_default_decoder = JSONDecoder()`` at the top level, the name bound once: name ->
    #: the callee (an instance of it, when it is a class).
    bound_calls: dict[str, CallRef] = field(default_factory=dict)
    #: ``error = OSError`` at the top level, the name bound once: name -> the dotted name.
    aliases: dict[str, CallRef] = field(default_factory=dict)
    #: Top-level name -> (module, line, conditional, guard, caught) of a later import that
    #: replaces it (:class:`errdex.analyze.shadows.Shadow`).
    shadowed: dict[str, tuple[str, int, bool, str, bool]] = field(default_factory=dict)
    #: Top-level definition -> (C module, import line, public name) bound to that name
    #: only where the import fails (``Pickler = _Pickler``; ``analyze.twins``).
    rebound: dict[str, tuple[str, int, str]] = field(default_factory=dict)
    #: (module, C module, line): a module imported only in a fallback that cannot run here.
    fallbacks: list[tuple[str, str, int]] = field(default_factory=list)
    #: (Python module, compiled module, line, guard, caught): a module imported only
    #: where another's import of the same names is not taken (:mod:`.package_twins`).
    alternatives: list[tuple[str, str, int, str, bool]] = field(default_factory=list)
    #: Modules imported only under ``if TYPE_CHECKING:``.
    typing_only: tuple[str, ...] = ()
    #: Top-level names bound once to a platform test (``_mswindows = sys.platform ==
    #: "win32"``): name -> the test as written (:mod:`errdex.analyze.platforms`).
    platform_names: dict[str, str] = field(default_factory=dict)
    #: Top-level flags set by whether an import worked (``try: import ssl`` / ``except
    #: ImportError: _have_ssl = False`` / ``else: _have_ssl = True``): name -> the module.
    import_flags: dict[str, str] = field(default_factory=dict)
    #: Names bound once to ``re.compile(p)`` (``NAME``, ``Class.NAME``) -> "str" or "bytes".
    patterns: dict[str, str] = field(default_factory=dict)
    #: Top-level names an import binds inside a module ``if`` on the platform (``os.py``'s
    #: ``import posixpath as path`` / ``import ntpath as path``): name -> {the platform in
    #: words: the module}. ``imports`` holds the one this interpreter's platform binds.
    platform_imports: dict[str, dict[str, str]] = field(default_factory=dict)
    #: Classes as ``except`` clauses of its functions write them (``_Stop``), when the
    #: handler does not raise again: name -> (function qualname, line) of each.
    handled: dict[str, list[tuple[str, int]]] = field(default_factory=dict)
    #: Top-level names bound once and never declared ``global`` in a function: name ->
    #: (line, whether the value is a literal, the literal) (:mod:`errdex.analyze.settled`).
    settled: dict[str, tuple[int, bool, object]] = field(default_factory=dict)
    #: A test module's ``import_fresh_module(name, blocked=[...])`` calls: (name, blocked)
    #: (:mod:`errdex.analyze.twin_tests`).
    fresh: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    #: Of those, the ones a top-level name is bound to (``P = import_fresh_module(
    #: 'decimal', blocked=['_decimal'])``): name -> the modules blocked.
    fresh_names: dict[str, tuple[str, ...]] = field(default_factory=dict)


def dotted(node: ast.expr) -> CallRef | None:
    """``a.b.c`` -> ("a", "b", "c"); a method on any other receiver -> ("", name)."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return tuple(reversed(parts))
    if not parts:
        return None
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "super"
        and len(parts) == 1
    ):
        return ("super()", parts[0])
    return ("", parts[0])


def within_module(qualname: str, module: str) -> str:
    """``qualname`` below its module (``m.C.f`` in ``m`` -> ``C.f``); a top-level module's
    names (``module == ""``) are already their own."""
    return qualname[len(module) + 1 :] if module else qualname


def clean(text: str) -> str:
    """Text that encodes as UTF-8: a lone surrogate (``"\\udc80"`` in a literal) is escaped."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text
