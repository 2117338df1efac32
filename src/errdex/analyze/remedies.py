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
import re

from errdex.evidence import EntryPoint

from .accepted_types import accepted_types_fix
from .baseline import USAGE_BUILTINS
from .caller_words import pass_clause
from .catch_where import around, own_call
from .chain_funcs import own_params
from .chains import signature_of
from .doc_requirement import doc_requirements
from .entrypoints import run_by_syntax
from .family_fixes import family_fix
from .flag_words import gate_words
from .gathered import Gathered, catch_phrase, class_phrase, short_name, verb
from .guards import code, free_names, has_private, parse_guard
from .hook_fixes import hook_solution
from .interface_types import interface_type_fix
from .lazy_calls import lazy_place, lazy_subject, stored_lazily
from .message_advice import RESTATED, advice_solutions
from .message_fixes import message_fix
from .misuse_state import misuse_solution
from .outside_data import USAGE_FAMILIES
from .own_state import is_attribute, own_state_solution
from .param_requirement import (
    ParamRequirement,
    call_name,
    innermost_condition,
    message_shows,
    param_requirement,
)
from .pattern_fix import pattern_fix
from .public_catch import public_catch
from .quoting import NO_FIX, quote, stated_cause
from .raise_next import falls_into_raise
from .roles import role_solution
from .stated_fixes import called_by_name, docstring_fix, exit_fixes, type_fix
from .subclass_hooks import subclass_hook_solution
from .unreachable import unreachable_solution
from .unsupported import turned_away, unsupported_solution

__all__ = [
    "USAGE_FAMILIES",
    "ParamRequirement",
    "Remedy",
    "accepted_requirement",
    "call_name",
    "catch_entry",
    "checkable",
    "innermost_condition",
    "param_requirement",
    "remedies",
    "surfaced_class",
    "switch_into_raise",
    "usage_error",
]

#: A solution and the evidence keys it rests on.
Remedy = tuple[str, list[str]]

_REQUIREMENT = re.compile(r"\b(must|should|expected|expects|requires?|only)\b", re.IGNORECASE)


def _message_advice(g: Gathered) -> list[Remedy]:
    """Sentences of the message that say what to do ("use X instead") or what must hold
    (:mod:`.message_advice`); a message that only states what went wrong gives none."""
    if g.site.template.is_opaque:
        return []
    marked = unreachable_solution(g)  # "should not have reached here" requires nothing
    if marked is not None:
        return [marked]
    return [(text, ["site.template"]) for text in advice_solutions(g.site.template.display)]


def _param_solution(g: Gathered, req: ParamRequirement) -> Remedy:
    who = " and ".join(code(p) for p in req.params)
    reach = "reaches" if len(req.params) == 1 else "reach"
    when = "only when" if req.partial else "when"
    others = " (with other conditions on the way)" if req.partial else ""
    head = worded_requirement(g, req) or (
        f"Pass {who} to {code(req.call)} so that {code(req.requirement)} holds"
    )
    if req.partial:  # often a switch that turns the checked feature off: a way out only
        head = f"One way out, where the call allows it: {head[0].lower()}{head[1:]}"
    gate = gate_words(req.entry, quoted=False)  # ``if self._debug:`` around a call on the way
    text = (
        f"{head}: {who} {reach} the check unchanged, and {lazy_subject(g, req.entry)} {verb(g)} "
        f"{class_phrase(g)} {when} {code(req.fires)}{f', {gate}' if gate else ''}{others}."
    )
    if req.shown:
        text += f" The message shows the value of {' and '.join(code(p) for p in req.shown)} that was passed."
    surfaces = req.entry.get("surfacesAs")
    if surfaces:
        text += f" From {code(req.call)} it surfaces as {code(surfaces)}."
    return text, ["site.guards", "entryPoints"]


def worded_requirement(g: Gathered, req: ParamRequirement) -> str | None:
    """What to pass, in words (:mod:`.caller_words`), when the condition has a shape
    that words exactly; the entry point's defaults say when leaving a parameter out is
    the fix."""
    text = pass_clause(req.fires, frozenset(req.params), req.call, _defaults(g, req))
    return None if text is None or _private_code(text) else text


