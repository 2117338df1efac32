"""What a chain walk reads of one function: whether its definition runs at all, the
parameters its callers pass, whether one still holds the caller's value at a line, and
one element of a ``*args`` or of a display. Split from :mod:`.chains`, which walks the calls."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .callsites import Arg
from .facts import FuncFacts, within_module
from .guard_eval import OPAQUE, is_immutable
from .guards import free_names
from .none_kept import kept_none
from .repo import RepoIndex
from .shadows import interpreter_module
from .value_ranges import Interval

__all__ = [
    "bound_targets",
    "closure_class",
    "display_item",
    "early_params",
    "element",
    "own_params",
    "rebound_before",
    "replaced",
    "static",
]


def replaced(index: RepoIndex, func: FuncFacts) -> bool:
    """Whether a later import in the module replaces the function's top-level definition
    for good: unconditionally, or (inside ``try: … except ImportError``) with a module
    compiled into this interpreter, whose import does not fail here."""
    module = index.modules.get(func.module)
    if module is None or not module.shadowed:
        return False
    inner = within_module(func.qualname, func.module)
    found = module.shadowed.get(inner.split(".")[0])
    if found is None:
        return False
    source, _, conditional, _guard, _caught = found
    return not conditional or interpreter_module(source)


def own_params(func: FuncFacts) -> tuple[str, ...]:
    """Parameters a caller passes: ``self``/``cls`` of a method and starred ones aside."""
    names = [p for p in func.params if not p.startswith("*")]
    if func.cls is not None and names and names[0] in ("self", "cls") and not static(func):
        names = names[1:]
    return tuple(names)


def rebound_before(func: FuncFacts, param: str, line: int | None) -> bool:
    """Whether ``param`` may hold something else than the caller's value at ``line``:
    the body binds it again before that line (or anywhere, with no line: a raise in a
    loop may run after a later binding). ``warnings.filterwarnings`` asserts
    ``isinstance(module, str)`` and only then binds ``module = re.compile(module)``."""
    if param not in func.rebound:
        return False
    if line is None:
        return True
    return any(bound <= line for bound in func.bound_lines.get(param, (0,)))


def early_params(
    index: RepoIndex,
    func: FuncFacts,
    guards: Sequence[str],
    guard_lines: Sequence[int],
    line: int | None,
    kept: Collection[str],
) -> tuple[set[str], list[str], set[str]]:
    """Parameters the body binds again before the raise (so not in ``kept``) that a
    guard still reads as the caller passed them, being tested before every binding; and
    the guards, one that reads such a parameter after a binding as ``True`` (not
    judged). ``UUID.__init__`` tests ``if hex is not None:`` at line 174, binds ``hex =
    hex.replace(…)`` inside it and raises "badly formed hexadecimal UUID string" there:
    ``uuid1``, passing no ``hex``, never gets in. Only for a raise no loop encloses
    (``line``), and not for a parameter bound again to literals only (those are judged
    as :attr:`FuncFacts.param_literals`). Third, those every binding of which keeps a
    ``None`` (:mod:`.none_kept`): a direct caller's ``None`` is theirs at every test."""
    held = kept_none(index, func, guards, kept)
    kept, out = {*kept, *held}, set[str]()
    if line is None or len(guard_lines) != len(guards):
        return out, list(guards), held
    own = own_params(func)
    for text, at in zip(guards, guard_lines, strict=True):
        for name in free_names(text, own) or ():
            bound = func.bound_lines.get(name, ())
            if name in kept or name in func.param_literals or name not in own:
                continue
            if bound and at < min(bound):
                out.add(name)
    judged = [
        text
        if not (free_names(text) or set())
        & {n for n in out if at >= min(func.bound_lines.get(n, (0,)))}
        else "True"
        for text, at in zip(guards, guard_lines, strict=True)
    ]
    return out, judged, held


def element(arg: Arg | None) -> object:
    """One element of a ``*args`` as far as it is known."""
    if arg is not None and arg[0] == "const" and is_immutable(arg[1]):
        return arg[1]
    return OPAQUE


