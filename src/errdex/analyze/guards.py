"""The guard chain in words, its negation as a requirement, and the names a guard reads.

Guards are the conditions the extractor found on the way to the raise, outermost first.
They are shown as the source writes them (in backticks) and only arranged into a
sentence: conditions first, then the loop or handler they sit in.
"""

from __future__ import annotations

import ast
import builtins
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from functools import lru_cache

from errdex.evidence import GuardItem
from errdex.extract.python import negate
from errdex.template import Hole, Literal, MessageTemplate

from .linear import LinearRegex
from .parsed import parse_guard
from .platforms import OTHER_THAN, platform_words

__all__ = [
    "CONDITION_KINDS",
    "Conditions",
    "code",
    "condition_phrase",
    "conjuncts",
    "disjuncts",
    "free_names",
    "has_private",
    "isinstance_checks",
    "negated",
    "parse_guard",
    "split_conditions",
]

#: Guards that are conditions (as opposed to loops, handlers and match cases).
CONDITION_KINDS = frozenset({"if", "elif", "else", "assert", "while-else"})
_BUILTINS = frozenset(dir(builtins))
#: Searched in a literal of any size: RE2, linear time.
_WORD_BEFORE = LinearRegex(r"([A-Za-z][A-Za-z-]*)\s*$")


#: A name with a leading underscore: ``_eof``, ``self._buf``, ``pkg._impl.f``.
_PRIVATE = re.compile(r"(?<![\w])_\w+")


def has_private(text: str) -> bool:
    """Whether code text names something private (dunders aside): a caller cannot act on it."""
    return any(not (m.startswith("__") and m.endswith("__")) for m in _PRIVATE.findall(text))


def code(text: str) -> str:
    """Inline code: the text in backticks (a backtick inside becomes a quote)."""
    return "`" + text.replace("`", "'") + "`"


def negated(text: str) -> str:
    """The condition under which the guard does not fire, as a reader would write it."""
    node = parse_guard(text)
    if node is None:
        return f"not ({text})"
    if isinstance(node, ast.BoolOp):
        joiner = " or " if isinstance(node.op, ast.And) else " and "
        parts = []
        for value in node.values:
            inner = negated(ast.unparse(value))
            parts.append(f"({inner})" if isinstance(parse_guard(inner), ast.BoolOp) else inner)
        return joiner.join(parts)
    return negate(node, ast.unparse(node))


def free_names(text: str, params: Collection[str] = ()) -> set[str] | None:
    """Names a condition reads (``len`` and other builtins aside, unless ``params``, the
    function's parameters, shadow one: ``UUID.__init__``'s ``hex is not None``); None
    if it does not parse."""
    names = _read_names(text)
    if names is None:
        return None
    plain, builtin = names
    if not builtin:
        return set(plain)
    return {*plain, *(n for n in builtin if n in params)}


@lru_cache(maxsize=8192)
def _read_names(text: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """The names ``text`` reads, other than builtins and builtins; memoised by the text, as
    :func:`.parsed.parse_guard` is: the chain walk asks again for every guard of every
    site, and a function's early exits are guards of each raise after them (3,000 sites
    in one function made it 1.4 million walks)."""
    node = parse_guard(text)
    if node is None:
        return None
    bound: set[str] = set()
    names: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.comprehension):
            for target in ast.walk(sub.target):
                if isinstance(target, ast.Name):
                    bound.add(target.id)
        elif isinstance(sub, ast.Lambda):
            bound.update(a.arg for a in sub.args.args)
        elif isinstance(sub, ast.Name):
            names.add(sub.id)
    free = names - bound
    return frozenset(free - _BUILTINS), frozenset(free & _BUILTINS)


def isinstance_checks(text: str) -> list[tuple[str, str, bool]]:
    """``(subject, types, fires_when_instance)`` for each isinstance test a condition makes."""
    node = parse_guard(text)
    if node is None:
        return []
    out: list[tuple[str, str, bool]] = []

    def visit(expr: ast.expr, positive: bool) -> None:
        if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
            visit(expr.operand, not positive)
        elif isinstance(expr, ast.BoolOp) and isinstance(expr.op, ast.And) is positive:
            # ``a and b`` holding (or ``a or b`` failing) says each part does: look inside.
            # ``a or b`` holding says nothing about either part alone.
            for value in expr.values:
                visit(value, positive)
        elif (
            isinstance(expr, ast.Call)
            and isinstance(expr.func, ast.Name)
            and expr.func.id == "isinstance"
            and len(expr.args) == 2
        ):
            out.append((ast.unparse(expr.args[0]), ast.unparse(expr.args[1]), positive))

    visit(node, True)
    return out