def _defaults(g: Gathered, req: ParamRequirement) -> dict[str, object]:
    """The entry point's constant defaults."""
    func = g.entry_funcs.get(req.entry["qualname"])
    if func is None and g.func is not None and g.func.qualname == req.entry["qualname"]:
        func = g.func  # a public method of a private class, found by its own name
    sig = signature_of(func.signature) if func is not None else None
    return sig.defaults if sig is not None else {}


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
    called = [e for e in called if not _command_line(g, e)]  # it parses sys.argv
    called = [e for e in called if _converts(g, e)] or called
    entry = next((e for e in called if e.get("depth", 0) > 0), None)
    return entry or (called[0] if called else None)


def _command_line(g: Gathered, entry: EntryPoint) -> bool:
    func = g.entry_funcs.get(entry["qualname"])
    return func is not None and func.command_line is not None


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
_RAISES = re.compile(r"raise\b")


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


def _unnamed_place(g: Gathered) -> str:
    """Where to catch when no entry point is a call a caller writes: the raising function
    when public (not a program's main: it makes its own), the nearest special method
    errdex resolved (``Decimal.__mul__``, run by ``a * b``), the import of the module for
    top-level code, or no place at all (issue 10: "the call that reaches it" names none)."""
    if g.site.function is None:
        return around(None, g.site.module)
    own = own_call(g.site.qualname, g.site.evidence.get("site", {}).get("function"))
    if own is not None and not g.own_hook and (g.func is None or g.func.command_line is None):
        said = code(call_name(g.site.qualname, g.func))
        return lazy_place(g, None, said) or around(said, None)
    syntax = [e for e in g.entry_points if run_by_syntax(e["qualname"])]
    if syntax:  # the nearest, the first of equally near ones
        near = min(syntax, key=lambda e: e.get("depth", 0))["qualname"]
        return f" around the use of {code('.'.join(near.split('.')[-2:]))}"
    return around(None, None)


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
    if call and func is not None and is_attribute(func):  # ``p.sentinel`` is read
        what = f"read {code(call.removesuffix('()'))}"
    return (
        f"The check reads only the object's own state, none of the call's arguments: {what} "
        f"only on an object that is not in the state the message describes ({quote(cause)}), "
        f"rather than catching {class_phrase(g)}.",
        ["site.template", "site.guards", "backgroundTag", *(["entryPoints"] if call else [])],
    )


def _fallback(g: Gathered) -> Remedy:
    """What can be said truthfully when no requirement is known in the caller's terms."""
    entry = catch_entry(g)
    call = call_name(entry["qualname"], g.entry_funcs.get(entry["qualname"])) if entry else None
    # the package's outermost exported call above it, where one is (:mod:`.outer_catch`),
    # unless the entry's own result is what raises when iterated or awaited (a48)
    outer = g.outer_calls.get(entry["qualname"]) if entry else None
    lazy = lazy_place(g, entry, code(call)) if call and entry else None
    place = (lazy or around(code(outer or call), None)) if call and entry else _unnamed_place(g)
    if call and entry and lazy is None and stored_lazily(g, entry):
        place = ""  # ``Reader()`` only stores the generator: its call raises nothing
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
            f"{code(short_name(seen or ''))}{place} where the program must go on after it.",
            ["entryPoints"],
        )
    if usage_error(g):  # catching would hide the mistake
        return (
            message_fix(g)  # a shape that states its fix (unpicklable, "X after Y")
            or own_state_solution(g)
            or _state_solution(g, call)
            or type_fix(g)  # the record's own type guard, said as what to pass
            or interface_type_fix(g)  # the same, on a private class's interface method
            or pattern_fix(g)  # a parameter that does not match the function's regex
            or _required_by_docstring(g)  # the docstring's requirement, in the message's words
            or misuse_solution(g, _misused_call(g, call))  # used after its close
            or accepted_types_fix(g)  # the types the returning isinstance branches take
            or public_catch(g, place, g.entry_funcs.get(entry["qualname"]) if entry else None)
            or (NO_FIX, ["backgroundTag"])
        )
    misuse = misuse_solution(g, _misused_call(g, call))
    if misuse is not None:  # a use after close or in a forbidden state: not caught
        return misuse
    caught = _caught_before(g)
    named = catch_phrase(g)  # a private class is named by its public base
    catch = f"catch {named}{place} where the program must go on after it."
    base = ["classInfo"] if named != class_phrase(g) else []
    if caught is not None and innermost_condition(g) is None and not _context_suppressed(g):
        return (
            f"It is raised while handling {code(caught)}; {catch}",
            ["site.guards", *(["entryPoints"] if call else []), *base],
        )
    # the message's words restated are no fix (blind review 2026-12-06): the catch alone
    return (
        catch[0].upper() + catch[1:],
        ["errorClass", *(["entryPoints"] if call else []), *base],
    )


