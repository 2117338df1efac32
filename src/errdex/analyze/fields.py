"""The schema-2 explanation fields, written from the evidence and nothing else.

Every sentence is assembled from evidence items: code and names in backticks come
from the guards, the signature, the entry points or the tests; quoted text is the
docstring's, the message's or a test's own. Where the evidence says nothing, the
sentence says that, and ``provenance`` names the evidence each field rests on. The code
fields are written by :mod:`errdex.analyze.code_fields`.
"""

from __future__ import annotations

import ast
import re
import textwrap
from typing import Any

from errdex.evidence import EntryPoint, Provenance, RaisesDoc, TestEvidence

from .callgraph import MAX_DEPTH
from .code_fields import example_fix, try_catch, type_guard, validation
from .docstrings import summary
from .gathered import Gathered, callable_name, class_phrase, location, noun, short_name, verb
from .guards import CONDITION_KINDS, code, condition_phrase, negated
from .roles import role_documentation, role_solution

__all__ = ["ANALYST", "write_fields"]

ANALYST = "static"
#: Quoted text is cut at this many characters (with an ellipsis).
QUOTE_LIMIT = 300
#: Entry points and tests named in prose, at most.
SHOWN = 3

_ADVICE = re.compile(
    r"\b(use|try|consider|please|did you mean|instead|install|set|pass|call|provide|specify)\b",
    re.IGNORECASE,
)
_REQUIREMENT = re.compile(r"\b(must|should|expected|expects|requires?|only)\b", re.IGNORECASE)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z`'\"(])")
_KEBAB_SPLIT = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|[^A-Za-z0-9]+")


def _kebab(name: str) -> str:
    return "-".join(w.lower() for w in _KEBAB_SPLIT.split(name) if w)


def tags_for_names(tags: list[str], names: list[str]) -> list[str]:
    """The extractor's tags plus each name in kebab case, once each."""
    out = list(tags)
    for name in names:
        tag = _kebab(name)
        if tag and tag not in out:
            out.append(tag)
    return out


def _quote(text: str) -> str:
    """Quoted evidence text on one line; a final full stop is left to the sentence around it.

    reST's ````G```` becomes ```G```; unpaired backticks become quotes, so that the
    backticks of the surrounding prose still pair up.
    """
    text = " ".join(text.split()).rstrip(".").replace("``", "`")
    if len(text) > QUOTE_LIMIT:
        text = text[: QUOTE_LIMIT - 1].rstrip() + "…"
    if text.count("`") % 2:
        text = text.replace("`", "'")
    return "“" + text.replace("“", '"').replace("”", '"') + "”"


def _first_sentences(text: str) -> str:
    parts = _SENTENCE.split(text.strip())
    return " ".join(parts[:2])


# -- documentation ----------------------------------------------------------------------


