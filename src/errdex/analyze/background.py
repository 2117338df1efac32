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

from .facts import FuncFacts, within_module
from .guard_subject import Subject
from .guards import CONDITION_KINDS, isinstance_checks, parse_guard
from .key_families import key_already_there, key_caught_not_attribute, says_empty
from .linear import LinearRegex
from .outside_data import USAGE_FAMILIES, from_outside
from .outside_data import innermost as _innermost
from .sites import SiteView
from .unsupported import turned_away

__all__ = ["RULES", "Rule", "background_tag"]


@dataclass(frozen=True, slots=True)
class Rule:
    name: str
    tag: str
    #: The evidence the rule reads (errorClass, site.guards, site.template, site.kind),
    #: several joined by ", ".
    basis: str
    test: Callable[[SiteView, frozenset[str]], bool]
    #: The rule fires only where the raise's condition tests this (:mod:`.guard_subject`).
    subject: Subject | None = None
    #: ... and never where it tests one of these: the class's name gives way to them.
    not_subjects: frozenset[Subject] = frozenset()

    def fires(self, site: SiteView, ancestors: frozenset[str], subject: Subject | None) -> bool:
        if self.subject is not None and subject != self.subject:
            return False
        return subject not in self.not_subjects and self.test(site, ancestors)


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


def _handler_of(site: SiteView, names: frozenset[str]) -> bool:
    """The raise sits in a handler of one of ``names`` (short class names): the failure it
    reports is the caught one's (``except OSError: raise Error(...)``)."""
    for guard in site.guards:
        if guard["kind"] == "except":
            caught = str(guard["text"]).partition(" was raised")[0].strip("()")
            if any(c.strip().rpartition(".")[2] in names for c in caught.split(",")):
                return True
    return False


def _own_words(*words: str) -> Callable[[SiteView, frozenset[str]], bool]:
    """The raised class's own name holds a word (not a base's: optparse's ``OptionError``
    derives from ``OptParseError`` and is raised when an option is defined, not parsed)."""
    pattern = re.compile("|".join(words))
    return lambda site, ancestors: bool(
        pattern.search((site.canonical_class or site.error_class or "").rpartition(".")[2])
    )


def _with(
    rule: Callable[[SiteView, frozenset[str]], bool],
    *evidence: Callable[[SiteView, frozenset[str]], bool],
) -> Callable[[SiteView, frozenset[str]], bool]:
    """``rule`` (a class test) only where one of ``evidence`` (the message, a handler)
    backs it: the class alone does not say the family (an ``ImportError`` for a stale
    ``.pyc``, an ``OSError`` for a closed database, a ``TypeError`` for two arguments
    given together)."""
    return lambda site, ancestors: (
        rule(site, ancestors) and any(e(site, ancestors) for e in evidence)
    )


def _in_handler(*names: str) -> Callable[[SiteView, frozenset[str]], bool]:
    wanted = frozenset(names)
    return lambda site, ancestors: _handler_of(site, wanted)


_OS_CAUGHT = _in_handler(
    "OSError", "IOError", "EnvironmentError", "error", *(n.partition(".")[2] for n in _OS_BUILTINS)
)


def _handles_key_error(site: SiteView) -> bool:
    """The raise sits in a handler of ``KeyError``: a lookup by key failed just before."""
    for guard in reversed(site.guards):
        if guard["kind"] == "except":
            caught = str(guard["text"]).partition(" was raised")[0].strip("()")
            return any(c.strip().rpartition(".")[2] == "KeyError" for c in caught.split(","))
        if guard["kind"] in CONDITION_KINDS:
            return False
    return False


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