def _loop_phrase(text: str, template: MessageTemplate) -> str:
    """``for axis, (i, o) in enumerate(xs)`` -> for dimension `axis` in the loop over `xs`."""
    whole = "inside a loop" if has_private(text) else f"inside the loop {code(text)}"
    node = None
    try:
        node = ast.parse(text.strip() + ": pass").body[0]
    except (SyntaxError, ValueError, RecursionError):
        return whole
    if not isinstance(node, ast.For):
        return whole
    target, iterable = node.target, node.iter
    index_name: str | None = None
    over = iterable
    if (
        isinstance(iterable, ast.Call)
        and isinstance(iterable.func, ast.Name)
        and iterable.func.id == "enumerate"
        and iterable.args
        and isinstance(target, ast.Tuple)
        and target.elts
        and isinstance(target.elts[0], ast.Name)
    ):
        index_name = target.elts[0].id
        over = iterable.args[0]
    elif isinstance(target, ast.Name):
        index_name = target.id
    if index_name is None:
        return whole
    noun = _noun_before(template, index_name)
    who = f"{noun} {code(index_name)}" if noun else f"each {code(index_name)}"
    iterated = ast.unparse(over)
    if has_private(iterated):  # ``self._headers``: nothing a caller reads
        return f"for {who} in a loop"
    return f"for {who} in the loop over {code(iterated)}"


def _noun_before(template: MessageTemplate, name: str) -> str | None:
    """The message's own word for a loop variable: ``on dimension {axis}`` -> dimension."""
    parts = template.parts
    for i, part in enumerate(parts):
        if isinstance(part, Hole) and part.name == name and i > 0:
            before = parts[i - 1]
            if isinstance(before, Literal):
                m = _WORD_BEFORE.search(before.text)
                if m and m.group(1).lower() not in _FILLER:
                    return str(m.group(1))
    return None


_FILLER = frozenset(
    {"a", "an", "the", "of", "on", "in", "at", "for", "to", "and", "or", "is", "be"}
)


@dataclass(frozen=True, slots=True)
class Conditions:
    """The conditions on the way to a raise, sorted by who can read them: code a caller
    can read, platform tests (in words), and conditions over private names (not restated:
    a caller cannot check or change ``self._connection_lost``)."""

    public: tuple[str, ...] = ()
    platforms: tuple[str, ...] = ()
    private: tuple[str, ...] = ()


def conjuncts(text: str) -> list[str]:
    """A condition's parts at its top-level ``and``, each as ``ast.unparse`` writes it."""
    return _parts(text, ast.And)


def disjuncts(text: str) -> list[str]:
    """A condition's parts at its top-level ``or``, each as ``ast.unparse`` writes it:
    past ``if a or b: return``, each is false."""
    return _parts(text, ast.Or)


def _parts(text: str, op: type[ast.boolop]) -> list[str]:
    node = parse_guard(text)
    if node is None:
        return [text]
    if isinstance(node, ast.BoolOp) and isinstance(node.op, op):
        return [ast.unparse(v) for v in node.values]
    return [ast.unparse(node)]


def split_conditions(
    guards: list[GuardItem],
    modules: Mapping[str, str] | None = None,
    constants: Mapping[str, str] | None = None,
    flags: Mapping[str, str] | None = None,
) -> Conditions:
    """Each condition (and each ``while`` that is no ``while True``), split at a top-level
    ``and`` where it mixes private names or a platform test with the rest. ``modules``
    and ``constants`` resolve platform tests (:func:`errdex.analyze.platforms.platform_words`)."""
    public: list[str] = []
    platforms: list[str] = []
    private: list[str] = []
    for g in guards:
        kind, text = g["kind"], str(g["text"])
        if kind not in CONDITION_KINDS and not (kind == "while" and has_private(text)):
            continue
        node = parse_guard(text)
        words = platform_words(text, modules, constants)
        if words is None and flags and node is not None:
            words = flags.get(ast.unparse(node))  # ``not _have_ssl``, ``self._debug``
        if words is not None:
            platforms.append(words)
            continue
        split = isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And)
        flagged = isinstance(node, ast.BoolOp) and any(
            ast.unparse(v) in (flags or {}) for v in node.values
        )
        if not has_private(text) and not (split and _names_platform(text)) and not flagged:
            public.append(text)
            continue
        if not isinstance(node, ast.BoolOp) or not split:
            private.append(text)
            continue
        rest: list[str] = []
        for value in node.values:
            part = ast.unparse(value)
            words = platform_words(part, modules, constants) or (flags or {}).get(part)
            if words is not None:
                platforms.append(words)
            elif has_private(part):
                private.append(part)
            else:
                rest.append(f"({part})" if isinstance(value, ast.BoolOp) else part)
        if rest:
            public.append(" and ".join(rest))
    return Conditions(
        tuple(public), _merged(list(dict.fromkeys(platforms))), tuple(dict.fromkeys(private))
    )


