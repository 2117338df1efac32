"""Compiled code under a Python traceback: which of two twins runs, and what C raised.

Two questions a paste's text alone leaves open, answered from the catalogue:

* **Below a Python line.** A traceback whose innermost frame is a Python line calling
  into C ends there: the C site prints no frame. Python sites near that line whose
  template is one value (``raise JSONDecodeError(errmsg(msg, doc, pos))``) fit any
  message in full, and would keep the C site's text from being read at all. When every
  site that fits so says nothing the message says, the compiled sites whose text starts
  the message (the exception class adds its own after it) are tried too; the ranker then
  weighs them as code below the Python line (:func:`lift_compiled`).
* **Shadowed twins.** A Python definition that its own module replaces by the compiled
  one when that imports (``FrozenList = CFrozenList``, read by
  :mod:`errdex.analyze.shadows`), or a Python module its package imports only in place
  of a compiled one (multidict's ``_multidict_py``: :mod:`errdex.analyze.package_twins`),
  (both in ``evidence.shadowedBy``, which the match index carries:
  :meth:`MatchIndex.shadowed_by`) raises the same message as the compiled site,
  and the message cannot tell them apart. The catalogue can: when it holds the compiled
  module's own source, and that source fits the message, the Python line is the fallback
  that runs only where the import fails. It is ranked below the compiled site, with a
  reason saying so. When no catalogued site of that module fits, the Python line keeps
  its rank and its reasons say that the compiled module replaces it. Nothing is guessed:
  without ``shadowedBy`` naming the compiled module, both stay tied.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from errdex.match import index_groups
from errdex.match.index import MatchIndex

if TYPE_CHECKING:
    from errdex.match.rank import Clue, Scored

__all__ = [
    "BELOW_PYTHON",
    "CALLED_BONUS",
    "FRAMELESS",
    "below_python",
    "lift_compiled",
    "prefer_live",
    "undecided_below",
]

#: The languages whose sites are compiled into an extension module.
COMPILED = frozenset({"c", "cpp", "cython"})
#: Frameless among them: a C/C++ site prints no frame; a Cython one prints its ``.pyx`` line.
FRAMELESS = frozenset({"c", "cpp"})
#: What a shadowed twin keeps of its score and confidence: below any tie with the live site.
SHADOWED = 0.5
#: What the innermost Python frame lends a C/C++ site whose message fits: a Python twin
#: raising the same message would be that frame itself, a C site has no frame of its own.
BELOW_PYTHON = 0.65
#: Added when that frame's line calls a name the C function's name ends with.
CALLED_BONUS = 0.1


def _language(path: str) -> str | None:
    from errdex.extract.registry import extractor_for

    extractor = extractor_for(path)
    return extractor.language if extractor is not None else None


def _compiled(path: str) -> bool:
    """A site in compiled code (a ``.py`` file, most of any catalogue, is decided without
    loading the registry: a message-only paste of a Python catalogue never needs it)."""
    return not path.endswith(".py") and _language(path) in COMPILED


def _says_nothing(index: MatchIndex, i: int) -> bool:
    """A template that is holes only: it fits any message and names none of its text."""
    runs = index.runs(i)
    return runs is not None and not any(runs)


def below_python(
    clue: Clue,
    index: MatchIndex,
    found: Mapping[int, Scored],
    candidates: Iterable[int],
    partial: Callable[[list[int]], None],
) -> None:
    """Try the compiled sites whose text starts the message, when the innermost frame is
    Python code and the only sites fitting in full are one-value templates (see above).
    ``partial``: the ranker's match of a template against the start of the message."""
    if not clue.message or clue.truncated or not clue.frames or clue.frames[-1][1] is None:
        return
    if _language(clue.frames[-1][0]) in COMPILED:
        return
    if any(s.innermost for s in found.values()):
        return  # the traceback shows a raise line: no call into C to look below
    fitting = [i for i, s in found.items() if s.full_match]
    if not fitting or not all(_says_nothing(index, i) for i in fitting):
        return
    compiled = [
        i
        for i in candidates
        if i not in found
        and not (path := index.entry(i).file_path).endswith(".py")
        and _language(path) in FRAMELESS
    ]
    if compiled:
        partial(compiled)


