"""commonSituations where no test links to the site and nothing was seen at run time: a
situation in the caller's terms, built only from evidence errdex already has.

Blind reviews of stop 34 judged the old sentence ("errdex linked none of the N test
files…") misleading 120 times: it spoke of errdex, not of the error, and named no
situation. What errdex read (test files, none linked) stays in ``evidence.testsRead`` and
``evidence.testFilesRead``. In order, the first that applies:

* ``hook``: a method the library calls itself, overriding a base class's: the public
  calls errdex's call graph shows running it (:mod:`.hook_words`);
* ``argument``: every condition in an entry point's arguments, through the locals the
  raising function makes of them (:mod:`.exact_args`); else the nearest public call whose
  own parameters make the raise's condition
  true (:func:`.param_requirement.param_requirement`), in words where
  :mod:`.caller_words` can say the value ("a call of `getrandbits()` that passes `k` as
  a negative value"), else the condition in those parameters;
* ``docstring``: a docstring's ``Raises`` entry for the class, its own sentence of when;
  after ``special``, the raising function's docstring sentence that says when it raises
  ("ValueError is raised if a cycle is encountered"), the message not restated;
* ``abstract``: a method meant to be overridden: a subclass that does not;
* ``special``: a special method (``__contains__``, ``__len__``, ``__enter__``…): the
  operator, statement or builtin that runs it (:mod:`.special_words`), not a call by name;
* ``state``: what the object the method runs on was like, where its lines say it exactly
  ("on an empty `Mailbox`", "after `close()` was called on the same object":
  :mod:`.state_words`);
* ``requirement``: the message's fixed words say what must hold: a public call that
  breaks it. Where they say what happened (a negation, "already", "closed"), the message
  follows one of the first three; alone, it is not restated (the record shows it);
* ``caught``: only code that calls the raising function itself sees it: its callers
  catch it (``evidence.caughtBy``);
* ``entry``: the nearest public calls that reach it, and no more: "under the conditions
  its trigger states" named no situation (paired blind review, stop 35);
* ``private``: that the way in is not known (:mod:`.unknown_way`), never where it is
  raised, which restated the record's location (stop 37).

Each is true of the code only as far as the evidence is: an entry point errdex got wrong
(a call resolved to a method a subclass replaces) makes its sentence wrong too.
"""

from __future__ import annotations

import re

from errdex.evidence import EntryPoint

from .caller_words import needs
from .chains import signature_of
from .codec_ways import codec_way
from .exact_args import exact_argument
from .facts import FuncFacts
from .fixed_words import fixed_words
from .gathered import Gathered, short_name
from .guards import code, has_private
from .hook_words import docstring_raises, hook_situation
from .param_requirement import ParamRequirement, call_name, param_requirement
from .quoting import quote, stated_cause
from .roles import abstract_trigger
from .special_words import article, operator_way, special_situation
from .state_words import state_clause
from .unknown_way import twin_runs, unknown_way

__all__ = ["SITUATION_KINDS", "unseen_situation"]

#: The kinds of sentence, in the order they are tried.
SITUATION_KINDS = (
    "hook",
    "argument",
    "docstring",
    "abstract",
    "special",
    "state",
    "requirement",
    "caught",
    "entry",
    "private",
)

#: Fixed words of a message that describe what happened rather than what must hold: a
#: negation or a word for a fault ("No translation file found", "process not started",
#: "File not open for reading", "Incorrect padding", "Paths don't have the same drive").
_HAPPENED = re.compile(
    r"n't\b|\b(?:not|no|nor|neither|nothing|none|missing|already|closed|empty|"
    r"timed out|time ?out|too (?:many|long|large|big|short|few|deep|small|complex)|exceed\w*|"
    r"unsupported|unavailable|unexpected|unknown|unrecognized|disallowed|forbidden|illegal|"
    r"invalid|read-only|beyond|out of range|cannot|unable|failed|bad|incorrect|wrong|"
    r"mismatch\w*|conflict\w*|ended|incomplete|inconsistent|deprecated|first|overflow|"
    r"underflow|error|never|only|after|refus\w*|expected|extra|un\w+able)\b",
    re.IGNORECASE,
)
#: Fixed words that state a requirement: the situation is a call that breaks it. Not
#: "should" or "require", which as often say what went wrong ("notify: Should not have
#: been able to acquire", "Central directory size would require ZIP64 extensions").
_REQUIRED = re.compile(r"\b(?:must|needs? to)\b", re.IGNORECASE)
#: Value phrases said as a person would.
_PLAIN = {
    "a value less than `0`": "a negative value",
    "a value less than `0.0`": "a negative value",
    "a value of at most `0`": "zero or a negative value",
    "a value of at most `0.0`": "zero or a negative value",
}
#: A condition longer than this is left to the trigger.
_LONGEST = 100
#: Entry points named, at most.
_SHOWN = 2