#: Words of where an object is in its life: the state rule needs one beside the guard, as
#: an attribute tested for truth also holds data read from a file (``aifc``'s chunks) or
#: options given (``distutils``' commands).
_LIFE = _message(
    r"\balready\b|\bnot (?:yet )?(?:started|running|open|opened|initiali[sz]ed|ready|set|called"
    r"|connected|bound|listening|active)\b|\b(?:un)?closed\b|\bstill (?:running|open|active|alive)"
    r"|\b(?:is|a) running\b|\bstate\b|\bre-?entr|\btwice\b|\bonce\b|\btoo many times\b"
    r"|\bcalled (?:from|before|after|outside)\b|\bmust be called\b|\bcannot be called\b"
    r"|\bshould first call\b|\b(?:before|after) (?:a call to|calling|it is|starting)\b"
    r"|\bshut(?:ting)? ?down\b|\bin progress\b|\bwas not called\b"
)
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


def _lifecycle(text: str) -> bool:
    """A condition that tests where an object is in its life, not what data it holds: a
    flag or a call's truth (``self.closed``, ``self.is_running()``), ``is None``, or a
    comparison with named states (``self._state != RUN``). Not a comparison with a
    number, string or bytes, nor an order: ``self._hdr_size < 24`` and ``'--' in
    self.data`` test what the object was given (a file's header, a node's text)."""
    node = parse_guard(text)
    return node is not None and _lifecycle_node(node)