def display_item(item: Arg | None, caller: FuncFacts) -> object:
    """One item of a tuple or list display a caller passes, as far as it is known: a
    literal, a local bound once to one, or to a masked number (``time_mid = (t >> 32) &
    0xffff``, :mod:`.value_ranges`); anything else :data:`OPAQUE` (its length and truth
    stay known)."""
    if item is None:
        return OPAQUE
    kind, value = item
    if kind == "name" and isinstance(value, str):
        if value in caller.local_consts:
            value = caller.local_consts[value]
        else:
            held = caller.local_sets.get(value, ())
            return held[0] if len(held) == 1 and isinstance(held[0], Interval) else OPAQUE
    return value if is_immutable(value) else OPAQUE


def static(func: FuncFacts) -> bool:
    return ("staticmethod",) in func.decorators


def bound_targets(index: RepoIndex, func: FuncFacts, ref: tuple[str, ...]) -> list[str]:
    """Calls exact resolution leaves, resolved through the class: ``self.attr.m()``
    where the class body binds ``attr = SomeClass`` (``TarFile.tarinfo = TarInfo``,
    the default a caller may replace) or ``attr = SomeClass()`` (:func:`_made_attr`),
    and ``obj.m()`` in a classmethod where ``obj = cls(...)`` or ``cls.from_x(...)``,
    an alternate constructor of the same class."""
    built = _made_attr(index, func, ref)
    if built:
        return built
    cls = func.cls
    if cls is None:
        return []
    if len(ref) == 3 and ref[0] == "self":
        for owner in (cls, *index.bases(cls)):
            facts = index.classes.get(owner)
            bound = facts.attrs.get(ref[1]) if facts is not None else None
            if bound is None:
                continue
            target = index.resolve(facts.module, bound) if facts else None
            if target is not None and target.kind == "class":
                method = index.method(target.qualname, ref[2])
                return [method] if method is not None else []
            return []
    if len(ref) == 2 and ("classmethod",) in func.decorators:
        made = func.local_calls.get(ref[0])
        if made is None or made[0] != "cls" or len(made) > 2:
            return []
        if len(made) == 2:
            maker = index.method(cls, made[1])
            maker_facts = index.function(maker) if maker else None
            if maker_facts is None or ("classmethod",) not in maker_facts.decorators:
                return []
            if not made[1].startswith("from"):
                return []
        method = index.method(cls, ref[1])
        return [method] if method is not None else []
    return []


def _made_attr(index: RepoIndex, func: FuncFacts, ref: tuple[str, ...]) -> list[str]:
    """``self.attr.m()`` or ``Owner.attr.m()`` where the class body binds ``attr =
    SomeClass()`` once: ``BufferWrapper._heap.malloc(size)`` with ``_heap = Heap()``
    runs ``Heap.malloc``."""
    if len(ref) != 3:
        return []
    if ref[0] == "self":
        owner = func.cls
    else:
        target = index.resolve(func.module, ref[:1], func.local_imports)
        owner = target.qualname if target is not None and target.kind == "class" else None
    if owner is None:
        return []
    for above in (owner, *index.bases(owner)):
        facts = index.classes.get(above)
        if facts is None or ref[1] in facts.attrs:
            return []
        made = facts.attr_calls.get(ref[1])
        if made is None:
            continue
        target = index.resolve(facts.module, made)
        if target is None or target.kind != "class":
            return []
        method = index.method(target.qualname, ref[2])
        return [method] if method is not None else []
    return []


def closure_class(index: RepoIndex, func: FuncFacts) -> str | None:
    """The class of the method whose ``self`` a nested function uses as a free name
    (``take_action`` inside ``ArgumentParser._parse_known_args``)."""
    scope: FuncFacts | None = func
    while scope is not None and scope.cls is None:
        if "self" in scope.params or scope.parent is None:
            return None
        scope = index.function(scope.parent)
    return scope.cls if scope is not None else None