def _documentation(g: Gathered) -> tuple[str, list[str]]:
    s = g.site
    basis = ["site.qualname", "errorClass", "filePath", "lineNumber"]
    phrase = condition_phrase(s.guards, s.template)
    when = f" {phrase}" if phrase else ""
    if phrase:
        basis.append("site.guards")
    who = code(s.qualname)
    where = location(s.path, s.line)
    if s.kind == "warn":
        head = f"{who} issues the warning {class_phrase(g)} (via `warnings.warn`) at {where}{when}."
    elif s.kind == "assert":
        head = f"An `assert` in {who} fails with `AssertionError` at {where}{when}."
    elif s.error_class is None:
        held = s.template.display.strip("{}")
        head = f"{who} raises the exception held in {code(held)} at {where}{when}; its class is decided at run time."
    elif s.function is None:
        head = f"{class_phrase(g)} is raised at import time of {who}, at {where}{when}."
    else:
        head = f"{who} raises {class_phrase(g)} at {where}{when}."
    sentences = [head]
    func = g.func
    if func is not None and func.docstring:
        about = summary(func.docstring)
        if about:
            sentences.append(
                f"{code(func.name)} is documented as: {_quote(_first_sentences(about))}."
            )
            basis.append("function.docstring")
    others = g.same_class_in_function - 1
    for doc in g.raises_own[:2]:
        lists = f"Its docstring lists {class_phrase(g)}"
        if others > 0:
            lists += f" (which it raises at {g.same_class_in_function} places)"
        if doc["text"]:
            sentences.append(f"{lists}: {_quote(doc['text'])}.")
        else:
            sentences.append(f"{lists} among the errors it raises.")
        basis.append("raisesDoc")
    if not g.raises_own:
        for doc in g.raises_entry[:1]:
            owner = _doc_owner(g, doc)
            if owner and doc["text"]:
                sentences.append(
                    f"The docstring of {code(owner)}, which reaches it, lists {class_phrase(g)}: {_quote(doc['text'])}."
                )
                basis.append("raisesDoc")
    info = g.class_info
    if info is not None:
        bases = ", ".join(code(short_name(b)) for b in info.get("bases", [])) or "`object`"
        where_cls = location(info.get("path", ""), info.get("line", 0))
        doc_text = summary(info.get("docstring"))
        tail = f": {_quote(_first_sentences(doc_text))}" if doc_text else ""
        sentences.append(
            f"{class_phrase(g)} is defined at {where_cls} as a subclass of {bases}{tail}."
        )
        basis.append("classInfo")
    if g.shadow is not None:
        name, module, line, conditional = g.shadow
        head = (
            f"At run time `{name}` is the one imported from `{module}` at {location(s.path, line)}"
        )
        if conditional:
            sentences.append(
                f"{head} when that import succeeds, so this line runs only where it fails."
            )
        else:
            sentences.append(f"{head}, so this line does not run.")
        basis.append("shadowedBy")
    if g.role is not None:
        sentences.append(role_documentation(g, g.role))
        basis.append("site.role")
    return " ".join(sentences), basis


def _doc_owner(g: Gathered, doc: RaisesDoc) -> str | None:
    for entry in g.entry_points:
        if entry.get("path") == doc["path"] and entry["qualname"] in g.entry_funcs:
            func = g.entry_funcs[entry["qualname"]]
            if func.line <= doc["line"] <= func.end_line:
                return entry["qualname"]
    return None


# -- triggerScenarios ---------------------------------------------------------------------


def _entry_phrase(entry: EntryPoint) -> str:
    depth = entry.get("depth", 0)
    if depth == 0:
        return f"{code(entry['qualname'])}, the raising function itself"
    loose = " (matched by method name only)" if entry.get("precision") != "exact" else ""
    via = entry.get("via", [])[1:-1]
    calls = f"{depth} call{'s' if depth > 1 else ''}"
    if via:
        hops = ", ".join(code(v) for v in via)
        return f"{code(entry['qualname'])}, {calls} away through {hops}{loose}"
    return f"{code(entry['qualname'])}, which calls it directly{loose}"


def _test_phrase(test: TestEvidence) -> str:
    match = test.get("match")
    expects = f"{test.get('kind')}({test.get('errorClass')}"
    expects += f", match={match!r})" if match else ")"
    return f"{code(test.get('name', ''))} at {location(test.get('path', ''), test.get('line', 0))} ({code(expects)})"


def _trigger(g: Gathered) -> tuple[str, list[str]]:
    s = g.site
    basis: list[str] = []
    phrase = condition_phrase(s.guards, s.template)
    if phrase:
        sentences = [f"Triggered {phrase}."]
        basis.append("site.guards")
    elif s.function:
        sentences = [
            f"Triggered whenever {code(s.qualname)} reaches line {s.line}: no enclosing condition."
        ]
        basis.append("site.qualname")
    else:
        sentences = [f"Triggered when {code(s.qualname)} is imported: no enclosing condition."]
        basis.append("site.qualname")
    if g.entry_points:
        shown = "; ".join(_entry_phrase(e) for e in g.entry_points[:SHOWN])
        more = len(g.entry_points) - SHOWN
        extra = f"; and {more} more" if more > 0 else ""
        loose = sum(1 for e in g.entry_points if e.get("precision") != "exact")
        precision = (
            "every chain resolved through imports"
            if not loose
            else f"{loose} of {len(g.entry_points)} chains rest on method names alone"
        )
        sentences.append(
            f"Public entry points that reach it (repository call graph, at most {MAX_DEPTH} "
            f"calls deep; {precision}): {shown}{extra}."
        )
        basis.append("entryPoints")
    elif s.function:
        sentences.append(
            f"No public entry point reaches it within {MAX_DEPTH} calls in the repository's call graph."
        )
        basis.append("entryPoints")
    if g.tests:
        shown_tests = "; ".join(_test_phrase(t) for t in g.tests[:SHOWN])
        more = len(g.tests) - SHOWN
        extra = f"; and {more} more" if more > 0 else ""
        sentences.append(f"Tests that trigger it: {shown_tests}{extra}.")
        basis.append("tests")
    return " ".join(sentences), basis