def _lifecycle_node(node: ast.expr) -> bool:
    if isinstance(node, ast.BoolOp):
        return all(_lifecycle_node(v) for v in node.values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return _lifecycle_node(node.operand)
    if isinstance(node, (ast.Name, ast.Attribute)):
        return True
    if isinstance(node, ast.Call):
        return not (isinstance(node.func, ast.Name) and node.func.id in ("isinstance", "len"))
    if isinstance(node, ast.Compare):
        if not all(
            isinstance(op, (ast.Is, ast.IsNot, ast.Eq, ast.NotEq, ast.In, ast.NotIn))
            for op in node.ops
        ):
            return False
        return all(_named_state(c) for c in node.comparators)
    return False


def _named_state(node: ast.expr) -> bool:
    """``None``, ``True``/``False``, or a CONSTANT's name (``RUN``, ``futures.CANCELLED``),
    or a literal collection of them."""
    if isinstance(node, ast.Constant):
        return node.value is None or isinstance(node.value, bool)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return bool(node.elts) and all(_named_state(e) for e in node.elts)
    name = (
        node.id
        if isinstance(node, ast.Name)
        else node.attr
        if isinstance(node, ast.Attribute)
        else ""
    )
    return name.strip("_").isupper()


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
#: Not where a public way in reads an attribute (:func:`.key_families.read_as_attribute`).
_KEY_AS_ATTRIBUTE = Rule(
    "AttributeError raised where a KeyError was caught, outside __getattr__ and its kin",
    "missing-key",
    "errorClass, site.guards",
    lambda s, a: _builtin("AttributeError")(s, a) and key_caught_not_attribute(s),
)
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
    Rule(
        "ImportError, raised where an import failed or with a message about a module to install",
        "missing-dependency",
        "errorClass, site.guards, site.template",
        _with(
            _builtin("ImportError"),
            _in_handler("ImportError", "ModuleNotFoundError"),
            _message(r"\bno module named\b|\binstall|\bnot installed\b|\brequires?\b|\bimport\b"),
        ),
    ),
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
        "a builtin subclass of OSError (FileNotFoundError, ...), or OSError itself raised where "
        "an OS call failed or with a message of one",
        "io-failure",
        "errorClass, site.guards, site.template",
        lambda s, a: (
            _os_failure(s, a)
            and (
                (s.canonical_class or "") != "builtins.OSError"
                or _OS_CAUGHT(s, a)
                or _message(
                    r"\berrno\b|\bno such file\b|\bpermission denied\b|\bcannot (?:open|read|write)\b"
                    r"|\bfailed to (?:open|read|write)\b|\bi/o\b|\bdisk\b|\bdevice\b"
                )(s, a)
            )
        ),
    ),
    Rule(
        "MemoryError or RecursionError",
        "resource-exhausted",
        "errorClass",
        _builtin("MemoryError", "RecursionError"),
    ),
    Rule(
        "the condition closest to the raise reads the running system's state (a file's mode "
        "or owner, the user, the platform) and the message speaks of permissions",
        "permission-denied",
        "errorClass, site.guards, function, site.template",
        lambda s, a: (
            _message(r"\bpermissions?\b|\bpermissive\b|\bowner\b|\baccess (?:denied|rights?)\b")(
                s, a
            )
            and not any(decided(s, a) for decided in _DECIDED_BY_CLASS)
        ),
        subject="environment",
    ),
    Rule("SyntaxError", "parse-error", "errorClass", _builtin("SyntaxError")),
    Rule(
        "the raised class itself named *Parse*/*Decode*, where the condition closest to the "
        "raise does not test the running system's state (a file's mode: not its syntax)",
        "parse-error",
        "errorClass, site.guards",
        _own_words("Parse", "Decode"),
        not_subjects=frozenset({"environment"}),
    ),
    Rule(
        "KeyError raised because the key is there already: the condition closest to the "
        "raise is `key in mapping`, or the message says overwrite / duplicate / already",
        "invalid-value",
        "errorClass, site.guards, site.template",
        lambda s, a: _builtin("KeyError")(s, a) and key_already_there(s),
    ),
    Rule(
        "KeyError whose message says the container is empty (no messages, empty)",
        "empty-input",
        "errorClass, site.template",
        lambda s, a: _builtin("KeyError")(s, a) and says_empty(s),
    ),
    Rule("KeyError", "missing-key", "errorClass", _builtin("KeyError")),
    _KEY_AS_ATTRIBUTE,
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
    Rule(
        "TypeError with a message about a type",
        "type-mismatch",
        "errorClass, site.template",
        _with(
            _builtin("TypeError"),
            _message(
                r"\btypes?\b|\bmust be (?:a|an)\b|\bexpected\b|\bgot\b|\bnot (?:a|an)\b"
                r"|\bobject is not\b|\bnot (?:callable|iterable|subscriptable)\b|\binstances?\b"
                r"|\b(?:str|int|bytes|float|list|dict|tuple)\b"
            ),
        ),
    ),
    Rule(
        "innermost condition uses isinstance, unless the message says a feature is not "
        "supported and names no type (the test turns a case away: :mod:`.unsupported`)",
        "type-mismatch",
        "site.guards",
        lambda s, a: _guards("isinstance")(s, a) and not turned_away(s),
    ),
    Rule(
        "the condition closest to the raise tests only where the object is in its life (a "
        "flag, `is None`, a named state: `self._popen.poll() is None`, `self._state != RUN`), "
        "nothing on the way or in the message reads a parameter, and the message speaks of "
        "that life (closed, already, still running, not started, must be called first…)",
        "invalid-state",
        "site.guards, function, site.template",
        lambda s, a: (text := _innermost(s)) is not None and _lifecycle(text) and _LIFE(s, a),
        subject="state",
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
    Rule(
        "ValueError with a message about a bad value",
        "invalid-value",
        "errorClass, site.template",
        _with(
            _builtin("ValueError"),
            _message(
                r"\binvalid\b|\bnot a valid\b|\bmust\b|\bshould\b|\bexpected\b|\bunknown\b"
                r"|\bunrecognized\b|\bbad\b|\billegal\b|\bmalformed\b|\bnot allowed\b"
                r"|\bcan(?:no|')t be\b|\btoo (?:many|few|long|short|large|small|big)\b"
                r"|\bnegative\b|\bout of range\b|\bwrong\b|\bunexpected\b"
            ),
        ),
    ),
    Rule(
        "RuntimeError with a message about the object's state",
        "invalid-state",
        "errorClass, site.template",
        _with(
            _builtin("RuntimeError"),
            _message(
                r"\balready\b|\bnot (?:yet )?(?:started|running|open|initiali[sz]ed|ready|set)\b"
                r"|\bclosed\b|\bstate\b|\bre-?entr|\btwice\b|\bno running\b|\bis running\b"
                r"|\bcalled (?:from|before|after|outside)\b|\bmust be called\b|\bcannot be called\b"
            ),
        ),
    ),
)