def unseen_situation(g: Gathered) -> tuple[str, list[str], str]:
    """The sentence, the evidence keys it rests on, and its kind (:data:`SITUATION_KINDS`);
    a message that describes what happened follows an ``argument``, ``docstring`` or
    ``abstract`` sentence (kind ``…+message``). Where the message is all there is, it is
    not restated ("in the situation its message describes" named no situation: paired
    blind review of stop 35, misleading 21 times): the public call alone is said."""
    said, required = _message(g)
    hook = hook_situation(g)
    if hook is not None:
        if said is not None and required:
            text = f"{hook[0]} Its message says what must hold: {quote(said)}."
            return text, [*hook[1], "site.template"], "hook"
        return hook[0], hook[1], "hook"
    exact = exact_argument(g)  # every condition in the caller's arguments: no message
    if exact is not None:
        return exact[0], exact[1], "argument"
    for kind, write in (
        ("argument", _argument),
        ("docstring", _docstring),
        ("abstract", _abstract),
    ):
        found = write(g)
        if found is None:
            continue
        if said is None or required:
            return found[0], found[1], kind
        text = f"{found[0]} Its message describes it: {quote(said)}."
        return text, [*found[1], "site.template"], f"{kind}+message"
    special = special_situation(g)
    if special is not None:
        return special[0], special[1], "special"
    raised = _raised_if(g)
    if raised is not None:
        return raised[0], raised[1], "docstring"
    calls = _calls(g)
    state = state_clause(g) if calls else None  # what the object was like (b46)
    if state is not None:
        return f"It comes from {calls} {state}.", ["entryPoints", "site.guards"], "state"
    if said is not None and required and calls:
        text = f"It comes from {calls} that breaks what its message requires: {quote(said)}."
        return text, ["site.template", "entryPoints"], "requirement"
    for kind, write in (("caught", _caught), ("entry", _entry)):
        found = write(g)
        if found is not None:
            return found[0], found[1], kind
    own = _own_way(g)
    if own is not None and twin_runs(g):
        return unknown_way(g, own), ["site.qualname", "shadowedBy"], "private"
    return unknown_way(g, None), ["handedOut" if g.handed_out else "site.qualname"], "private"


def _argument(g: Gathered) -> tuple[str, list[str]] | None:
    req = param_requirement(g)
    if req is None:
        return None
    call = code(req.call)
    words = _passed(g, req)
    if words is None and len(req.fires) > _LONGEST:
        return None  # a condition this long says no situation a reader recognises
    way = codec_way(g, _entry_func(g, req.entry["qualname"]))
    if way is not None:  # run by the codec's name, as _calls says it: not by its method
        head = _codec_argument(way, req, words)
        if req.partial:
            head += ", when other conditions on the way to it also hold"
    elif req.partial:  # needed, not enough: said with "only", not "when other conditions
        # on the way to it also hold" (paired blind review, stop 38: vague, misleading)
        what = f"it passes {words}" if words is not None else f"{code(req.fires)} holds"
        head = f"It can come from a call of {call} only where {what}"
    elif words is not None:
        head = f"It comes from a call of {call} that passes {words}"
    else:
        head = f"It comes from a call of {call} whose arguments make {code(req.fires)} true"
    return head + ".", ["entryPoints", "site.guards"]


def _codec_argument(way: str, req: ParamRequirement, words: str | None) -> str:
    """The argument rule for a codec run by its name: ``str.encode`` and ``bytes.decode``
    pass ``errors`` on under that name, and the text or bytes as the method's ``input``,
    so only ``errors`` is said as passed; other conditions are the codec method's."""
    if words is not None and set(req.params) <= {"errors"}:
        return f"It comes from {way} with {words}"
    return f"It comes from {way}, where the codec's {code(req.call)} finds {code(req.fires)} true"


def _passed(g: Gathered, req: ParamRequirement) -> str | None:
    """The values that make the raise's condition true, per parameter ("`k` as a negative
    value"); None where the condition has no shape :mod:`.caller_words` words."""
    found = needs(req.requirement, frozenset(req.params))  # false requirement: it fires
    if found is None:
        return None
    how, items = found
    defaults = _defaults(g, req)
    parts = []
    for item in items:
        phrase = _PLAIN.get(item.phrase, item.phrase)
        left_out = item.param in defaults and phrase == f"`{defaults[item.param]!r}`"
        note = " (its default, as when it is left out)" if left_out else ""
        parts.append(f"{code(item.param)} as {phrase}{note}")
    if len(parts) == 1:
        return parts[0]
    return (" or " if how == "any" else " and ").join(parts)


