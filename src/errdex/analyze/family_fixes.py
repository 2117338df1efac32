"""Fixes for message families whose words name the mistake, where errdex said "found no
fix" or only restated the message (issue 10: the paired blind reviews of stops 35-37
named the fix each time).

Each family is known by the message's own words and the raising function together:

- "``generator didn't yield``" / "``didn't stop``" / "``didn't stop after throw()``"
  from a context manager's ``__enter__``/``__exit__`` (``contextlib``'s wrapper of a
  ``@contextmanager`` generator): the generator must yield exactly once on every path;
- "``already started``" / "``can only be started once``" from a method of an object
  under a check of its own state: ``start()`` once per object, anything else before it;
- "``'x' is an invalid keyword argument for f``", "``f() got an unexpected keyword
  argument 'x'``": the keyword the message shows is not accepted: remove or respell it;
- "``length of metavar tuple does not match nargs``": a tuple with as many items as the
  other parameter asks for;
- "``Cannot instantiate Base``" from ``Base.__new__`` under ``cls is Base``: a subclass.
"""

from __future__ import annotations

import re

from .fix_names import public_class
from .gathered import Gathered, class_phrase, short_name
from .guards import CONDITION_KINDS, code, free_names
from .line_asserts import file_line_fix
from .message_fixes import whole_message
from .module_getattr import module_getattr_fix
from .protocol_fixes import protocol_fix
from .started_state import started_state

__all__ = ["family_fix"]

#: A solution and the evidence keys it rests on.
Remedy = tuple[str, list[str]]

_CONTEXT_METHODS = frozenset({"__enter__", "__exit__", "__aenter__", "__aexit__"})
#: "generator didn't yield", "generator didn't stop", "generator didn't stop after athrow()".
_GENERATOR = re.compile(r"^generator didn't (yield|stop)(?: after (a?throw)\(\))?\.?$")
#: "process has already started", "Already started server", "threads can only be started once".
_STARTED = re.compile(r"\balready started\b|\bcan only be started once\b", re.IGNORECASE)
#: "'{key}' is an invalid keyword argument for this function", "%s() got an unexpected
#: keyword argument %r", "unexpected keyword argument(s) %s".
_INVALID_KEYWORD = re.compile(
    r"\bis an invalid keyword argument for\b|\bgot an unexpected keyword argument\b"
    r"|^unexpected keyword argument\(s\)"
)
#: "Cannot instantiate Base", "DOMException should not be instantiated directly".
_INSTANTIATE = re.compile(
    r"^Cannot instantiate ([A-Za-z_]\w*)\.?$|^([A-Za-z_]\w*) should not be instantiated directly\.?$"
)
#: "length of metavar tuple does not match nargs".
_TUPLE_LENGTH = re.compile(r"^length of ([A-Za-z_]\w*) tuple does not match ([A-Za-z_]\w*)\.?$")


def family_fix(g: Gathered) -> Remedy | None:
    """The first family's fix that fits the record, or None."""
    if g.func is None or g.site.kind not in ("raise", "assert") or g.site.template.is_opaque:
        return None
    return (
        _generator_fix(g)
        or _started_fix(g)
        or _keyword_fix(g)
        or _tuple_fix(g)
        or _instantiate_fix(g)
        or file_line_fix(g)  # an assert on a line of the file the function reads
        or protocol_fix(g)  # a context manager's protocol, a call the message says is first
        or module_getattr_fix(g)  # a module's ``__getattr__``: a name the module lacks
    )


def _generator_fix(g: Gathered) -> Remedy | None:
    """A context manager made from a generator that yields no value, or more than one."""
    func, message = g.func, whole_message(g)
    if func is None or func.cls is None or func.name not in _CONTEXT_METHODS or not message:
        return None
    found = _GENERATOR.match(message)
    if found is None:
        return None
    is_async = func.name.startswith("__a")
    decorator = "@asynccontextmanager" if is_async else "@contextmanager"
    block = code("async with" if is_async else "with")
    head = (
        f"Make the generator function the context manager runs (the one decorated with "
        f"{code(decorator)}) yield exactly once on every path: "
    )
    if found.group(1) == "yield":
        when = (
            f"entering the {block} block raises {class_phrase(g)} when the generator "
            "finishes without yielding (a path that returns early, or a loop that runs "
            "zero times)."
        )
    elif found.group(2):
        when = (
            f"leaving the {block} block raises {class_phrase(g)} when the block raised "
            f"and the generator caught the exception at its {code('yield')} and yielded "
            "again; after catching it, re-raise it or return."
        )
    else:
        when = (
            f"leaving the {block} block raises {class_phrase(g)} when the generator "
            f"yields again after the block (a second {code('yield')}, or one in a loop)."
        )
    return head + when, ["site.template", "site.function"]


def _reads_self(g: Gathered) -> bool:
    return any(
        "self" in (free_names(str(guard["text"])) or set())
        for guard in g.site.guards
        if guard["kind"] in CONDITION_KINDS
    )


def _guard_texts(g: Gathered) -> list[str]:
    return [str(guard["text"]) for guard in g.site.guards if guard["kind"] in CONDITION_KINDS]