assert all(rule.tag in BACKGROUND_TAGS for rule in RULES)


#: Classes whose family the class rules above decide: when their evidence is missing
#: (an ``ImportError`` for a corrupt archive, an ``OSError`` for a closed object), no
#: later rule over the guards gives one (``zipimport``'s ``header_size < header_offset``
#: is no out-of-range argument).
_DECIDED_BY_CLASS: tuple[Callable[[SiteView, frozenset[str]], bool], ...] = (
    _builtin("ImportError"),
    _os_failure,
)


#: A test framework's assertion method, by the names unittest, mock and pytest give them.
_ASSERTION_API = re.compile(r"^(?:assert|fail)(?:[A-Z_]|$)")


def assertion_api(site: SiteView, ancestors: frozenset[str]) -> bool:
    """An ``AssertionError`` raised by a public ``assert*``/``fail*`` method (``assertRegex``,
    mock's ``assert_not_awaited``): the caller's own test assertion failing, which that
    method reports for it, not an internal check of the library that went wrong."""
    if "builtins.AssertionError" not in ancestors or not site.function:
        return False
    parts = within_module(site.function, site.module).split(".")
    return bool(_ASSERTION_API.match(parts[-1])) and not any(p.startswith("_") for p in parts)


#: The raised class's own name or the message says the thing is *not* empty
#: (``mailbox.NotEmptyError``, "Folder not empty"): the word "empty" there means the
#: opposite of ``empty-input``. "must not be empty" says the input was empty, and stays.
_NOT_EMPTY_CLASS = re.compile(r"not_?empty|non_?empty", re.IGNORECASE)
_NOT_EMPTY = _message(r"\bnot empty\b")


def _says_not_empty(site: SiteView, ancestors: frozenset[str]) -> bool:
    own = (site.canonical_class or site.error_class or "").rpartition(".")[2]
    return bool(_NOT_EMPTY_CLASS.search(own)) or _NOT_EMPTY(site, ancestors)


def _mistake_read_off(rule: Rule) -> bool:
    """A rule that gives a caller's-mistake family from the guard or the message: not the
    state rule (its guard reads only the object's own state), nor a type check (``cgi``'s
    ``fp.read()`` giving ``str``: the caller passed a text file, not the data's fault)."""
    return (
        rule.tag in USAGE_FAMILIES - {"type-mismatch"}  # the file object passed decides it
        and rule.subject != "state"
        and any(b in rule.basis for b in ("site.guards", "site.template"))
    )


def background_tag(
    site: SiteView,
    ancestors: frozenset[str],
    subject: Subject | None = None,
    func: FuncFacts | None = None,
    attribute_read: bool = False,
) -> tuple[str | None, Rule | None]:
    """The first rule that fires for ``site`` (whose class has ``ancestors``, whose
    condition tests ``subject``: :func:`errdex.analyze.guard_subject.guards_subject`), and
    its tag. No tag fits a test framework's assertion method (:func:`assertion_api`); no
    caller's-mistake family is read off the guard or message of a raise that reports data
    from outside (:func:`errdex.analyze.outside_data.from_outside`, in ``func``), nor
    ``empty-input`` where the class or message says "not empty", nor ``missing-key`` for
    an ``AttributeError`` a public way in meets as an attribute read (``attribute_read``)."""
    if site.kind == "raise" and assertion_api(site, ancestors):
        return None, None
    outside = from_outside(site, ancestors, func, subject)
    for rule in RULES:
        if outside and _mistake_read_off(rule):
            continue
        if rule.tag == "empty-input" and _says_not_empty(site, ancestors):
            continue
        if attribute_read and rule is _KEY_AS_ATTRIBUTE:
            continue
        if rule.fires(site, ancestors, subject):
            return rule.tag, rule
        if rule.basis.startswith(("site.guards", "site.template")) and any(
            decided(site, ancestors) for decided in _DECIDED_BY_CLASS
        ):
            return None, None  # past the class rules: theirs was the say
    return None, None