def _misused_call(g: Gathered, call: str | None) -> str | None:
    """The call to say in a misuse's fix: the raising method where a caller calls it by
    name (``Listener.accept``, not the subclass ``XmlListener`` a catch goes around)."""
    own = called_by_name(g) or call
    return code(own) if own else None


def _context_suppressed(g: Gathered) -> bool:
    """``raise … from None``: the handled error is no part of what the caller sees
    (``__suppress_context__``), so "raised while handling it" says nothing to them."""
    return bool(g.site.evidence.get("site", {}).get("cause") == "None")


def remedies(g: Gathered) -> list[Remedy]:
    """The solutions of ``g``'s record, each with its evidence, most specific first."""
    if g.role is not None:  # the guard is no failure condition, the docstring no mistake
        text = role_solution(g, g.role)
        if g.role.kind == "abstract" and _private_code(text):  # "implement `_make_x`"
            return [hook_solution(g) or subclass_hook_solution(g) or (NO_FIX, ["site.role"])]
        return [(text, ["site.role"])]
    turned = unsupported_solution(g)  # a type test that turns an unsupported case away:
    # first, and the other conditions' remedies still after it
    out = ([turned] if turned is not None else []) + _message_advice(g)
    family = family_fix(g)  # a message family that names its fix: before its restatement
    if family is not None:
        out = [family, *(r for r in out if not r[0].startswith(RESTATED))]
    req = accepted_requirement(g)
    if req is not None:
        if not req.partial:  # the requirement, said whole in what the caller passes
            out = [r for r in out if not r[0].startswith(RESTATED)]
        out.append(_param_solution(g, req))
    out.extend(_docstring_requirements(g, req))
    if not any(r[0].startswith("The docstring of") for r in out):
        out.extend(doc_requirements(g))  # a prose docstring's sentence on the parameter
    out.extend(_gate_solutions(g))
    out.extend(exit_fixes(g))  # an early return the caller takes by passing a parameter
    out = [r for r in out if not _private_code(r[0])]
    if not out and g.site.kind == "raise" and not usage_error(g):
        # what the docstring requires still prevents it (``Maildir.remove_folder``: "which
        # must be empty"); the catch stays for what the caller cannot see beforehand
        fix = _required_by_docstring(g)
        if fix is not None:
            return [fix, _fallback(g)]
    return out or [_fallback(g)]


def _required_by_docstring(g: Gathered) -> Remedy | None:
    """The docstring's requirement (:func:`.stated_fixes.docstring_fix`), not a sentence
    on what raises ("A RuntimeError is raised if the box cannot be closed")."""
    fix = docstring_fix(g)
    return fix if fix is not None and not _SAYS_RAISE.search(fix[0]) else None


def accepted_requirement(g: Gathered) -> ParamRequirement | None:
    """The requirement over the caller's parameters that the solutions and tips state,
    or None where stating it would mislead."""
    req = param_requirement(g)
    if req is None or _caught_before(g) is not None:
        return None  # the condition picks what a caught error becomes; it is no cause
    if turned_away(g.site):
        return None  # the type test turns an unsupported case away: no type to pass
    if req.partial and not (_switch_named(g, req) and _decides_inside(g, req)):
        return None  # a switch among other conditions: turning it off is no fix
    if _into_a_raise(g, req) or (_flags(g, req) and falls_into_raise(g, req)):
        return None  # one way out it offers is the branch before, or after, which raises
    return req


def switch_into_raise(g: Gathered) -> bool:
    """The requirement :func:`accepted_requirement` refuses as a flag whose other value
    only reaches the next raise: the tips refuse its negated guard too."""
    req = param_requirement(g)
    return req is not None and _flags(g, req) and falls_into_raise(g, req)


