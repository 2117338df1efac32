"""The extractor's own account of a site: the shortest truthful prose schema 2 requires.

Schema 2 wants ``documentation``, ``triggerScenarios``, ``commonSituations`` and
``solutions`` non-empty. Before any analyst has run, these say only what the syntax
tree shows (the class, the function, the guarding conditions), and ``evidence``
marks each as written by the extractor from those facts.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from errdex.extract.site import ErrorSite, Guard

from .catch_where import around, own_call
from .guards import has_private as _private
from .message_advice import advice_solutions
from .platforms import platform_words
from .private_terms import PrivateCase, omitted_note, readable
from .quoting import NO_FIX

#: Builtin classes of a mistake in the calling code: no "catch it where the program must
#: go on" for them (:data:`errdex.analyze.remedies.USAGE_FAMILIES`, by class name alone).
USAGE_BUILTINS = frozenset(
    {"TypeError", "ValueError", "AttributeError", "AssertionError", "IndexError", "RuntimeError"}
)

__all__ = ["ANALYST", "baseline_fields", "requirement_from", "tags_for"]

ANALYST = "extractor"

#: Word breaks in a name: lower to upper (``ValueError``), the last capital of an acronym
#: before a word (``SAXNotSupported`` -> ``SAX``, ``Not``), and anything not a letter or digit.
_KEBAB_SPLIT = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|[^A-Za-z0-9]+")


def kebab(name: str) -> str:
    """``SAXNotSupportedException`` -> ``sax-not-supported-exception``."""
    return "-".join(w.lower() for w in _KEBAB_SPLIT.split(name) if w)


def _where(site: ErrorSite) -> str:
    return f"{site.file_path}:{site.line}"


def _code(text: str) -> str:
    return "`" + text.replace("`", "'") + "`"


def _who(site: ErrorSite) -> str:
    if site.function:
        return f"{_code(site.qualname)}"
    return f"the body of {_code(site.qualname)} (run at import)"


_CONDITIONS = ("if", "elif", "else", "assert", "while-else")


def _condition_words(guard: Guard, language: str) -> tuple[bool, str] | None:
    """(is a condition, the guard in prose): a condition joins the "when" clause, the
    rest (a platform, a loop, a handler) follows it; None for a condition over private
    names (not restated)."""
    words = platform_words(guard.text) if language == "python" else None
    if guard.kind in _CONDITIONS and words is not None:
        return False, words
    if guard.kind in (*_CONDITIONS, "while") and _private(guard.text):
        return None
    if guard.kind == "for":
        return False, f"inside the loop {_code(guard.text)}"
    if guard.kind == "while":
        return False, f"while {_code(guard.text)} holds"
    if guard.kind == "except":
        return False, f"after {guard.text.replace(' was raised', '')} was caught"
    if guard.kind == "case":
        return False, f"when {_code(guard.text)}"
    return True, _code(guard.text)


#: Languages whose conditions negate with ``!`` (the rest write Python's ``not``).
_BANG_LANGUAGES = frozenset({"c", "cpp", "javascript", "typescript", "go", "rust", "java"})
_TOP_LEVEL_OPERATOR = re.compile(r"&&|\|\||\?|==|!=|<|>")


def _outside_brackets(text: str) -> str:
    """``text`` with everything inside (), [] and {} removed: its top level."""
    out, depth = [], 0
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def _bang_negation(text: str) -> str:
    """``!x`` -> ``x``; anything else -> ``!(text)``, in the language's own syntax."""
    inner = text[1:].strip()
    if (
        text.startswith("!")
        and not text.startswith("!=")
        and not _TOP_LEVEL_OPERATOR.search(_outside_brackets(inner))
    ):
        return inner
    return f"!({text})"


def requirement_from(guard: Guard, language: str = "python") -> str | None:
    """The negation of a firing condition, as a requirement (None for loops and handlers),
    written in the site's language."""
    if guard.kind not in ("if", "elif", "else", "assert", "while-else"):
        return None
    text = guard.text.strip()
    if language in _BANG_LANGUAGES:
        return _bang_negation(text)
    if text.startswith("not (") and text.endswith(")"):
        return text[5:-1]
    if text.startswith("not ") and " and " not in text and " or " not in text:
        return text[4:]
    return f"not ({text})"


#: Kinds of site that are words a developer uses of the error itself: a yielded error
#: is not raised where it is made, a Go ``panic`` and a logged error are not exceptions.
#: ``raise``, ``warn`` and ``assert`` say how errdex found the site, which the class says
#: already (``deprecation-warning``, ``assertion-error``): the paired blind reviews of
#: stop 34 judged those tags "tool-internal" 21 times.
_KIND_TAGS = frozenset({"yield", "panic", "log"})


def tags_for(site: ErrorSite) -> list[str]:
    """``python``, the kind where it is a word of the error's own (:data:`_KIND_TAGS`),
    the class in kebab case and the top-level package."""
    return list(_tags(site.kind, site.error_class, site.qualname.split(".")[0]))


@lru_cache(maxsize=4096)
def _tags(kind: str, error_class: str | None, top: str) -> tuple[str, ...]:
    tags = ["python", *([kind] if kind in _KIND_TAGS else [])]
    if error_class and (tag := kebab(error_class)):
        tags.append(tag)
    slug = re.sub(r"[^a-z0-9]+", "-", top.lower()).strip("-")
    if slug and slug not in tags:
        tags.append(slug)
    return tuple(tags)


