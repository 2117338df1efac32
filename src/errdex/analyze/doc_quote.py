"""Which part of the raising function's docstring ``documentation`` quotes.

The first line alone missed the part that explains the error ("Return the exception that
was set on this future" where the same docstring says "If the future has been cancelled,
raises CancelledError"), a summary ran on into a doctest ("read_long4 documented as '>>>
import io >>> read_long4(...'"), a sentence was cut at "(cf." and a private helper's
"Create a file in the tmp subdirectory" told the reader nothing (blind review
2026-12-06). So: a sentence that names the raised class (or, for a deprecation, says
"deprecated") is quoted first, then one that names a parameter the conditions test, and
only then the summary; doctest lines are never quoted, sentences end only outside
parentheses, and a private function's docstring is quoted only for such a sentence.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Collection

from .docstrings import cleaned, says_only_the_name
from .docstrings import words as _split_words
from .facts import within_module
from .gathered import Gathered
from .guards import CONDITION_KINDS, code, free_names
from .quoting import QUOTE_LIMIT
from .quoting import quote as _quote

__all__ = ["docstring_quote", "docstring_sentence", "split_sentences"]

#: A sentence ends at ``.``, ``!`` or ``?`` followed by space and a capital, a quote or
#: a parenthesis (a dotted name or "e.g. x" does not end one).
_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`'\"(])")
#: A section header (``Parameters``, ``Raises:``) or an underline: not prose.
_HEADER = re.compile(r"^(?:[A-Z][A-Za-z ]{0,30}:|-{3,}|={3,})$")
#: An underline under a numpy-style header (``Returns`` then ``-------``).
_UNDERLINE = re.compile(r"^(?:-{3,}|={3,}|~{3,})$")
#: A list item's start ("- r for reading", "* x", "1. y").
_BULLET = re.compile(r"^(?:[-*+•]|\d{1,2}[.)])\s+\S")
#: A sentence that leads into what follows: a colon, or a bare word with no stop
#: ("For example" before a doctest, "Valid modes are" before a list); "…call
#: Logger.__init__()" or "(Internal)" with no stop still ends as a sentence.
_LEADS_ON = re.compile(r"(?::|[A-Za-z]{2,})$")
#: Fewer words than this is a marker ("**DEPRECATED**"), not a summary.
_SHORT = 3


def docstring_quote(
    docstring: str | None,
    *,
    error_class: str | None,
    tested: Collection[str],
    name: str,
    cls: str,
    private: bool,
    context: Collection[str] | None = None,
) -> str | None:
    """The docstring text to quote for a raise of ``error_class`` whose conditions test
    the parameters ``tested``, in function ``name`` (of class ``cls``); ``private``: a
    helper no caller names, whose summary is no help; ``context``: words of the raise's
    message and conditions, of which a sentence naming the class must share one (a
    sentence about another raise of the class, through a helper, is not this one's).
    None when nothing fits."""
    kept = cleaned(docstring)  # what the evidence holds: nothing beyond it is quoted
    if kept is not None and kept.endswith("…"):
        # whole paragraphs only: the cut one may end mid-sentence
        docstring = kept[: kept.rfind("\n\n")] if "\n\n" in kept else None
    sentences = _sentences(docstring)
    if not sentences:
        return None
    first = _summary(docstring)
    told = not first or says_only_the_name(" ".join(first), name, cls)
    lead = [] if private or told else first[:1]
    # a sentence longer than a quote would be cut (a run-on ``Args:`` list): not chosen
    sentences = [x for x in sentences if len(x) <= QUOTE_LIMIT]
    for sentence in sentences:
        if (
            error_class
            and _names_class(sentence, error_class)
            and _about(sentence, context, error_class, name)
        ):
            return _with_lead(lead, sentence, first, _run(docstring, sentence, error_class))
    for sentence in sentences:
        if any(re.search(rf"(?<![\w.]){re.escape(p)}(?!\w)", sentence) for p in tested):
            return _with_lead(lead, sentence, first, _run(docstring, sentence, error_class))
    if private or told:
        return None
    return _fit([*first, *_run(docstring, first[-1], error_class)])


def _with_lead(lead: list[str], sentence: str, first: list[str], run: list[str]) -> str:
    """The summary's first sentence, then the one that matters ("…" between them where
    the docstring has more), or the summary alone where it holds that sentence; then
    the ``run`` of its paragraph after it: "Unregister an extension code." cut "For
    testing only." (paired blind review, stop 36)."""
    if sentence in first:
        upto = first[: first.index(sentence) + 1] if lead else [sentence]
        return _fit([*upto, *run])
    if not lead:
        return _fit([sentence, *run])
    return _fit([lead[0], "… " + sentence, *run])


def _run(docstring: str | None, sentence: str, error_class: str | None) -> list[str]:
    """The sentences after ``sentence`` up to its paragraph's end, stopping before one
    that names another error class (the next raise's sentence is not this one's) or
    does not end as a sentence does ("For example:", "For example" before a doctest,
    "Valid modes are" before a list: each leads into what is not quoted)."""
    for para in _paragraphs(docstring):
        found = split_sentences(" ".join(para))
        if sentence in found:
            out: list[str] = []
            for after in found[found.index(sentence) + 1 :]:
                named = set(_ERROR_NAME.findall(after))
                if named - {(error_class or "").rpartition(".")[2]} or _LEADS_ON.search(after):
                    break  # another raise's sentence, or one leading into an example or list
                out.append(after)
            return out
    return []