def _defaults(g: Gathered, req: ParamRequirement) -> dict[str, object]:
    func = _entry_func(g, req.entry["qualname"])
    sig = signature_of(func.signature) if func is not None else None
    return dict(sig.defaults) if sig is not None else {}


def _docstring(g: Gathered) -> tuple[str, list[str]] | None:
    """A ``Raises`` entry's text: the docstring's own account of when."""
    for doc in [*g.raises_own, *g.raises_entry]:
        text = doc["text"].strip()
        if len(text) < 8 or " " not in text:
            continue
        owner = _owner(g, doc["path"], doc["line"])
        if owner is None or has_private(owner):
            continue
        return (
            f"The docstring of {code(owner)} says when it raises {code(doc['errorClass'])}: "
            f"{quote(text)}.",
            ["raisesDoc"],
        )
    return None


def _raised_if(g: Gathered) -> tuple[str, list[str]] | None:
    """The raising function's docstring sentence of when it raises
    (:func:`.hook_words.docstring_raises`), after the public calls that reach it; the
    message is not restated after it (the sentence already says when)."""
    found = docstring_raises(g)
    if found is None:
        return None
    owner, text = found
    calls = _calls(g)
    said = f"the docstring of {code(owner)} says: {quote(text)}."
    if calls and calls != f"a call of {code(owner)}":
        return f"It comes from {calls}; {said}", ["entryPoints", "function.docstring"]
    return said[0].upper() + said[1:], ["function.docstring"]


def _owner(g: Gathered, path: str, line: int) -> str | None:
    """The function whose docstring holds ``line``: the raising one or an entry point."""
    funcs = [g.func, *g.entry_funcs.values()] if g.func is not None else g.entry_funcs.values()
    for func in funcs:
        if func is not None and func.path == path and func.line <= line <= func.end_line:
            return call_name(func.qualname, func)
    return None


def _abstract(g: Gathered) -> tuple[str, list[str]] | None:
    """A method meant to be overridden: reached on the class itself or a subclass without
    an override; under ``@abstractmethod`` only through ``super()`` or a direct call (such
    a subclass cannot be instantiated under ``ABCMeta``)."""
    func = g.func
    if g.role is None or g.role.kind != "abstract" or func is None:
        return None
    base, method = short_name(g.role.subject), func.name
    if (
        has_private(base)
        or has_private(method)
        or any(d[-1:] == ("property",) for d in func.decorators)
    ):
        return None
    if abstract_trigger(g) is not None:
        text = (
            f"It comes from an override of {code(method)} that calls "
            f"{code(f'super().{method}()')}, or a direct call of {code(f'{base}.{method}()')}."
        )
    elif func.cls_abstract:  # the class itself cannot be instantiated under ABCMeta
        text = (
            f"It comes from calling {code(method + '()')} on an instance of a subclass of "
            f"{code(base)} that does not override {code(method)}."
        )
    else:
        text = (
            f"It comes from calling {code(method + '()')} on an instance of {code(base)}, or of "
            f"a subclass of it that does not override {code(method)}."
        )
    return text, ["site.role"]


def _message(g: Gathered) -> tuple[str | None, bool]:
    """The message as written where its fixed words say what happened, or what must hold
    (then True)."""
    said = stated_cause(g.site.template)
    said = fixed_words(g.site.template, said) if said is not None else None  # no raw holes
    if said is None:
        return None, False
    fixed = " ".join(g.site.template.literals)
    if _REQUIRED.search(fixed):
        return said, True
    return (said if _HAPPENED.search(fixed) else None), False


def _calls(g: Gathered) -> str:
    """The nearest public ways in: "a call of `a()` or `b()`"; a special method by the
    operator that runs it ("`x + ...` (`x` a `Decimal` object)"), not a call of
    `Decimal.__add__()` that nobody writes. Empty where there is none."""
    ways: list[tuple[str, bool]] = []  # the words, and whether they are a call's name
    programs: set[tuple[str, bool]] = set()
    converted: set[tuple[str, bool]] = set()
    for entry in g.entry_points:
        func = _entry_func(g, entry["qualname"])
        name = call_name(entry["qualname"], func)
        way = operator_way(g, func) or _property_way(func) or codec_way(g, func)
        said = (way, False) if way is not None else (code(name), True)
        other = _converted(g, entry)
        if other is not None:  # the record's class does not leave it: say what does
            said = (f"{way or 'a call of ' + code(name)} ({other})", False)
        if not has_private(name) and said not in ways:
            ways.append(said)
            if _program(func):
                programs.add(said)
            if other is not None:
                converted.add(said)
    # a caller that converts it is named only where none lets the class out (session 39:
    # "It comes from a call of `cli()`", which prints the ImportError and exits)
    ways = [w for w in ways if w not in converted] or ways
    # a program among the nearest gives way, but to no lower-ranked entry: one shown in
    # its place was often one whose own arguments rule the raise out (``TurtleScreen()``
    # passes "white" to ``bgcolor``; ``freeze_support()`` for runpy's relative-name check)
    shown = [w for w in ways[:_SHOWN] if w not in programs] or ways[:_SHOWN]
    if not shown:
        return ""
    if all(is_call for _, is_call in shown):
        return "a call of " + " or ".join(w for w, _ in shown)
    return " or ".join(f"a call of {w}" if is_call else w for w, is_call in shown)