# -- commonSituations ---------------------------------------------------------------------


def _test_call(test: TestEvidence) -> str | None:
    """The statement of a test's block that makes the failing call: the block's last one
    (earlier ones usually build its arguments), or the callable form itself."""
    lines = test.get("snippet", "").split("\n")
    head = lines[0].strip() if lines else ""
    body = textwrap.dedent("\n".join(lines[1:]))
    if not body.strip():
        return head or None
    try:
        statements = ast.parse(body).body
    except SyntaxError:  # the snippet was cut inside a statement
        statements = []
    if statements:
        segment = ast.get_source_segment(body, statements[-1])
        if segment:
            return " ".join(segment.split())
    rest = [x.strip() for x in body.splitlines() if x.strip() and not x.strip().startswith("#")]
    return rest[0] if rest else head or None


def _common(g: Gathered) -> tuple[str, list[str]]:
    sentences: list[str] = []
    basis: list[str] = []
    for obs in g.observed[:2]:
        message = obs.get("message")
        if not message:
            continue
        where = f" (in {code(obs['test'])})" if obs.get("test") else ""
        count = obs.get("count") or 1
        times = f", {count} times" if count > 1 else ""
        sentences.append(f"Seen at run time as {_quote(message)}{where}{times}.")
        basis.append("observed")
    if g.tests:
        examples = []
        for test in g.tests[:2]:
            call = _test_call(test)
            if call:
                examples.append(f"{code(test.get('name', ''))} runs {code(call)}")
        if examples:
            sentences.append(
                "The repository's own tests reach it on purpose: " + "; ".join(examples) + "."
            )
            basis.append("tests")
    if not sentences:
        known = "the conditions on the way to it" if g.site.guards else "the site itself"
        if g.entry_points:
            known += " and the entry points that reach it"
        if g.tests_read:
            sentences.append(
                f"No test in the repository expects this {noun(g)} and no run-time message "
                f"has been recorded for it; what is known is {known}."
            )
            basis.extend(["tests", "observed"])
        else:
            sentences.append(
                f"errdex read none of the repository's tests, so whether one expects this "
                f"{noun(g)} is not known, and no run-time message has been recorded for "
                f"it; what is known is {known}."
            )
            basis.append("observed")
    return " ".join(sentences), basis


# -- solutions and tips -------------------------------------------------------------------


def _advice(g: Gathered) -> list[tuple[str, str]]:
    """Sentences of the message that say what to do ("use X instead") or what must hold."""
    if g.site.template.is_opaque:
        return []
    found = []
    for sentence in _SENTENCE.split(g.site.template.display):
        text = sentence.strip()
        if len(text) <= 3:
            continue
        if _ADVICE.search(text):
            found.append(("Follow the message's own advice", text))
        elif _REQUIREMENT.search(text):
            found.append(("The message states the requirement", text))
    return found[:2]


def _innermost_condition(g: Gathered) -> dict[str, Any] | None:
    """The closest condition to the raise, unless a handler is closer (then the raise
    translates a caught error, and negating an outer condition is no remedy)."""
    for guard in reversed(g.site.guards):
        if guard["kind"] == "except":
            return None
        if guard["kind"] in CONDITION_KINDS:
            return dict(guard)
    return None