def undecided_below(
    clue: Clue, index: MatchIndex, found: Mapping[int, Scored], get: Callable[[int], Scored]
) -> None:
    """A builtin class's one-value message (``KeyError: 'b'``) under a Python line that
    calls something (``md.getone("b")``) and raises nothing catalogued: no Python site
    printed a frame, so the compiled one-value sites of the class are left open, undecided
    as for a frameless paste (the line's own lookups may have raised it too)."""
    from errdex.match.rank_lone import undecided_group

    if not clue.calls or not clue.frames or clue.frames[-1][1] is None:
        return
    if _language(clue.frames[-1][0]) in COMPILED or any(s.innermost for s in found.values()):
        return
    undecided_group(clue, index, get, found, frameless=_frameless)


def _frameless(path: str) -> bool:
    """A site in code that prints no frame (only when a Python frame is innermost: a
    message-only paste never loads the registry)."""
    return _language(path) in FRAMELESS


def lift_compiled(clue: Clue, index: MatchIndex, found: Mapping[int, Scored]) -> None:
    """A traceback whose innermost frame is Python code that called into C or C++: the
    compiled sites whose message fits are consistent with it, a Python site that the
    innermost frame is not is not (it would have printed its own frame:
    :func:`errdex.match.rank_frames.rule_out_by_innermost`)."""
    if not clue.frames or clue.frames[-1][1] is None or _frameless(clue.frames[-1][0]):
        return
    from errdex.match.native_called import known_functions

    by_call = [i for i in found if index.raised_by_call(i)]
    known = known_functions(index, by_call) if by_call and clue.calls else frozenset()
    for i, s in found.items():
        entry = index.entry(i)
        if not (s.full_match and not s.innermost and _frameless(entry.file_path)):
            _lift_called_cython(clue, index, i, s, known)
            continue
        if s.undecided:
            continue  # the line's own lookups may have raised it: it stays undecided
        called = next((c for c in clue.calls if _calls_into(c, entry.function)), None)
        strength = BELOW_PYTHON + (CALLED_BONUS if called else 0.0)
        if strength > s.frame:
            s.frame = strength
            s.reasons.append(
                "the innermost frame is Python code calling compiled code, "
                "and this site raises in C/C++ with no frame of its own"
            )
            if called:
                s.reasons.append(
                    f"the innermost line calls {called}(), and this site is in {entry.function}()"
                )


def _lift_called_cython(
    clue: Clue, index: MatchIndex, i: int, s: Scored, known: frozenset[str]
) -> None:
    """A site of Cython's generated argument parsing (``Argument 'parser' has incorrect
    type``, :mod:`errdex.extract.cython.arguments`) that fits in full under a Python
    innermost line: it raises before its function prints a frame, so it is the function
    that line calls (``etree.XML(…, parser=1)`` -> ``def XML``; ``XMLParser(bogus=1)`` ->
    its ``__init__``), not another function whose signature raises the same words; those
    are ruled out as a Python site the innermost frame is not, when every name the line
    calls is known not to reach them (``known``: the functions catalogued in the files of
    the sites of this kind the message found; :mod:`.native_called`)."""
    if not (s.full_match and not s.innermost and clue.whole and clue.calls):
        return
    if s.undecided or not index.raised_by_call(i):
        return
    from errdex.match.native_called import Reach, reach

    function = index.entry(i).function or ""
    found = reach(function, clue.calls, known)
    if found == Reach.CALLED:
        strength = BELOW_PYTHON + CALLED_BONUS
        if strength > s.frame:
            s.frame = strength
            s.reasons.append(
                f"the innermost line calls {_shown(function, clue.calls)}, and this site is "
                "the argument parsing of that function, which raises before it prints a frame"
            )
        return
    if found == Reach.UNKNOWN:
        return
    from errdex.match.rank_frames import RULED_OUT

    s.message *= RULED_OUT
    s.ruled_out = True
    s.reasons.append(
        f"the innermost line calls {', '.join(c + '()' for c in clue.calls)}, and this "
        f"site is the argument parsing of {function}(), which that line does not call"
    )


def _shown(function: str, calls: tuple[str, ...]) -> str:
    """``XML()``, or ``XMLParser() (its __init__())`` for a construction."""
    if function in calls:
        return f"{function}()"
    called = next((c for c in calls if c[:1].isupper()), "")
    return f"{called}() (its {function}())"


