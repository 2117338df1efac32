"""``backgroundTag``: the cause family, chosen by declared rules from the class, guards and message.

The rules run in order and the first that fires wins; each names what it looked at, so
the record's provenance can say why a site got its tag (``docs/analysis.md`` lists them).
No rule firing leaves the tag null: a family is never guessed.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass

from errdex.record import BACKGROUND_TAGS

from .guards import CONDITION_KINDS, isinstance_checks, parse_guard
from .linear import LinearRegex
from .sites import SiteView

__all__ = ["RULES", "Rule", "background_tag"]


@dataclass(frozen=True, slots=True)
class Rule:
    name: str
    tag: str
    #: The evidence the rule reads (errorClass, site.guards, site.template, site.kind),
    #: several joined by ", ".
    basis: str
    test: Callable[[SiteView, frozenset[str]], bool]


def _short(names: frozenset[str]) -> set[str]:
    return {n.rpartition(".")[2] for n in names}


def _builtin(*names: str) -> Callable[[SiteView, frozenset[str]], bool]:
    wanted = {f"builtins.{n}" for n in names}
    return lambda site, ancestors: not wanted.isdisjoint(ancestors)


def _class_words(*words: str) -> Callable[[SiteView, frozenset[str]], bool]:
    pattern = re.compile("|".join(words))
    return lambda site, ancestors: any(pattern.search(n) for n in _short(ancestors))


#: Builtin subclasses of OSError that name a file-system or process failure (the
#: connection ones are ``network-failure``, tested before).
_OS_BUILTINS = frozenset(
    f"builtins.{n}"
    for n in (
        "FileNotFoundError",
        "FileExistsError",
        "IsADirectoryError",
        "NotADirectoryError",
        "BlockingIOError",
        "InterruptedError",
        "ChildProcessError",
        "ProcessLookupError",
    )
)


def _os_failure(site: SiteView, ancestors: frozenset[str]) -> bool:
    """The builtin ``OSError`` or a builtin subclass (``FileNotFoundError``), or a class
    derived from a file-system one. A library's own ``OSError`` subclass is not enough:
    ``urllib.error.URLError``, ``smtplib.SMTPException`` and ``gzip.BadGzipFile`` derive
    from ``OSError`` for what are network and format failures."""
    if "builtins.OSError" not in ancestors:
        return False
    own = site.canonical_class or ""
    return own.startswith("builtins.") or not _OS_BUILTINS.isdisjoint(ancestors)


def _handles_key_error(site: SiteView) -> bool:
    """The raise sits in a handler of ``KeyError``: a lookup by key failed just before."""
    for guard in reversed(site.guards):
        if guard["kind"] == "except":
            caught = str(guard["text"]).partition(" was raised")[0].strip("()")
            return any(c.strip().rpartition(".")[2] == "KeyError" for c in caught.split(","))
        if guard["kind"] in CONDITION_KINDS:
            return False
    return False


def _innermost(site: SiteView) -> str | None:
    """The condition closest to the raise, unless a handler is closer (then the raise
    translates a caught error, and an outer condition says nothing of its cause)."""
    for guard in reversed(site.guards):
        if guard["kind"] == "except":
            return None
        if guard["kind"] in CONDITION_KINDS:
            return str(guard["text"])
    return None


def _guards(kind: str) -> Callable[[SiteView, frozenset[str]], bool]:
    """The rule reads the innermost condition only: ``if len(z) > 5: if z[5] != ':':
    raise ValueError("Inconsistent use of :")`` is about the colon, not a bound."""

    def test(site: SiteView, ancestors: frozenset[str]) -> bool:
        text = _innermost(site)
        return text is not None and _guard_is(text, kind)

    return test


def _message(pattern: str) -> Callable[[SiteView, frozenset[str]], bool]:
    regex = LinearRegex(pattern, ignore_case=True)  # literals can be megabytes long
    return lambda site, ancestors: any(regex.search(run) for run in site.template.literals)


_NOT_FOUND = _message(r"\bnot found\b|\bno such\b|\bdoes not exist\b|\bmissing\b")


def _guard_is(text: str, kind: str) -> bool:
    if kind == "isinstance":
        return bool(isinstance_checks(text))
    node = parse_guard(text)
    if node is None:
        return False
    for sub in ast.walk(node):
        if not isinstance(sub, ast.Compare):
            continue
        ops = sub.ops
        operands = [sub.left, *sub.comparators]
        if kind == "choices" and any(
            isinstance(op, ast.NotIn) and _literal_choices(right)
            for op, right in zip(ops, sub.comparators, strict=True)
        ):
            return True
        if kind == "length-equality" and any(isinstance(op, (ast.NotEq, ast.Eq)) for op in ops):
            lens = [o for o in operands if _is_len_or_shape(o)]
            if len(lens) >= 2:
                return True
        if (
            kind == "empty"
            and any(isinstance(op, (ast.Eq, ast.Lt, ast.LtE)) for op in ops)
            and any(_is_len_or_shape(o) for o in operands)
            and any(isinstance(o, ast.Constant) and o.value in (0, 1) for o in operands)
        ):
            return True
        if kind == "bounds" and any(
            isinstance(op, (ast.Lt, ast.Gt, ast.LtE, ast.GtE)) for op in ops
        ):
            return True
    return False


def _literal_choices(node: ast.expr) -> bool:
    if not isinstance(node, (ast.Tuple, ast.List, ast.Set)) or not node.elts:
        return False
    return all(isinstance(e, ast.Constant) for e in node.elts)


def _is_len_or_shape(node: object) -> bool:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len":
        return True
    if isinstance(node, ast.Attribute) and node.attr in ("shape", "ndim", "size"):
        return True
    return isinstance(node, ast.Subscript) and _is_len_or_shape(node.value)


def _assert_site(site: SiteView, ancestors: frozenset[str]) -> bool:
    return site.kind == "assert"


#: In order; the first rule that fires gives the tag.
RULES: tuple[Rule, ...] = (
    Rule("assert statement", "internal-assertion", "site.kind", _assert_site),
    Rule("AssertionError", "internal-assertion", "errorClass", _builtin("AssertionError")),
    Rule(
        "deprecation warning class",
        "deprecated-usage",
        "errorClass",
        _builtin("DeprecationWarning", "PendingDeprecationWarning", "FutureWarning"),
    ),
    Rule("class named *Deprecat*", "deprecated-usage", "errorClass", _class_words("Deprecat")),
    Rule(
        "NotImplementedError or class named *NotImplemented*",
        "not-implemented",
        "errorClass",
        lambda s, a: _builtin("NotImplementedError")(s, a) or _class_words("NotImplemented")(s, a),
    ),
    Rule("ImportError", "missing-dependency", "errorClass", _builtin("ImportError")),
    Rule(
        "TimeoutError or class named *Timeout*",
        "timeout",
        "errorClass",
        lambda s, a: _builtin("TimeoutError")(s, a) or _class_words("Timeout", "TimedOut")(s, a),
    ),
    Rule("PermissionError", "permission-denied", "errorClass", _builtin("PermissionError")),
    Rule("ConnectionError", "network-failure", "errorClass", _builtin("ConnectionError")),
    Rule("UnicodeError", "encoding-error", "errorClass", _builtin("UnicodeError")),
    Rule(
        "OSError itself or a builtin subclass of it",
        "io-failure",
        "errorClass",
        _os_failure,
    ),
    Rule(
        "MemoryError or RecursionError",
        "resource-exhausted",
        "errorClass",
        _builtin("MemoryError", "RecursionError"),
    ),
    Rule(
        "SyntaxError or class named *Parse*/*Decode*",
        "parse-error",
        "errorClass",
        lambda s, a: _builtin("SyntaxError")(s, a) or _class_words("Parse", "Decode")(s, a),
    ),
    Rule("KeyError", "missing-key", "errorClass", _builtin("KeyError")),
    Rule("AttributeError", "missing-attribute", "errorClass", _builtin("AttributeError")),
    Rule(
        "IndexError or OverflowError",
        "out-of-range",
        "errorClass",
        _builtin("IndexError", "OverflowError"),
    ),
    Rule(
        "class named *Unfeasible*/*Infeasible*/*Unbounded*/*NoPath*/*NoSolution*/*Singular*",
        "no-solution",
        "errorClass",
        _class_words("Unfeasible", "Infeasible", "Unbounded", "NoPath", "NoSolution", "Singular"),
    ),
    Rule(
        "class named *Convergence*/*MaxIteration*",
        "convergence-failure",
        "errorClass",
        _class_words("Convergence", "MaxIteration"),
    ),
    Rule("TypeError", "type-mismatch", "errorClass", _builtin("TypeError")),
    Rule(
        "innermost condition uses isinstance", "type-mismatch", "site.guards", _guards("isinstance")
    ),
    Rule(
        "innermost condition compares two lengths or shapes",
        "shape-mismatch",
        "site.guards",
        _guards("length-equality"),
    ),
    Rule(
        "guard requires the value to be one of listed constants (`x not in ('r', 'w')`)",
        "invalid-value",
        "site.guards",
        _guards("choices"),
    ),
    Rule(
        "innermost condition compares a length or size with 0 or 1",
        "empty-input",
        "site.guards",
        _guards("empty"),
    ),
    Rule(
        "message says empty / no nodes / null graph",
        "empty-input",
        "site.template",
        _message(r"\bempty\b|\bno nodes\b|\bnull graph\b"),
    ),
    Rule(
        "message says shape / dimension mismatch",
        "shape-mismatch",
        "site.template",
        _message(r"\bshapes?\b.*\b(match|mismatch|differ|same)|\bsame (length|size|shape)\b"),
    ),
    Rule(
        "raised where a KeyError was caught, and the message says not found / no such",
        "missing-key",
        "site.guards, site.template",
        lambda s, a: _handles_key_error(s) and _NOT_FOUND(s, a),
    ),
    Rule(
        "message says not in (the) graph",
        "missing-key",
        "site.template",
        _message(r"\bnot in (the )?graph\b"),
    ),
    Rule(
        "innermost condition compares with < or >", "out-of-range", "site.guards", _guards("bounds")
    ),
    Rule("ValueError", "invalid-value", "errorClass", _builtin("ValueError")),
    Rule("RuntimeError", "invalid-state", "errorClass", _builtin("RuntimeError")),
)

assert all(rule.tag in BACKGROUND_TAGS for rule in RULES)


def background_tag(site: SiteView, ancestors: frozenset[str]) -> tuple[str | None, Rule | None]:
    """The first rule that fires for ``site`` (whose class has ``ancestors``), and its tag."""
    for rule in RULES:
        if rule.test(site, ancestors):
            return rule.tag, rule
    return None, None