def _names_platform(text: str) -> bool:
    """Cheap: the text could hold a platform test (``sys.platform``, ``os.name``, …)."""
    return "platform" in text or "os.name" in text


def _merged(platforms: list[str]) -> tuple[str, ...]:
    """ "on platforms other than A" twice is one "on platforms other than A and B"."""
    others = [p[len(OTHER_THAN) :] for p in platforms if p.startswith(OTHER_THAN)]
    rest = [p for p in platforms if not p.startswith(OTHER_THAN)]
    return (*rest, *([OTHER_THAN + " and ".join(others)] if others else []))


def _forever(text: str) -> bool:
    """``while True``/``while 1``: a loop header, no condition at all."""
    node = parse_guard(text)
    return isinstance(node, ast.Constant) and bool(node.value)


def condition_phrase(
    guards: list[GuardItem],
    template: MessageTemplate,
    *,
    private: str | None = None,
    modules: Mapping[str, str] | None = None,
    constants: Mapping[str, str] | None = None,
    said: str | None = None,
    defined_on: str | None = None,
    raisers: Mapping[int, str] | None = None,
    suppressed: bool = False,
    flags: Mapping[str, str] | None = None,
) -> str | None:
    """The guard chain as a clause, e.g. "when `i is None`, on Windows, for dimension
    `axis` in the loop over `zip(a, b)`" or "after `KeyError` was caught"; None when
    nothing is said (an unconditional raise, or only private conditions and no
    ``private`` words). Platform tests are said in words; conditions over private names
    are not restated: ``private`` is what is said instead (the message's or the class
    docstring's words, :mod:`errdex.analyze.private_terms`), last; a ``while True``
    loop is no condition. ``said``: conditions the sentence states already (their
    conjuncts are not repeated); ``defined_on``: the platform the raising function is
    defined on, when a module or class ``if`` decides it ("on Windows"); ``raisers``: by
    handler line, the one statement of its ``try`` that can raise (:mod:`.try_body`):
    "after `fdst.write(buf)` raised `OSError`"; ``suppressed``: the raise is ``raise … from
    None``, which hides what the handler caught, so no handler is said to be the cause:
    "when `int(s)` raises `ValueError`", "when its `try` block raises `KeyError`"; ``flags``:
    words for conditions on a flag a caller sets some other way (:mod:`.flag_words`)."""
    split = split_conditions(guards, modules, constants, flags)
    known = set(conjuncts(said)) if said else set()  # said already, in the caller's names
    conditions = [code(t) for t in split.public if not set(conjuncts(t)) <= known]
    contexts: list[str] = list(split.platforms)
    if defined_on and defined_on not in contexts:
        contexts.insert(0, defined_on)
    for g in reversed(guards):
        kind, text = g["kind"], g["text"]
        if kind == "for":
            contexts.append(_loop_phrase(text, template))
        elif kind == "while":
            if not _forever(text) and not has_private(text):
                contexts.append(f"while {code(text)} holds")
        elif kind == "except":
            caught = text.partition(" was raised")[0]
            by = (raisers or {}).get(g["line"])
            if suppressed:
                who = code(by) if by else "its `try` block"
                contexts.append(f"when {who} raises {_caught(caught)}")
            else:
                contexts.append(
                    f"after {code(by)} raised {_caught(caught)}"
                    if by
                    else f"after {code(caught)} was caught"
                )
        elif kind == "case":
            contexts.append(f"when {code(text)}")
    if split.private and private:
        if private.startswith("when ") and conditions:  # the private tests, as code
            conditions.append(private.removeprefix("when "))
        else:
            contexts.append(private)
    if not conditions and not contexts:
        return None
    if not conditions:
        return ", ".join(contexts)
    return ", ".join([f"when {' and '.join(conditions)}", *contexts])


def _caught(caught: str) -> str:
    """``(TypeError, ValueError)`` -> "one of `TypeError`, `ValueError`"."""
    try:
        node: ast.expr | None = ast.parse(caught.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        node = None
    if isinstance(node, ast.Tuple) and len(node.elts) > 1:
        return "one of " + ", ".join(code(ast.unparse(e)) for e in node.elts)
    return code(caught)
