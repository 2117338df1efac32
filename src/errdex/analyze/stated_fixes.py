"""Fixes the record's own facts state, where no requirement over the caller's arguments
was found: "errdex found no fix" speaks of errdex, not of the error, and the paired blind
reviews of stop 34 judged it misleading 36 times, often where the record held the fix.

- the raising function's own early ``return`` under a parameter the caller leaves at its
  default: ``inspect.getattr_static(obj, attr, default=_sentinel)`` returns ``default``
  when one is passed, the statement before its ``raise AttributeError``; ``gettext``'s
  ``translation(…, fallback=False)`` returns ``NullTranslations()`` when ``fallback``;
- the record's type guard, where every condition on the way is an ``isinstance`` test
  over one parameter the caller passes (``ast.get_docstring(node)``);
- the raising function's docstring, where a sentence states a requirement ("must",
  "cannot") in words of the message or the class (``Maildir.remove_folder``: "Delete
  the named folder, which must be empty" beside ``NotEmptyError("Folder contains
  message(s)")``).
"""

from __future__ import annotations

import ast
import re

from .baseline import kebab
from .chain_funcs import own_params, rebound_before
from .chain_parts import signature_of
from .code_fields import type_guard
from .entrypoints import run_by_syntax
from .gathered import Gathered, class_phrase, location
from .guard_paths import reaches_unchanged
from .guards import CONDITION_KINDS, code, has_private, isinstance_checks, parse_guard
from .param_mentions import names_param
from .param_requirement import call_name
from .quoting import quote

__all__ = ["called_by_name", "docstring_fix", "exit_fixes", "type_fix", "type_requirement"]

#: A solution and the evidence keys it rests on.
Remedy = tuple[str, list[str]]


def called_by_name(g: Gathered) -> str | None:
    """How a caller calls the raising function, when it calls it by name (an entry point
    at depth 0, not run by syntax such as ``x in y``, not a program's main)."""
    func = g.func
    if func is None or func.command_line is not None:
        return None
    own = [e for e in g.entry_points if e.get("depth") == 0]
    if not own or run_by_syntax(own[0]["qualname"]):
        return None
    return call_name(own[0]["qualname"], func)


# -- an early return under a parameter left at its default -------------------------------


def exit_fixes(g: Gathered) -> list[Remedy]:
    """Each early ``return`` before the raise, in the same block, taken when the caller
    passes a parameter it may leave out: ``if P is not D`` with ``D`` the default of
    ``P``, ``if P`` with a default of ``False`` (not ``None``: a falsy value passed
    takes the raise as well)."""
    func, call = g.func, called_by_name(g)
    if func is None or call is None or g.site.kind != "raise":
        return []
    sig = signature_of(func.signature)
    window = g.site.window()
    if sig is None or window is None:
        return []
    params = set(own_params(func))
    out: list[Remedy] = []
    for at, cond, first, last in func.early_exits:
        if not first <= g.site.line <= last or not _returns(g, window, at, first):
            continue
        given = _given(cond, params, sig.defaults, sig.named)
        if given is None:
            continue
        param, value = given
        if has_private(param) or rebound_before(func, param, at):
            continue  # the ``if`` tests another value than the caller's
        what = f"Pass {code(param)}" if value is None else f"Pass {code(f'{param}={value}')}"
        test = (
            f"{code(f'if {cond}:')} at line {at}"
            if not has_private(cond)
            else f"the `if` at line {at}"
        )
        out.append(
            (
                f"{what} to {code(call)}: then {test} returns before the call reaches the "
                f"raise of {class_phrase(g)} at line {g.site.line}.",
                ["function.signature", "sourceCode"],
            )
        )
    return out[:1]


def _given(
    cond: str, params: set[str], defaults: dict[str, object], named: dict[str, str]
) -> tuple[str, str | None] | None:
    """(parameter, the value to pass or None for "any") when ``cond`` holds only where
    the caller passed something other than the parameter's default."""
    node = parse_guard(cond)
    if isinstance(node, ast.Name) and node.id in params:
        if node.id in defaults and defaults[node.id] is False:
            return node.id, "True"
        return None
    if (
        isinstance(node, ast.Compare)
        and len(node.ops) == 1
        and isinstance(node.ops[0], ast.IsNot)
        and isinstance(node.left, ast.Name)
        and node.left.id in params
    ):
        param, right = node.left.id, node.comparators[0]
        if isinstance(right, ast.Name) and named.get(param) == right.id:
            return param, None  # ``default is not _sentinel``: the default means "none"
        none = isinstance(right, ast.Constant) and right.value is None
        if none and param in defaults and defaults[param] is None:
            return param, None
    return None


