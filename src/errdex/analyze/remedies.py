"""Solutions in the caller's terms, each with the evidence it stands on.

A developer who hit an error controls what they passed to a public function, not the
private state the raise tests. So a solution is written only from: the message's own
advice ("use X instead"); the site's condition when it is over parameters that reach it
unchanged from a public entry point's parameters (said in that entry point's names); the
docstrings' requirements (a ``Raises`` entry, a parameter's description); and, for
abstract methods and control-flow signals, their role. A requirement that could only be
said with private names or the raising function's locals is left out, not restated.
"""

from __future__ import annotations

import ast
import builtins
import io
import re
import tokenize
from dataclasses import dataclass
from typing import Any

from errdex.evidence import EntryPoint
from errdex.template import Hole

from .baseline import USAGE_BUILTINS
from .chains import own_params
from .entrypoints import run_by_syntax
from .facts import FuncFacts
from .gathered import Gathered, catch_phrase, class_phrase, short_name, verb
from .guards import CONDITION_KINDS, code, free_names, has_private, negated, parse_guard
from .quoting import NO_FIX, cause_solution, quote, stated_cause
from .roles import role_solution

__all__ = [
    "USAGE_FAMILIES",
    "ParamRequirement",
    "Remedy",
    "call_name",
    "catch_entry",
    "innermost_condition",
    "param_requirement",
    "remedies",
    "surfaced_class",
    "usage_error",
]

#: A solution and the evidence keys it rests on.
Remedy = tuple[str, list[str]]

