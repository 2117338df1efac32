"""What a public function's docstring says a parameter is, for the parameter its check reads.

``shutil.register_archive_format`` checks ``isinstance(extra_args, (tuple, list))`` and
its docstring says "extra_args is a sequence of (name, value) tuples": quoting that
sentence tells the caller what to pass, where errdex has no requirement in the caller's
terms (``extra_args`` is bound again before the check, so no entry point passes it on
unchanged). A sentence is quoted only for a parameter the innermost condition reads
(or the one a loop on the way iterates, whose item that condition reads), from the
docstring of the raising function when a caller calls it (an entry point at depth 0),
or of an entry point that passes that parameter on unchanged; and only a sentence that
says what the parameter is or must be, not what happens if it is something.
"""

from __future__ import annotations

import ast
import inspect
import re

from .chain_funcs import own_params
from .facts import FuncFacts
from .gathered import Gathered
from .guards import code, free_names
from .param_requirement import call_name, innermost_condition
from .quoting import quote

__all__ = ["doc_requirements", "guarded_params", "said_of"]

#: A sentence ends at a full stop, whatever follows ("... the callable. description can
#: be ..." starts with a parameter's name), but not at "e.g." or "i.e.".
_SENTENCE = re.compile(r"(?<!e\.g\.)(?<!i\.e\.)(?<=[.!?])\s+")
#: A description of a value: a requirement word or a kind of value.
_WHAT = re.compile(
    r"\b(?:must|should|either|one of|sequence|mapping|list|tuple|dict|dictionary|str|"
    r"string|bytes|int|integer|float|number|callable|iterable|instance|object|path|file|"
    r"boolean|bool|positive|negative|non-negative|non-empty)s?\b",
    re.IGNORECASE,
)
#: Marks a docstring puts around a parameter's name: ```fields```, ``'fields'``
#: (``dataclasses.make_dataclass``: "'fields' is an iterable of either ...").
_QUOTES = r"[`'\"]*"
#: A conditional: "If the query arg is a sequence ..., the order ..." says what happens.
_CONDITIONAL = re.compile(r"\b(?:if|when|unless|whether|while)\s+(?:the\s+)?$", re.IGNORECASE)


def guarded_params(g: Gathered, func: FuncFacts) -> list[str]:
    """The parameters of ``func`` the innermost condition reads, directly or through the
    item of a ``for`` loop on the way (``for element in extra_args``), in order, the
    directly read ones first."""
    guard = innermost_condition(g)
    names = free_names(str(guard["text"])) if guard is not None else None
    if not names:
        return []
    direct, read = set(names), set(names)
    for loop in g.site.guards:
        if loop["kind"] != "for":
            continue
        targets, source = _loop(str(loop["text"]))
        if targets & read:
            read |= source
    params = own_params(func)
    # those the condition reads itself first: ``byte_compile`` raises when ``file[:len(
    # prefix)] != prefix`` for each ``file`` in ``py_files``; what ``prefix`` is says more
    # of it than what ``py_files`` is
    return [p for p in params if p in direct] + [p for p in params if p in read - direct]


def _loop(text: str) -> tuple[set[str], set[str]]:
    """(names a ``for`` header binds, names its iterable reads)."""
    try:
        node = ast.parse(f"{text}:\n    pass").body[0]
    except SyntaxError:
        return set(), set()
    if not isinstance(node, ast.For):
        return set(), set()
    bound = {n.id for n in ast.walk(node.target) if isinstance(n, ast.Name)}
    read = {n.id for n in ast.walk(node.iter) if isinstance(n, ast.Name)}
    return bound, read


def said_of(docstring: str | None, param: str) -> str | None:
    """The first sentence of ``docstring`` that says what ``param`` is or must be: it
    names the parameter as the subject of the sentence or of a clause ("If provided,
    extra_args is a sequence of ...", "The query arg must be ..."), not in a condition
    ("If the query arg is a sequence ..."), and describes a value."""
    if not docstring:
        return None
    text = " ".join(inspect.cleandoc(docstring).split())
    subject = re.compile(
        rf"(?:^|(?<=[,;:]\s))(?:the\s+)?{_QUOTES}{re.escape(param)}{_QUOTES}"
        r"(?:\s+(?:arg|argument|parameter))?"
        r"\s+(?:is|are|must|should|may be|can be|needs to be|has to be)\b",
        re.IGNORECASE,
    )
    for sentence in _SENTENCE.split(text):
        found = subject.search(sentence)
        if found is None or _CONDITIONAL.search(sentence[: found.start()]):
            continue
        if _WHAT.search(sentence[found.end() :].partition(";")[0]):  # of this clause
            return sentence
    return None


def doc_requirements(g: Gathered) -> list[tuple[str, list[str]]]:
    """Solutions quoting what a public docstring says of a parameter the check reads."""
    func = g.func
    if func is None or g.site.kind == "warn":  # a warning's fix is what its message names
        return []
    out: list[tuple[str, list[str]]] = []
    for entry in g.entry_points:
        entry_func = g.entry_funcs.get(entry["qualname"])
        if entry.get("depth", 0) == 0:
            entry_func = entry_func or func
            names = {p: p for p in guarded_params(g, func)}
        else:
            passes = entry.get("passes") or {}
            names = {passes[p]: p for p in guarded_params(g, func) if p in passes}
        if entry_func is None or not names:
            continue
        call = call_name(entry["qualname"], entry_func)
        for param in names:
            sentence = said_of(entry_func.docstring, param)
            if sentence is not None:
                out.append(
                    (
                        f"The docstring of {code(call)} says of {code(param)}: {quote(sentence)}.",
                        ["entryPoints", "site.guards"],
                    )
                )
        if out:
            break  # the nearest entry point that says it
    return out