def _returns(g: Gathered, window: tuple[list[str], int], at: int, first: int) -> bool:
    """The ``if``'s body (lines ``at`` to ``first - 1``) leaves by ``return``, read from
    the record's source window; False where the window does not hold it."""
    lines, index = window
    start, end = index + at - g.site.line, index + first - 1 - g.site.line
    if start < 0 or end >= len(lines) or end <= start:
        return False
    body = [line.strip() for line in lines[start + 1 : end + 1] if line.strip()]
    return (
        bool(body)
        and body[-1].startswith("return")
        and not any(b.startswith("raise") for b in body)
    )


# -- the record's type guard -------------------------------------------------------------


def type_fix(g: Gathered) -> Remedy | None:
    """ "Pass ``x`` as an instance of …" where the record's type guard is the whole
    condition: every condition on the way is ``not isinstance(x, …)`` over one parameter
    the caller passes (joined by ``and``), so an instance of any type named avoids it."""
    call = called_by_name(g)
    required = type_requirement(g)
    if call is None or required is None:
        return None
    subject, listed = required
    return (
        f"Pass {code(subject)} to {code(call)} as an instance of {listed}: it raises "
        f"{class_phrase(g)} for any other ({location(g.site.path, g.site.line)}).",
        ["site.guards", "typeGuard", "entryPoints"],
    )


def type_requirement(g: Gathered, *, called: bool = True) -> tuple[str, str] | None:
    """The parameter and its types, listed ("`A`, `B` or `C`"), where every condition on
    the way is ``not isinstance(x, …)`` over one public parameter of the raising function
    and the types are public names. ``called``: the raising function is itself public
    (its type guard, :func:`.code_fields.type_guard`); else only not rebound before."""
    if g.func is None:
        return None
    if called and type_guard(g)[0] is None:
        return None
    conditions = [x for x in g.site.guards if x["kind"] in CONDITION_KINDS]
    checks = [c for x in conditions for c in isinstance_checks(str(x["text"]))]
    subjects = {subject for subject, _, _ in checks}
    if not checks or len(subjects) != 1 or any(positive for _, _, positive in checks):
        return None
    (subject,) = subjects
    if has_private(subject) or subject not in own_params(g.func):
        return None
    if not called and not reaches_unchanged(g, subject):
        return None  # the test reads another value than the caller's (``type_guard`` knows)
    if not all(_only_isinstance(x["text"]) for x in conditions):
        return None
    types = [t for _, names, _ in checks for t in _type_names(names)]
    if not types or any(has_private(t) for t in types):
        return None
    listed = ", ".join(code(t) for t in types[:-1])
    return subject, (f"{listed} or {code(types[-1])}" if listed else code(types[-1]))


def _only_isinstance(text: object) -> bool:
    """The condition is ``not isinstance(…)`` tests joined by ``and`` (an ``else`` of an
    ``isinstance`` test is ``not isinstance(…)``), nothing else."""
    node = parse_guard(str(text))
    parts = node.values if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And) else [node]
    return all(
        isinstance(p, ast.UnaryOp)
        and isinstance(p.op, ast.Not)
        and isinstance(p.operand, ast.Call)
        and isinstance(p.operand.func, ast.Name)
        and p.operand.func.id == "isinstance"
        for p in parts
    )


def _type_names(text: str) -> list[str]:
    """``(A, B)`` -> ``[A, B]``; ``A`` -> ``[A]``; none for anything computed."""
    node = parse_guard(text)
    items = node.elts if isinstance(node, ast.Tuple) else [node]
    if not all(isinstance(i, (ast.Name, ast.Attribute)) for i in items):
        return []
    return [ast.unparse(i) for i in items if i is not None]


# -- the docstring's requirement ---------------------------------------------------------

