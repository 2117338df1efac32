"""What a caught exception means, in the words of its class's docstring.

"Triggered after `DistutilsExecError` was caught" was judged misleading in the paired
blind review of stop 35: true, but it did not say what that means (the compiler command
failed). The repository's own class says it: ``DistutilsExecError``'s docstring is "Any
problems executing an external program (such as the C compiler, when compiling C
files)." Only a class the repository defines is quoted: a builtin's docstring
("Inappropriate argument value (of correct type).") says no more than its name.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from errdex.evidence import GuardItem

from .docstrings import cleaned
from .guards import code
from .quoting import quote
from .repo import RepoIndex

__all__ = ["caught_docs", "with_caught_meaning"]

#: A docstring sentence longer than this is not quoted.
_LONGEST = 160
#: A dotted class name as an ``except`` clause writes it.
_NAME = re.compile(r"^[A-Za-z_][\w.]*$")
#: The first sentence of a docstring: a stop before a capital or the end ("-- ie. the
#: command line" goes on).
_SENTENCE = re.compile(r"^(.+?[.!?])(?=\s+[A-Z(`'\"]|\s*$)", re.DOTALL)


def caught_docs(index: RepoIndex, module: str, guards: Sequence[GuardItem]) -> dict[str, str]:
    """By the class as the ``except`` writes it, the first sentence of its docstring, for
    the repository classes the handlers around the site catch one at a time."""
    found: dict[str, str] = {}
    for guard in guards:
        if guard["kind"] != "except":
            continue
        name = guard["text"].partition(" was raised")[0].strip()
        if not _NAME.match(name) or name in found:
            continue
        target = index.resolve(module, tuple(name.split(".")))
        if target is None or target.kind != "class":
            continue
        facts = index.classes.get(target.qualname)
        text = " ".join((cleaned(facts.docstring) or "").split()) if facts is not None else ""
        first = _SENTENCE.match(text)
        sentence = first.group(1) if first else text
        if sentence and len(sentence) <= _LONGEST:
            found[name] = sentence
    return found


def with_caught_meaning(sentence: str, docs: Mapping[str, str]) -> str:
    """``sentence`` with each caught class it names followed by its docstring's words,
    once: "after `self.spawn(...)` raised `DistutilsExecError` (its docstring: “Any
    problems executing an external program…”)"."""
    for name, doc in docs.items():
        said = code(name)
        for form in (f"raised {said}", f"{said} was caught", f"raises {said}"):
            at = sentence.find(form)
            if at >= 0:
                end = at + len(form)
                sentence = f"{sentence[:end]} (its docstring: {quote(doc)}){sentence[end:]}"
                break
    return sentence