def _started_fix(g: Gathered) -> Remedy | None:
    """ "``already started``" from a method of an object that has a ``start()``: the
    raising method is ``start`` itself (once per object), a property's setter or another
    method (before ``start()``)."""
    func, message = g.func, whole_message(g)
    if func is None or func.cls is None or not message or not _STARTED.search(message):
        return None
    if not _reads_self(g) or (func.name.startswith("_") and not func.name.endswith("__")):
        return None
    cls = public_class(g)
    state = started_state(g.source_file, func, _guard_texts(g)) if g.source_file else None
    if cls is None or state is None or not state.has_start:
        return None  # no ``start()`` of its class to name
    start = code(f"{cls}.start()")
    others = " or ".join(code(f"{cls}.{m}()") for m in state.other_starters)
    if func.name == "start" and others:
        return (
            f"Call {start} once per object, and not on one already started by {others} "
            f"(which also records the object as started): then it raises {class_phrase(g)}; "
            f"to run it again, make a new {code(cls)} and start that one.",
            ["site.template", "site.guards"],
        )
    if func.name == "start":
        return (
            f"Call {start} once per object: a second call raises {class_phrase(g)}, as the "
            f"object cannot be started again; to run it again, make a new {code(cls)} and "
            "start that one.",
            ["site.template", "site.guards"],
        )
    begun = code("start()")
    if state.other_starters:
        begun += " (or " + " or ".join(code(f"{m}()") for m in state.other_starters) + ")"
    setter = any(ref and ref[-1] == "setter" for ref in func.decorators)
    if setter:
        return (
            f"Set {code(f'{cls}.{func.name}')} before calling {start}, not after: setting it "
            f"raises {class_phrase(g)} once the object has been started.",
            ["site.template", "site.guards", "site.function"],
        )
    return (
        f"Call {code(f'{cls}.{func.name}()')} only on an object whose {begun} has "
        f"not been called: it raises {class_phrase(g)} once the object has been started.",
        ["site.template", "site.guards"],
    )


def _keyword_fix(g: Gathered) -> Remedy | None:
    """ "``'x' is an invalid keyword argument for f``": the message shows the keyword,
    as the value filled in where the keyword's name goes (not ``%s()`` before "got an
    unexpected keyword argument", the function's name), or written out ("``__init__()
    got an unexpected keyword argument 'multiple'.``", click)."""
    display = " ".join(g.site.template.display.split())
    named = _NAMED_KEYWORD.search(display) if _INVALID_KEYWORD.search(display) else None
    if named is None:
        return None  # the keyword is not shown: the reader cannot tell which to remove
    which = (
        f"the keyword argument {code(named['literal'] or named['before'])}"
        if named["literal"] or named["before"]
        else "the keyword argument the message names"
    )
    return (
        f"Remove {which}, or correct its spelling: no keyword argument of that name is "
        f"accepted there, and passing it raises {class_phrase(g)}.",
        ["site.template", "site.guards"],
    )


#: A value filled in at run time: ``{key}``, ``{}``, ``%r``, ``%s``.
_HOLE = r"(?:\{[^{}]*\}|%[-#0 +]*\d*(?:\.\d+)?[rsd])"
_QUOTE = "['\"]?"
#: The keyword's own place in the message: a hole (or a quoted name) right before "is an
#: invalid keyword argument" or right after "unexpected keyword argument(s):".
_NAMED_KEYWORD = re.compile(
    rf"(?:^|\s){_QUOTE}(?:{_HOLE}|'(?P<before>[A-Za-z_]\w*)'){_QUOTE}\s+is an invalid keyword argument"
    rf"|\bunexpected keyword argument(?:s|\(s\)|{_HOLE})?:?\s+"
    rf"(?:{_QUOTE}{_HOLE}{_QUOTE}|'(?P<literal>[A-Za-z_]\w*)')"
)


def _instantiate_fix(g: Gathered) -> Remedy | None:
    """ "``Cannot instantiate Base``" from ``Base.__new__``/``__init__`` under ``cls is
    Base`` (or ``self.__class__ is Base``): make one of its subclasses instead."""
    func, message = g.func, whole_message(g)
    if func is None or func.cls is None or func.name not in ("__new__", "__init__"):
        return None
    found = _INSTANTIATE.match(message) if message else None
    cls = short_name(func.cls)
    if found is None or (found.group(1) or found.group(2)) != cls:
        return None
    tests = {f"cls is {cls}", f"self.__class__ is {cls}", f"type(self) is {cls}"}
    if not any(str(guard["text"]).strip() in tests for guard in g.site.guards):
        return None
    return (
        f"Make an instance of a subclass of {code(cls)}, not of {code(cls)} itself: "
        f"{code(f'{cls}.{func.name}')} {_verb(g)} {class_phrase(g)} only when the class "
        f"being made is {code(cls)}.",
        ["site.template", "site.guards"],
    )


def _verb(g: Gathered) -> str:
    return "fails its assertion with" if g.site.kind == "assert" else "raises"


def _tuple_fix(g: Gathered) -> Remedy | None:
    """ "``length of metavar tuple does not match nargs``": both are parameters the
    message names."""
    message = whole_message(g)
    found = _TUPLE_LENGTH.match(message) if message else None
    if found is None:
        return None
    item, count = found.group(1), found.group(2)
    return (
        f"Pass {code(item)} as a tuple with one item for each value {code(count)} asks for "
        f"({code(f'{count}=2, {item}=(' + repr('A') + ', ' + repr('B') + ')')}); a tuple of "
        f"another length raises {class_phrase(g)}.",
        ["site.template"],
    )