def _converted(g: Gathered, entry: EntryPoint) -> str | None:
    """What a handler on the way does in place of letting the record's class out
    (``surfacesAs``), as the handler is written: not "instead" outright, which was false
    where a flag skips the handler (``ArgumentParser(exit_on_error=False)``). None where
    the record's class leaves as it is."""
    surfaces = str(entry.get("surfacesAs") or "")
    if not surfaces or short_name(surfaces) == g.site.error_class:
        return None
    where = str(entry.get("convertedIn") or "")
    who = (
        "whose handler"
        if where in ("", entry["qualname"])
        else f"a handler in {code(where.rpartition('.')[2] + '()')}"
    )
    name = short_name(surfaces)
    if name == "SystemExit":
        return f"{who} exits the program with `SystemExit` on it"
    if not name[:1].isupper():  # ``raise suffixed_err(...)``: a function builds it
        return f"{who} raises what {code(name + '()')} returns in its place"
    return f"{who} raises {code(name)} in its place"


def _own_way(g: Gathered) -> str | None:
    """How a caller runs the raising function itself, when its name is public: as
    :func:`_calls` says an entry point. None for a private or nested one."""
    func = g.func
    if func is None or "<locals>" in func.qualname or has_private(g.site.qualname):
        return None
    name = call_name(func.qualname, func)
    if has_private(name):
        return None
    way = operator_way(g, func) or _property_way(func) or codec_way(g, func)
    return way or f"a call of {code(name)}"


def _property_way(func: FuncFacts | None) -> str | None:
    """A property is read, not called: "a call of `Thread.ident()`" was false as written
    (paired blind review of stop 36: calling it raises "'property' object is not
    callable"); its setter is run by setting it, its deleter by ``del`` (``Thread.name``,
    ``Thread.daemon``: read-only review, session 38)."""
    if func is None or func.cls is None or func.name.startswith("_"):
        return None
    doing = None
    for d in func.decorators:
        if d[-1:] in (("property",), ("cached_property",)):
            doing = "reading"
        elif d == (func.name, "setter"):  # ``@name.setter``: ``x.name = value`` runs it
            doing = "setting"
        elif d == (func.name, "deleter"):
            doing = "deleting"
    if doing is None:
        return None
    cls = short_name(func.cls)
    return f"{doing} {code(f'x.{func.name}')} (`x` {article(cls)} {code(cls)} object)"


def _entry_func(g: Gathered, qualname: str) -> FuncFacts | None:
    func = g.entry_funcs.get(qualname)
    if func is None and g.func is not None and g.func.qualname == qualname:
        func = g.func
    return func


#: Module-level functions that are a program or a demo, not a library call, by name.
_PROGRAMS = frozenset({"main", "test", "_test", "demo"})


def _program(func: FuncFacts | None) -> bool:
    """A module's ``main()``/``test()`` or a function only a script's ``__main__`` block
    defines: named only where no library call reaches the raise. A library call that
    reads ``sys.argv`` by default (``FancyGetopt.getopt``, ``freeze_support``) stays. "a call of `basicConfig()` or
    `main()`" pointed at lib2to3's ``main``, whose own arguments rule the raise out
    (paired blind review of stop 36)."""
    if func is None:
        return False
    return func.script_only or (func.cls is None and func.name in _PROGRAMS)


def _caught(g: Gathered) -> tuple[str, list[str]] | None:
    if not g.caught_by or g.entry_points or g.func is None:
        return None
    catchers = ", ".join(f"{code(c['qualname'])} (line {c['line']})" for c in g.caught_by[:2])
    own = code(call_name(g.func.qualname, g.func))
    return (
        f"Only code that calls {own} itself meets it: the library's callers of it that "
        f"errdex traced catch it ({catchers}).",
        ["caughtBy"],
    )


def _entry(g: Gathered) -> tuple[str, list[str]] | None:
    calls = _calls(g)
    if not calls:
        return None
    return f"It comes from {calls}.", ["entryPoints"]