#: Advice: an imperative at the start of a clause ("Use X", "; pass Y"), or a phrase that
#: only advice uses. A verb inside a statement is none ("cannot be set", "don't know how
#: to set ...").
_ADVICE = re.compile(
    r"(?:^|[.;:!?(]\s*|\s[-–]\s*)(?:use|try|consider|please|install|set|pass|call|provide|specify)\b"
    r"|\bdid you mean\b|\binstead\b|\bconsider\b|\bplease\b"
    r"|\byou (?:have to|must|need to|should) (?:use|pass|call|set|provide|specify)\b",
    re.IGNORECASE,
)
_REQUIREMENT = re.compile(r"\b(must|should|expected|expects|requires?|only)\b", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`'\"(])")
_BUILTINS = frozenset(dir(builtins))
#: Families of a mistake in the calling code (a bad argument, a misuse of an object, an
#: internal check): catching one "where the program must go on" hides the mistake, so no
#: catch advice is written for them (:func:`_fallback`). Failures of the world outside
#: the call (I/O, network, a malformed input file, a timeout) keep it.
USAGE_FAMILIES = frozenset(
    {
        "type-mismatch",
        "invalid-value",
        "missing-attribute",
        "internal-assertion",
        "shape-mismatch",
        "empty-input",
        "out-of-range",
        "invalid-state",
    }
)


def innermost_condition(g: Gathered) -> dict[str, Any] | None:
    """The closest condition to the raise, unless a handler is closer (then the raise
    translates a caught error, and negating an outer condition is no remedy)."""
    for guard in reversed(g.site.guards):
        if guard["kind"] == "except":
            return None
        if guard["kind"] in CONDITION_KINDS:
            return dict(guard)
    return None


def call_name(qualname: str, func: FuncFacts | None) -> str:
    """How a caller writes the call: ``open_archive()``, ``Archive()``, ``Archive.read()``."""
    if func is None or func.cls is None:
        name = short_name(qualname)
        if name in _BUILTINS and func is not None and func.module:  # ``gzip.open()``
            return f"{func.module.rpartition('.')[2]}.{name}()"
        return f"{name}()"
    cls = short_name(func.cls)
    if func.name in ("__init__", "__new__"):
        return f"{cls}()"
    return f"{cls}.{func.name}()"


def _message_advice(g: Gathered) -> list[Remedy]:
    """Sentences of the message that say what to do ("use X instead") or what must hold."""
    if g.site.template.is_opaque:
        return []
    found: list[Remedy] = []
    for sentence in _SENTENCE.split(g.site.template.display):
        text = sentence.strip()
        if len(text) <= 3:
            continue
        if _ADVICE.search(text):
            found.append((f"Follow the message's own advice: {quote(text)}.", ["site.template"]))
        elif _REQUIREMENT.search(text):
            found.append((f"The message states the requirement: {quote(text)}.", ["site.template"]))
    return found[:2]


@dataclass(frozen=True, slots=True)
class ParamRequirement:
    """The condition's negation over an entry point's own parameters."""

    entry: EntryPoint
    call: str  # ``open_archive()``
    params: tuple[str, ...]  # the entry point's parameters it reads
    requirement: str  # what must hold, in those names
    fires: str  # when it raises, in those names
    shown: tuple[str, ...]  # parameters whose value the message prints
    #: Other conditions on the way read what the caller does not pass (a local, ``self``):
    #: ``fires`` is then needed for the raise, not enough, and ``requirement`` is enough
    #: to avoid it (every condition must hold for the raise to run).
    partial: bool = False
    #: The conditions it stands for, in the raising function's names.
    condition: str = ""


def _renamed(text: str, names: dict[str, str]) -> str | None:
    """``text`` with the names in ``names`` replaced (attributes and keywords left alone)."""
    if parse_guard(text) is None:
        return None
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return None
    out = []
    significant = [t for t in tokens if t.type not in _SKIP_TOKENS]
    for i, tok in enumerate(significant):
        before = significant[i - 1].string if i else ""
        after = significant[i + 1].string if i + 1 < len(significant) else ""
        if tok.type == tokenize.NAME and tok.string in names and before != "." and after != "=":
            out.append((tok, names[tok.string]))
    for tok, new in reversed(out):  # one line: columns index the text directly
        if tok.start[0] != 1:
            return None
        text = text[: tok.start[1]] + new + text[tok.end[1] :]
    return text


_SKIP_TOKENS = frozenset(
    {
        tokenize.NEWLINE,
        tokenize.NL,
        tokenize.COMMENT,
        tokenize.INDENT,
        tokenize.DEDENT,
        tokenize.ENDMARKER,
    }
)


def _message_shows(g: Gathered, param: str) -> bool:
    for part in g.site.template.parts:
        if isinstance(part, Hole):
            inner = part.text.strip("{}")
            if part.name == param or re.fullmatch(rf"{re.escape(param)}(?:[!:=].*)?", inner):
                return True
    return False


def _conditions(g: Gathered) -> str | None:
    """Every condition on the way to the raise, joined: all must hold for it to fire (an
    ``else`` after ``if a: … elif b: …`` fires only when neither holds)."""
    if innermost_condition(g) is None:
        return None
    texts = [str(x["text"]) for x in g.site.guards if x["kind"] in CONDITION_KINDS]
    if len(texts) == 1:
        return texts[0]
    parts = []
    for text in texts:
        node = parse_guard(text)
        if node is None:
            return None
        loose = isinstance(node, (ast.BoolOp, ast.IfExp, ast.Lambda, ast.NamedExpr))
        keep = isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And)
        parts.append(f"({text})" if loose and not keep else text)
    return " and ".join(parts)


def _conjuncts(g: Gathered) -> list[str] | None:
    """Each condition on the way, split at its top-level ``and``: all hold when it fires."""
    if innermost_condition(g) is None:
        return None
    out: list[str] = []
    for guard in g.site.guards:
        if guard["kind"] not in CONDITION_KINDS:
            continue
        node = parse_guard(str(guard["text"]))
        if node is None:
            return None
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
            out.extend(ast.unparse(v) for v in node.values)
        else:
            out.append(str(guard["text"]))
    return out


def _over_params(g: Gathered, usable: set[str], modules: set[str]) -> str | None:
    """The conditions on the way that read only parameters in ``usable`` (and imported
    ``modules``), joined."""
    parts = []
    for text in _conjuncts(g) or []:
        names = (free_names(text) or set()) - modules
        if names and names <= usable:
            node = parse_guard(text)
            loose = isinstance(node, (ast.BoolOp, ast.IfExp, ast.Lambda, ast.NamedExpr))
            parts.append(f"({text})" if loose else text)
    return " and ".join(parts) or None


def param_requirement(g: Gathered) -> ParamRequirement | None:
    """The site's conditions over the raising function's parameters, said in the
    parameters of the nearest public entry point that passes them on unchanged. When
    other conditions read something else (a local, an attribute of ``self``), the ones
    over parameters alone (``partial``): negating one of them is still enough to avoid
    the raise. None when no condition reads only parameters."""
    condition = _conditions(g)
    func = g.func
    if condition is None or func is None:
        return None
    usable = set(own_params(func)) - func.rebound
    modules = set(g.import_lines)  # ``re`` in ``re.search(r'\$OUT', cmd)``: a caller has it too
    names = (free_names(condition) or set()) - modules
    partial = False
    if not names or not names <= usable:
        condition = _over_params(g, usable, modules) or ""
        names = (free_names(condition) or set()) - modules if condition else set()
        partial = True
        if not names:
            return None
    for entry in g.entry_points:
        passes = entry.get("passes") or {}
        if not names <= passes.keys():
            continue
        mapping = {n: passes[n] for n in names}
        requirement = _renamed(negated(condition), mapping)
        fires = _renamed(condition, mapping)
        if requirement is None or fires is None or has_private(requirement):
            continue
        entry_func = g.entry_funcs.get(entry["qualname"])
        order = list(entry_func.params) if entry_func is not None else []
        rank = {p: i for i, p in enumerate(order)}
        params = tuple(sorted(set(mapping.values()), key=lambda p: (rank.get(p, len(rank)), p)))
        shown = tuple(
            p for p in params if any(_message_shows(g, n) for n in names if mapping[n] == p)
        )
        call = call_name(entry["qualname"], entry_func)
        if run_by_syntax(entry["qualname"]) or has_private(call):
            continue  # ``io.OpenWrapper`` runs ``__getattr__(name)``: no call to pass to
        return ParamRequirement(entry, call, params, requirement, fires, shown, partial, condition)
    return _own_method_requirement(g, condition, names, partial)


def _own_method_requirement(
    g: Gathered, condition: str, names: set[str], partial: bool
) -> ParamRequirement | None:
    """The requirement over the raising method's own parameters, when no entry point was
    found and the method has a public name on a private class (``_ConnectionBase
    .send_bytes``, inherited by ``Connection``): callers write ``conn.send_bytes(...)``."""
    func = g.func
    if g.entry_points or func is None or func.cls is None or has_private(func.name):
        return None
    if func.name.startswith("__") or not has_private(short_name(func.cls)):
        return None  # a public class's method is found as an entry point when public
    requirement, fires = negated(condition), condition
    if has_private(requirement):
        return None
    order = {p: i for i, p in enumerate(func.params)}
    params = tuple(sorted(names, key=lambda p: (order.get(p, len(order)), p)))
    shown = tuple(p for p in params if _message_shows(g, p))
    entry = EntryPoint(qualname=func.qualname, depth=0, path=g.site.path, line=func.line)
    return ParamRequirement(
        entry, f"{func.name}()", params, requirement, fires, shown, partial, condition
    )


def _param_solution(g: Gathered, req: ParamRequirement) -> Remedy:
    who = " and ".join(code(p) for p in req.params)
    reach = "reaches" if len(req.params) == 1 else "reach"
    caught = _caught_before(g)
    after = f" after {code(caught)} was caught" if caught else ""
    when = "only when" if req.partial else "when"
    others = " (with other conditions on the way)" if req.partial else ""
    text = (
        f"Pass {who} to {code(req.call)} so that {code(req.requirement)} holds: {who} "
        f"{reach} the check unchanged, and the call {verb(g)} {class_phrase(g)} {when} "
        f"{code(req.fires)}{others}{after}."
    )
    if req.shown:
        text += f" The message shows the value of {' and '.join(code(p) for p in req.shown)} that was passed."
    surfaces = req.entry.get("surfacesAs")
    if surfaces:
        text += f" From {code(req.call)} it surfaces as {code(surfaces)}."
    return text, ["site.guards", "entryPoints"]


def _docstring_requirements(g: Gathered, req: ParamRequirement | None) -> list[Remedy]:
    out: list[Remedy] = []
    if req is not None:
        docs = req.entry.get("paramDocs") or {}
        for param in req.params:
            text = docs.get(param)
            if text and _REQUIREMENT.search(text):
                out.append(
                    (
                        f"The docstring of {code(req.call)} says of {code(param)}: {quote(text)}.",
                        ["entryPoints"],
                    )
                )
    if g.same_class_in_function == 1:
        for doc in g.raises_own[:1]:
            if doc["text"] and not has_private(doc["text"]):
                owner = g.func.qualname if g.func else g.site.qualname
                public = any(e["qualname"] == owner for e in g.entry_points)
                whose = f" of {code(call_name(owner, g.func))}" if public else ""
                out.append(
                    (
                        f"The docstring{whose} says it raises {class_phrase(g)} "
                        f"{quote(doc['text'])}: avoid that case.",
                        ["raisesDoc"],
                    )
                )
    return out


def _caught_before(g: Gathered) -> str | None:
    """The class whose handler the raise sits in, if it does."""
    for guard in reversed(g.site.guards):
        if guard["kind"] == "except":
            return str(guard["text"]).partition(" was raised")[0]
    return None


def catch_entry(g: Gathered) -> EntryPoint | None:
    """The public call a handler goes around: the nearest one a caller makes by name,
    one whose handler on the way converts the class first (what ``tarfile.open`` users
    see is ``ReadError``, not ``TarInfo.fromtarfile``'s ``SubsequentHeaderError``)."""
    called = [e for e in g.entry_points if not run_by_syntax(e["qualname"])]
    called = [e for e in called if _converts(g, e)] or called
    entry = next((e for e in called if e.get("depth", 0) > 0), None)
    return entry or (called[0] if called else None)


def _converts(g: Gathered, entry: EntryPoint) -> bool:
    """A handler on the way raises another class (not a new one of the same)."""
    surfaces = entry.get("surfacesAs")
    return bool(surfaces) and short_name(str(surfaces)) != g.site.error_class


def surfaced_class(g: Gathered, entry: EntryPoint | None) -> str | None:
    """The class a caller of ``entry`` sees: the conversion's, when a handler on the way
    raises another class (``tarfile``'s ``SubsequentHeaderError`` -> ``ReadError``)."""
    if entry is not None and entry.get("surfacesAs"):
        return str(entry["surfacesAs"])
    return g.site.error_class


def usage_error(g: Gathered) -> bool:
    """A mistake of the calling code by its family (:data:`USAGE_FAMILIES`), or, where no
    rule gave a family, by its builtin class (a ``ValueError`` whose message says nothing
    of the value is still no failure of the world outside the call)."""
    tag = g.background[0]
    if tag is not None:
        return tag in USAGE_FAMILIES
    canonical = g.site.canonical_class or f"builtins.{g.site.error_class}"
    return canonical.startswith("builtins.") and canonical[9:] in USAGE_BUILTINS


_RAISE_LINE = re.compile(r"raise\s+([A-Za-z_][\w.]*)")


def raise_after(g: Gathered) -> tuple[str, int] | None:
    """The class and line of a ``raise`` that is the statement right after the warning in
    its block (``random.randrange`` warns, then raises ValueError), read from the record's
    source window: such a call does not go on after the warning."""
    window, end = g.site.window(), g.site.evidence.get("site", {}).get("endLine")
    if window is None or not isinstance(end, int):
        return None
    lines, first = window
    indent = len(lines[first]) - len(lines[first].lstrip())
    after = first + end - g.site.line + 1  # the index of the line after the statement
    for number, text in enumerate(lines[after:], start=end + 1):
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if len(text) - len(text.lstrip()) != indent:
            return None  # the block ended: what follows is not the next statement
        found = _RAISE_LINE.match(stripped)
        return (found.group(1), number) if found else None
    return None


def _state_solution(g: Gathered, call: str | None) -> Remedy | None:
    """For a raise whose family its condition gave (``invalid-state`` from a check that
    reads only the object's own state, :mod:`.guard_subject`), the message's words and
    what the check reads: the call is fine, the object is not ready for it."""
    rule = g.background[1]
    cause = stated_cause(g.site.template)
    if rule is None or rule.subject != "state" or cause is None:
        return None
    entry = catch_entry(g)
    func = g.entry_funcs.get(entry["qualname"]) if entry else None
    if func is None or func.name in ("__init__", "__new__") or func.command_line is not None:
        call = None  # the object is made there, or a program's main makes its own
    what = f"call {code(call)}" if call else "make the call"
    return (
        f"The message states the cause: {quote(cause)}. The check reads only the object's own "
        f"state, none of the call's arguments: {what} only on an object that is not in the "
        f"state the message describes, rather than catching {class_phrase(g)}.",
        ["site.template", "site.guards", "backgroundTag", *(["entryPoints"] if call else [])],
    )


def _fallback(g: Gathered) -> Remedy:
    """What can be said truthfully when no requirement is known in the caller's terms."""
    entry = catch_entry(g)
    call = call_name(entry["qualname"], g.entry_funcs.get(entry["qualname"])) if entry else None
    around = f" around the call to {code(call)}" if call else " around the call that reaches it"
    if g.site.kind == "warn":
        where = f" {code(call)}" if call else " the call"
        raised = raise_after(g)
        if raised is not None:
            name, line = raised
            return (
                f"{class_phrase(g)} is a warning, but{where} does not go on after it: the "
                f"next statement raises {code(name)} (line {line}), whatever the warnings "
                "filters do.",
                ["site.kind", "sourceCode", *(["entryPoints"] if call else [])],
            )
        return (
            f"{class_phrase(g)} is a warning:{where} goes on after it is issued, and the "
            "warnings filters decide whether it is shown.",
            ["site.kind", *(["entryPoints"] if call else [])],
        )
    if g.site.kind == "yield":
        return (
            f"{class_phrase(g)} is not raised where it is made: the generator yields it, and "
            "the code that consumes the generator raises it (or collects it); catch it around "
            "that code where the program must go on after it.",
            ["site.kind"],
        )
    if g.caught_by and not g.entry_points:
        catchers = ", ".join(f"{code(c['qualname'])} (line {c['line']})" for c in g.caught_by)
        one = len(g.caught_by) == 1
        return (
            "It does not reach a public function through the calls errdex resolved: "
            f"{'its caller' if one else 'its callers'} {catchers} {'catches' if one else 'catch'} "
            f"it, so calling code does not see {class_phrase(g)} from there.",
            ["caughtBy"],
        )
    seen = surfaced_class(g, entry)
    if seen and short_name(seen) != g.site.error_class and entry is not None and call is not None:
        return (
            f"Callers of {code(call)} see {code(short_name(seen))}, not "
            f"{class_phrase(g)}: the handler at line {entry.get('convertedLine')} of "
            f"{code(str(entry.get('convertedIn', '')))} raises it instead; catch "
            f"{code(short_name(seen or ''))}{around} where the program must go on after it.",
            ["entryPoints"],
        )
    if usage_error(g):  # catching would hide the mistake
        return _state_solution(g, call) or (NO_FIX, ["backgroundTag"])
    caught = _caught_before(g)
    named = catch_phrase(g)  # a private class is named by its public base
    catch = f"catch {named}{around} where the program must go on after it."
    base = ["classInfo"] if named != class_phrase(g) else []
    if caught is not None and innermost_condition(g) is None:
        return (
            f"It is raised while handling {code(caught)}; {catch}",
            ["site.guards", *(["entryPoints"] if call else []), *base],
        )
    cause = stated_cause(g.site.template)  # the cause in the library's own words
    return (
        cause_solution(cause, catch),
        ["site.template" if cause else "errorClass", *(["entryPoints"] if call else []), *base],
    )


def remedies(g: Gathered) -> list[Remedy]:
    """The solutions of ``g``'s record, each with its evidence, most specific first."""
    if g.role is not None:  # the guard is no failure condition, the docstring no mistake
        text = role_solution(g, g.role)
        if g.role.kind == "abstract" and _private_code(text):  # "implement `_make_x`"
            return [(NO_FIX, ["site.role"])]
        return [(text, ["site.role"])]
    out = _message_advice(g)
    req = param_requirement(g)
    if req is not None:
        out.append(_param_solution(g, req))
    out.extend(_docstring_requirements(g, req))
    out.extend(_gate_solutions(g))
    out = [r for r in out if not _private_code(r[0])]
    return out or [_fallback(g)]


def _gate_solutions(g: Gathered) -> list[Remedy]:
    """An entry point whose own handler lets the error out only under a condition over a
    parameter of its (``if not fallback: raise``): passing the other value is the fix."""
    out: list[Remedy] = []
    for entry in g.entry_points:
        condition = str(entry.get("reraisedWhen") or "")
        if not condition or entry.get("reraisedIn") != entry["qualname"]:
            continue
        negated = condition.startswith("not ")
        name = condition[4:].strip() if negated else condition.strip()
        func = g.entry_funcs.get(entry["qualname"])
        if func is None or not name.isidentifier() or name not in own_params(func):
            continue
        call = call_name(entry["qualname"], func)
        out.append(
            (
                f"Pass {code(f'{name}={negated}')} to {code(call)}: its handler lets "
                f"{class_phrase(g)} out only when {code(condition)}, and handles it "
                "otherwise.",
                ["entryPoints"],
            )
        )
        break
    return out


def _private_code(text: str) -> bool:
    """A solution whose code names something private: a caller cannot act on it."""
    return any(has_private(span) for span in re.findall(r"`([^`]+)`", text))