#: A sentence that states what must hold.
_REQUIRES = re.compile(r"\b(?:must|cannot|can ?not)\b", re.IGNORECASE)
#: What a sentence says the function gives back or does afterwards is no requirement.
_RESULT = re.compile(r"\breturns?\b|\byields?\b|>>>", re.IGNORECASE)
_CODE = re.compile(r"::|#|=|[{}]|^(?:class|def)\s")
_WORD = re.compile(r"[A-Za-z]{4,}")
#: A sentence ends at a full stop before any letter ("… unreserved characters. string
#: and safe may be …" starts a sentence with a parameter's name) and at a blank line.
_SENTENCE = re.compile(r"(?<!\w\.\w\.)(?<=[.!?])\s+|\n\s*\n")
#: Words too common to tie a sentence to a message.
_COMMON = frozenset(
    {
        "must",
        "cannot",
        "only",
        "that",
        "this",
        "with",
        "when",
        "which",
        "have",
        "from",
        "been",
        "will",
        "should",
        "given",
        "value",
        "error",
        "none",
        "than",
        "into",
        "each",
        "were",
        "does",
        "there",
        "their",
    }
)


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)} - _COMMON


def docstring_fix(g: Gathered) -> Remedy | None:
    """The first sentence of the raising function's docstring that states a requirement
    and shares two words with the message or the class name (a sentence on something
    else — a timeout, the return value — shares fewer), when callers call it by name.
    (The nearest entry point's docstring, tried too, gave one sentence in the standard
    library, and that one a code example.)"""
    call = called_by_name(g)
    if call is None or g.func is None or g.site.template.is_opaque:
        return None
    if g.site.kind == "assert" or g.site.error_class == "AssertionError":
        return None  # an assertion's docstring says what it checks, not what to pass
    said = _words(" ".join(g.site.template.literals)) | _words(
        " ".join(kebab(g.site.error_class or "").split("-"))
    )
    params = {p.lstrip("*") for p in own_params(g.func)} - {"self", "cls"}
    named = {w.lower() for w in re.split(r"_|(?<=[a-z])(?=[A-Z])", g.func.name) if len(w) >= 4}
    text = _requirement(g.func.docstring or "", said, params, _condition_words(g), named - _COMMON)
    if text is None:
        return None
    return (
        f"The docstring of {code(call)} states what the call requires: {quote(text)}.",
        ["function.docstring", "site.template"],
    )


def _requirement(
    doc: str,
    said: set[str],
    params: set[str],
    tested: set[str],
    named: frozenset[str] | set[str] = frozenset(),
) -> str | None:
    """The first requirement sentence that names a parameter (:mod:`.param_mentions`), else the first that shares
    two words with the conditions on the way or speaks of what the function's own name
    names (``remove_folder``: "Delete the named folder, which must be empty."); one on
    none of these (``Header.encode``: "Only certain character sets are readable in most
    email clients ...", beside a check for an embedded header in the value) says nothing
    of this raise."""
    fallback = None
    for sentence in _SENTENCE.split(doc.strip()):
        text = " ".join(sentence.split())
        if len(text) > 240 or not _REQUIRES.search(text) or _RESULT.search(text):
            continue
        if _CODE.search(text):  # an example's code and comments, not a sentence
            continue
        if len(_words(text) & said) < 2 or has_private(text):
            continue
        words = {w.lower() for w in re.findall(r"[A-Za-z_]\w*", text)}
        if names_param(text, params):  # quoted, or no ordinary word ("a", "value")
            return text
        if fallback is None and (_stem_shared(words, tested) >= 2 or words & named):
            fallback = text
    return fallback


def _condition_words(g: Gathered) -> set[str]:
    """The parts of the names the conditions on the way read and call (``events
    ._get_running_loop()`` -> events, running, loop)."""
    out: set[str] = set()
    for guard in g.site.guards:
        if guard["kind"] in CONDITION_KINDS or guard["kind"] == "for":
            for name in re.findall(r"[A-Za-z_]\w*", str(guard["text"])):
                out |= {w.lower() for w in name.split("_") if len(w) >= 3}
    return out - _COMMON - {"not", "and", "for", "len", "self", "isinstance"}


def _stem_shared(words: set[str], tested: set[str]) -> int:
    """How many of ``tested`` a word of the sentence names, a word and its inflection
    (``exists``, ``exist``) counted as one."""
    return sum(
        any(
            w == t or (min(len(w), len(t)) >= 4 and (w.startswith(t) or t.startswith(w)))
            for w in words
        )
        for t in tested
    )