def _calls_into(called: str, function: str | None) -> bool:
    """Whether a C function is likely the one a Python call reaches (``dump`` ->
    ``ujson_dump``, ``scanstring`` -> ``py_scanstring``): its name, or its last word; or
    the function it names first (``dumps`` -> ``dumps_internal``; a type called,
    ``Decoder(…)``, -> its ``decoder_new``/``decoder_init``, as C API modules name them)."""
    if not function or len(called) < 3:
        return False
    name, function = called.lower(), function.lower()
    return function == name or function.endswith("_" + name) or function.startswith(name + "_")


def _module_of(path: str) -> str:
    """``frozenlist/_frozenlist.pyx`` -> ``frozenlist._frozenlist``."""
    stem = path.rsplit("/", 1)[-1].split(".", 1)[0]
    return ".".join([*path.split("/")[:-1], stem])


#: Files a compiled module's source includes (``#include "_multilib/hashtable.h"``,
#: Cython's ``include "apihelpers.pxi"``): they build no module of their own.
_INCLUDED = (".h", ".hh", ".hpp", ".hxx", ".pxi")
#: Folders a repository keeps its packages under (dotted, with the dot after).
_SOURCE_ROOTS = ("", "src.", "lib.", "python.")
#: Folders whose headers build no module of the package.
_NOT_SOURCE = frozenset({"tests", "test", "testing", "bench", "benchmarks", "examples", "docs"})


def _builds(index: MatchIndex, i: int, module: str) -> bool:
    """Whether entry ``i``'s file is compiled into ``module``: a module its record says
    the file builds into (an included ``.pyx``, a header read with the files including it:
    a sibling extension's header is not this module's), else as its path says
    (:func:`_is_module`)."""
    into = index.compiled_into(i)
    if into:
        return any(m == module or m.endswith("." + module) for m in into)
    return _is_module(index.entry(i).file_path, module)


def _is_module(path: str, module: str) -> bool:
    """Whether the file at ``path`` is the source of ``module`` (a repository may keep its
    packages under ``src/`` or ``lib/``, and a C file is named by the module it builds),
    or a header in that module's package directory or a folder of it (multidict's
    ``_multilib/*.h`` beside ``_multidict.c``), at the repository's top or under a source
    folder: not one under ``tests/`` nor in another package named alike."""
    dotted = _module_of(path)
    if dotted == module or dotted.endswith("." + module):
        return True
    package = module.rpartition(".")[0]
    if not package or not path.endswith(_INCLUDED):
        return False
    folder = dotted.rpartition(".")[0]
    for root in _SOURCE_ROOTS:
        inside = folder[len(root) :] if folder.startswith(root) else ""
        if inside == package or inside.startswith(package + "."):
            return not set(inside.split(".")) & _NOT_SOURCE
    return False


def prefer_live(index: MatchIndex, best: Mapping[int, Scored]) -> None:
    """Rank a Python twin its own module replaces below the compiled site it is replaced
    by, when that compiled source is catalogued and fits the message too; else say that
    the compiled module replaces it."""
    fitting = [s for s in best.values() if index_groups.fits_by_message(s)]
    shadowed = [(s, m) for s in fitting if (m := index.shadowed_by(s.index)) is not None]
    if not shadowed:
        return
    live = [s for s in fitting if _compiled(index.entry(s.index).file_path)]
    for s, module in shadowed:
        entry = index.entry(s.index)
        twin = next(
            (
                c
                for c in live
                if index.entry(c.index).repo == entry.repo
                and _builds(index, c.index, module)
                and c.score >= s.score * SHADOWED
            ),
            None,
        )
        if twin is None:
            s.reasons.append(
                f"the library replaces the definition with the one of {module} when that "
                "imports: this line runs only where that import fails, and no catalogued "
                f"site of {module} fits the message"
            )
            continue
        where = index.entry(twin.index)
        s.score *= SHADOWED
        s.confidence *= SHADOWED
        s.reasons.append(
            f"the library replaces the definition with the one of {module} when that "
            f"imports, and {where.file_path} (compiled) is catalogued and fits too: "
            "this line runs only where that import fails"
        )
        twin.reasons.append(
            f"the Python twin at {entry.file_path}:{entry.line} is replaced by this "
            f"compiled module ({module}) when it imports"
        )