def _solutions(g: Gathered) -> tuple[list[str], list[str]]:
    if g.role is not None:  # the guard is no failure condition, the docstring no mistake
        return [role_solution(g, g.role)], ["site.role"]
    s = g.site
    out: list[str] = []
    basis: list[str] = []
    for lead, sentence in _advice(g):
        out.append(f"{lead}: {_quote(sentence)}.")
        basis.append("site.template")
    guard = _innermost_condition(g)
    if guard is not None:
        requirement = negated(guard["text"])
        out.append(
            f"Make sure {code(requirement)} holds when {code(s.qualname)} reaches line {s.line}; "
            f"it {verb(g)} when {code(guard['text'])} (line {guard['line']})."
        )
        basis.append("site.guards")
    else:
        caught = next((x for x in reversed(s.guards) if x["kind"] == "except"), None)
        if caught is not None:
            name = caught["text"].partition(" was raised")[0]
            out.append(
                f"It is raised after {code(name)} was caught at line {caught['line']}: "
                f"avoid what raises {code(name)} there."
            )
            basis.append("site.guards")
    for doc in g.raises_own[:1] if g.same_class_in_function == 1 else []:
        if doc["text"]:
            owner = g.func.name if g.func else s.qualname
            out.append(
                f"Avoid the case the docstring of {code(owner)} gives for {class_phrase(g)}: {_quote(doc['text'])}."
            )
            basis.append("raisesDoc")
    if not out:
        out.append(
            f"Avoid the path through {code(s.qualname)} that reaches {location(s.path, s.line)}."
        )
        basis.append("site.qualname")
    return out, basis


def _tips(g: Gathered, validation: str | None) -> tuple[list[str], list[str]]:
    tips: list[str] = []
    basis: list[str] = []
    guard = _innermost_condition(g)
    if validation and guard is not None and g.func is not None:
        tips.append(
            f"Check {code(negated(guard['text']))} before calling {code(callable_name(g.func))}."
        )
        basis.append("site.guards")
    if g.tests:
        test = g.tests[0]
        tips.append(
            f"See {code(test.get('name', ''))} for a call that triggers it, and its expected message."
        )
        basis.append("tests")
    return tips, basis


# -- all fields ------------------------------------------------------------------------------


def write_fields(
    g: Gathered, baseline_tags: list[str]
) -> tuple[dict[str, Any], dict[str, Provenance]]:
    """The analysis fields of one record and, per field, the evidence they rest on."""
    fields: dict[str, Any] = {}
    basis: dict[str, list[str]] = {}
    fields["documentation"], basis["documentation"] = _documentation(g)
    fields["triggerScenarios"], basis["triggerScenarios"] = _trigger(g)
    fields["commonSituations"], basis["commonSituations"] = _common(g)
    fields["solutions"], basis["solutions"] = _solutions(g)
    fields["exampleFix"], basis["exampleFix"] = example_fix(g)
    fields["validationCode"], basis["validationCode"] = validation(g)
    fields["typeGuard"], basis["typeGuard"] = type_guard(g)
    fields["tryCatchPattern"], basis["tryCatchPattern"] = try_catch(g)
    fields["preventionTips"], basis["preventionTips"] = _tips(g, fields["validationCode"])
    if g.role is not None:  # nothing to guard against or catch as a failure
        for key in ("validationCode", "typeGuard", "tryCatchPattern", "exampleFix"):
            fields[key], basis[key] = None, []
        fields["preventionTips"], basis["preventionTips"] = [], []
    strategy: str | None = None
    if fields["typeGuard"]:
        strategy, basis["handlingStrategy"] = "type-guard", ["site.guards"]
    elif fields["validationCode"]:
        strategy, basis["handlingStrategy"] = "validation", ["site.guards", "entryPoints"]
    elif fields["tryCatchPattern"] and g.site.kind != "warn":
        strategy, basis["handlingStrategy"] = "try-catch", ["errorClass"]
    fields["handlingStrategy"] = strategy
    tag, rule = g.background
    fields["backgroundTag"] = tag
    if rule is not None:
        basis["backgroundTag"] = [rule.basis, f"rule: {rule.name}"]
    extra = [g.func.name] if g.func is not None else []
    fields["tags"] = tags_for_names(baseline_tags, [*extra, *([tag] if tag else [])])
    basis["tags"] = ["site.kind", "errorClass", "site.qualname"] + (
        ["backgroundTag"] if tag else []
    )
    fields["severity"] = g.site.record.get("severity", "error")
    basis["severity"] = ["errorClass", "site.kind"]
    provenance: dict[str, Provenance] = {
        key: Provenance(analyst=ANALYST, basis=list(dict.fromkeys(value)))
        for key, value in basis.items()
        if value and (fields.get(key) not in (None, [], ""))
    }
    return fields, provenance