#: A word that names an error class ("InvalidStateError", "KeyError").
_ERROR_NAME = re.compile(r"\b[A-Z]\w*(?:Error|Exception|Warning)\b")


def docstring_sentence(g: Gathered) -> str | None:
    """The raising function's docstring, where it says something of this error or is the
    words a reader looks up: a sentence naming the class (unless its ``Raises`` entry is
    quoted already) or a tested parameter, else a public function's summary. A private
    helper's summary ("Create a file in the tmp subdirectory") and a special method's that
    only restates its names are left out (blind review 2026-12-06)."""
    func = g.func
    if func is None:
        return None
    params = {p.lstrip("*") for p in func.params} - {"self", "cls"}
    tested: set[str] = set()
    for guard in g.site.guards:
        if guard["kind"] in CONDITION_KINDS:
            tested |= (free_names(str(guard["text"])) or set()) & params
    # ``_collections_abc.Iterator`` is public under another module's name: the function
    # and its class decide, not the module
    inner = within_module(func.qualname, func.module).split(".")
    private = any(p.startswith("<") or (p.startswith("_") and not p.endswith("__")) for p in inner)
    # a parameter's name ties a sentence to no raise: create_autospec's "spec" is in its
    # misspelling sentence and in the async raise's condition alike
    said = " ".join([*g.site.template.literals, *(str(x["text"]) for x in g.site.guards)])
    context = words(said) - words(" ".join(func.params))
    text = docstring_quote(
        func.docstring,
        error_class=None if g.raises_own else g.site.error_class,
        tested=sorted(tested),
        name=func.name,
        cls=func.cls or "",
        private=private,
        context=context,
    )
    if not text:
        return None
    if func.name.startswith("__") and says_only_the_name(text, func.name, func.cls or ""):
        return None
    return f"{code(func.name)} is documented as: {_quote(text)}."


#: Words that tie a sentence to no raise in particular.
_COMMON = frozenset(
    [
        "the",
        "and",
        "for",
        "with",
        "that",
        "this",
        "when",
        "raise",
        "raises",
        "raised",
        "error",
        "exception",
        "if",
        "not",
        "is",
        "are",
        "be",
        "was",
        "were",
        "will",
        "from",
        "into",
        "any",
        "all",
        "its",
        "it",
        "an",
        "a",
        "of",
        "to",
        "in",
        "on",
        "or",
        "by",
        "as",
    ]
)


def words(text: str) -> set[str]:
    """The words of ``text`` that may tie a sentence to one raise."""
    return _split_words(text) - _COMMON


def _about(sentence: str, context: Collection[str] | None, error_class: str, name: str) -> bool:
    if context is None:
        return True
    last = error_class.rpartition(".")[2]
    own = words(re.sub(rf"(?<!\w){re.escape(last)}(?!\w)", " ", sentence)) - words(name)
    return bool(own & set(context))


def _names_class(sentence: str, error_class: str) -> bool:
    last = error_class.rpartition(".")[2]
    if re.search(rf"(?<!\w){re.escape(last)}(?!\w)", sentence):
        return True
    return last.endswith("DeprecationWarning") and "deprecat" in sentence.lower()


def _paragraphs(docstring: str | None) -> list[list[str]]:
    """Prose paragraphs: no doctest (``>>>`` and the output after it), list, section
    header (a numpy ``Returns`` over its underline too) or reST directive."""
    if not docstring:
        return []
    out: list[list[str]] = []
    para: list[str] = []
    in_example = False
    lines = inspect.cleandoc(docstring).splitlines()
    for i, line in enumerate(lines):
        text = line.strip()
        if text.startswith(">>>") or _BULLET.match(text):
            in_example = True  # a doctest or a list runs to the blank line after it
        if not text:
            in_example = False
        below = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if (
            not text
            or in_example
            or text.startswith(".. ")
            or _HEADER.match(text)
            or (_UNDERLINE.match(below) and not _UNDERLINE.match(text))
        ):
            if para:
                out.append(para)
                para = []
            continue
        para.append(text)
    if para:
        out.append(para)
    return out


def split_sentences(text: str) -> list[str]:
    """Sentences, never ending inside parentheses ("(cf. RFC 3977, section 8.4)")."""
    parts: list[str] = []
    for piece in _END.split(text):
        if parts and parts[-1].count("(") > parts[-1].count(")"):
            parts[-1] += " " + piece
        else:
            parts.append(piece)
    return parts


def _sentences(docstring: str | None) -> list[str]:
    return [s for para in _paragraphs(docstring) for s in split_sentences(" ".join(para))]


def _summary(docstring: str | None) -> list[str]:
    """The first two sentences of the first paragraph; a marker alone is followed by the
    next paragraph's first sentence."""
    paras = _paragraphs(docstring)
    if not paras:
        return []
    first = split_sentences(" ".join(paras[0]))[:2]
    if len(first) == 2 and _LEADS_ON.search(first[1]):
        first = first[:1]  # "Arguments:" over a list that is not quoted
    if len(" ".join(first).split()) < _SHORT and len(paras) > 1:
        first.append(split_sentences(" ".join(paras[1]))[0])
    return first


def _fit(sentences: list[str]) -> str:
    """As many whole sentences as fit the quote (the first one always)."""
    kept = [sentences[0]]
    for sentence in sentences[1:]:
        if len(" ".join([*kept, sentence])) > QUOTE_LIMIT:
            break
        kept.append(sentence)
    return " ".join(kept)