def _decides_inside(g: Gathered, req: ParamRequirement) -> bool:
    """Whether a partial requirement negates the test that fails inside the chosen branch
    (the innermost condition), not an outer condition that only selects the branch:
    ``fields is not None`` before ``not 0 <= time_mid < 1 << 16`` in ``UUID()``, or
    ``'|' in mode`` before ``filemode not in ('r', 'w')`` in ``tarfile.open``, is turned
    off only by not using the feature. Within the innermost condition a conjunct over the
    parameters before the last one (``loop is not None and not isinstance(loop, ...)``)
    may be a selector too: errdex cannot tell, and says nothing, unless the parameters
    are flags (a default of ``True`` or ``False``: ``block``, ``force``)."""
    inner, said = _inner_parts(g), set(_and_parts(req.condition))
    if not inner or not said & set(inner):
        return False
    return inner[-1] in said or _flags(g, req)


def checkable(g: Gathered, req: ParamRequirement) -> bool:
    """Whether "check the requirement before the call" is a check: said whole, or, of a
    partial one, only the innermost test negated (``sock.gettimeout() == 0`` where
    ``self._debug and sock.gettimeout() != 0`` raises). Negated outer selectors would
    reject valid calls (``'|' not in mode`` for ``tarfile.open``); a flag is a switch."""
    if not req.partial:
        return True
    inner, said = _inner_parts(g), set(_and_parts(req.condition))
    return bool(inner) and inner[-1] in said and said <= set(inner) and not _flags(g, req)


def _flags(g: Gathered, req: ParamRequirement) -> bool:
    """The parameters are flags: their defaults are ``True`` or ``False``."""
    defaults = _defaults(g, req)
    return all(isinstance(defaults.get(p), bool) for p in req.params)


def _inner_parts(g: Gathered) -> list[str]:
    guard = innermost_condition(g)
    return _and_parts(str(guard["text"])) if guard is not None else []


def _and_parts(text: str) -> list[str]:
    """The top-level ``and`` conjuncts of a condition, each as an AST dump (so that
    spacing and parentheses do not matter); none if it does not parse."""
    node = parse_guard(text)
    if node is None:
        return []
    parts = node.values if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And) else [node]
    return [ast.dump(p) for p in parts]


def _switch_named(g: Gathered, req: ParamRequirement) -> bool:
    """Whether a requirement that is one condition among others is worth offering: for
    flags whose default is ``True`` or ``False`` (``block``, ``force``, ``exist_ok``:
    what they are for), and for a mistake in the calling code whose message names one
    of its parameters ("non-zero flags not allowed"). Elsewhere the parameter is mostly
    a switch that selects the path ("host is not None" before a connection error), and
    passing the other value avoids the raise only by doing something else."""
    if g.site.error_class == "AssertionError":
        return False  # a failed check (``assert_has_awaits``): loosening it is no fix
    if _flags(g, req):
        return True
    if g.site.kind != "warn" and not usage_error(g):
        return False
    words = {w.lower() for w in _WORD.findall(" ".join(g.site.template.literals))}
    return any(p.lower() in words or message_shows(g, p) for p in _raising_names(req))


def _into_a_raise(g: Gathered, req: ParamRequirement) -> bool:
    """Whether the requirement's negation of an ``else`` guard over its parameters leads
    into the ``if`` body that guard skips, and that body always raises (``if max_workers
    <= 0: raise …`` before ``elif … max_workers > _MAX_WINDOWS_WORKERS: raise …``: "pass a
    value of at most 0" avoids the second only by the first). Read from the record's
    source window; a body outside it counts as raising."""
    func, window = g.func, g.site.window()
    names = _raising_names(req)
    for guard in g.site.guards:
        at = int(guard.get("line") or 0)
        if guard["kind"] != "else" or func is None or at not in func.else_skips:
            continue
        if not (free_names(str(guard["text"])) or set()) & names:
            continue
        first, last = func.else_skips[at]
        if window is None:
            return True
        lines, index = window
        start, end = index + first - g.site.line, index + last - g.site.line
        if start < 0 or end >= len(lines):
            return True
        body = [line for line in lines[start : end + 1] if line.strip()]
        indent = len(body[0]) - len(body[0].lstrip()) if body else 0
        if any(  # a raise the body always reaches, not one under a further condition
            _RAISES.match(line.strip()) and len(line) - len(line.lstrip()) == indent
            for line in body
        ):
            return True
    return False


def _raising_names(req: ParamRequirement) -> set[str]:
    """The requirement's parameters in the entry point's names and the raising
    function's (a message names the one it was written beside)."""
    passes = req.entry.get("passes") or {}
    return set(req.params) | {k for k, v in passes.items() if v in req.params}


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SAYS_RAISE = re.compile(r"\braise[sd]?\b", re.IGNORECASE)


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