#: How other languages' sites produce their error (``ErrorSite.kind``).
_VERBS = {
    "set": "set (the C API's error indicator; Python raises it when the call returns) by",
    "throw": "thrown by",
    "panic": "panic in",
    "log": "logged by",
}


def baseline_fields(site: ErrorSite) -> tuple[dict[str, Any], dict[str, Any]]:
    """(schema-2 analysis fields, provenance per field) from extraction facts only."""
    cls = site.error_class or "An exception"
    where = _where(site)
    if site.kind == "warn":
        documentation = f"{cls} issued with `warnings.warn` by {_who(site)} at {where}."
    elif site.kind == "assert":
        documentation = f"AssertionError from a failed `assert` in {_who(site)} at {where}."
    elif site.kind == "yield":
        documentation = (
            f"{cls} made and yielded by the generator {_who(site)} at {where}, not raised "
            "there: the code that consumes the generator raises it (or collects it)."
        )
    elif site.error_class is None:
        documentation = (
            f"{_who(site)} raises the exception held in {_code(site.template.display[1:-1])} at {where}; "
            "its class is decided at run time."
        )
    elif site.kind in _VERBS:
        documentation = f"{cls} {_VERBS[site.kind]} {_who(site)} at {where}."
    else:
        documentation = f"{cls} raised by {_who(site)} at {where}."

    conditions = list(site.guards)
    # ``while True`` is a loop header, no condition; private checks are not restated:
    # the message's stated case is said instead, or they are left out
    read = [g for g in conditions if not (g.kind == "while" and g.text.strip() in ("True", "1"))]
    said = [_condition_words(g, site.language) for g in read]
    hidden = None in said
    unsaid = tuple(g.text for g, w in zip(read, said, strict=True) if w is None)
    conds = list(dict.fromkeys(w for c, w in filter(None, said) if c))
    # a short private test whose private names are attributes is said as code
    # (``self._writing``); the message is not restated as "the case": it is in the record
    stated = None
    if hidden and site.language == "python" and all(readable(t) for t in unsaid):
        stated = "when " + " and ".join(_code(t) for t in unsaid)
        conds += [_code(t) for t in unsaid]
    clauses = [f"when {' and '.join(conds)}"] if conds else []
    clauses += dict.fromkeys(w for c, w in filter(None, said) if not c)
    if clauses:
        others = " (with other conditions on the way)" if hidden and not stated else ""
        trigger = "Reached " + ", ".join(clauses) + others + "."
    elif hidden:
        trigger = (
            f"Reached inside {_code(site.qualname)} at line {site.line}, under conditions "
            "over private names (the source shown has them)."
        )
    elif site.function:
        trigger = f"Reached whenever {_code(site.qualname)} runs to line {site.line}: no enclosing condition."
    else:
        trigger = f"Reached when {_code(site.qualname)} is imported: no enclosing condition."

    common = (
        f"Any call that reaches {_code(site.qualname)} with the condition above; "
        "no tests or observed messages have been examined for this site yet."
        if conditions
        else f"Any call that reaches {_code(site.qualname)}; no tests or observed messages "
        "have been examined for this site yet."
    )

    requirements = [r for g in conditions if (r := requirement_from(g, site.language))]
    advice: list[str] = []
    callable_ = not _private(site.qualname) and "<locals>" not in site.qualname
    if requirements and not _private(requirements[-1]) and callable_:
        solutions = [
            f"Make sure {_code(requirements[-1])} holds when {_code(site.qualname)} reaches line {site.line}."
        ]
    elif advice := ([] if site.template.is_opaque else advice_solutions(site.template.display)):
        solutions = advice  # "use X instead": the message's own fix
    elif site.error_class in USAGE_BUILTINS or site.kind == "warn":
        # catching would hide the caller's mistake; a warning is no exception to catch
        solutions = [NO_FIX]
    else:  # a requirement said only in private names is no advice a caller can follow
        caught = _code(cls) if site.error_class else "the error"
        place = around(
            own_call(site.qualname, site.function), None if site.function else site.qualname
        )
        solutions = [f"Catch {caught}{place} where the program must go on after it."]

    fields: dict[str, Any] = {
        "documentation": documentation,
        "triggerScenarios": trigger,
        "commonSituations": common,
        "solutions": solutions,
        "exampleFix": None,
        "handlingStrategy": None,
        "validationCode": None,
        "typeGuard": None,
        "tryCatchPattern": None,
        "preventionTips": [],
        "tags": tags_for(site),
        "backgroundTag": None,
    }
    basis_site = ["errorClass", "qualname", "filePath", "lineNumber"]
    provenance: dict[str, dict[str, Any]] = {
        "documentation": {"analyst": ANALYST, "basis": basis_site},
        "triggerScenarios": {"analyst": ANALYST, "basis": ["guards" if conditions else "qualname"]},
        "commonSituations": {"analyst": ANALYST, "basis": ["qualname", "guards"]},
        "solutions": {
            "analyst": ANALYST,
            "basis": ["errorMessage"] if advice else ["guards" if conditions else "qualname"],
        },
        "tags": {"analyst": ANALYST, "basis": ["errorClass", "qualname"]},
    }
    if unsaid:  # which conditions the prose does not restate, and why
        case = PrivateCase(unsaid, stated, "guard" if stated else "omitted")
        provenance["triggerScenarios"]["privateConditions"] = omitted_note(case)
    return fields, provenance
