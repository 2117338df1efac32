"""What a package's text shows about attributes, read once per file and process: which
attribute names are stored (``x.name = …``, ``setattr(x, "name", …)``), which classes
derive from which names, and which names are defined at some indentation (a method, a
class body's assignment).

Read as text, not parsed: a package of 1,500 files costs a regular expression per file,
and what the text only seems to show (a ``.name`` left of a slice assignment, a class
named like another) costs a hole in a template, never a false text (:mod:`.settled`).
Every file is noted as read for its facts (:mod:`.read_views`), so a cached scan reads
the raising file again when the facts of one of them change, not on any edit.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from errdex.extract._downgrade import parse_any

from . import read_views, text_store
from .module import ModuleReader
from .package_calls import _package_texts
from .package_folder import note_package, package_of
from .project import current_project
from .text_store import FileFacts

__all__ = [
    "PackageFacts",
    "body_names",
    "count_stores",
    "file_facts",
    "named_elsewhere",
    "note_all",
    "note_whole",
    "package_facts",
]

#: ``setattr(obj, "name", value)`` / ``object.__setattr__(self, "name", value)``.
_SETATTR = re.compile(r"setattr\(\s*[^,()]+,\s*[rbu]?(['\"])([A-Za-z_]\w*)\1")
#: ``.name`` in an assignment's target text.
_DOTTED = re.compile(r"\.\s*([A-Za-z_]\w*)")
#: Characters before ``=`` that make an augmented assignment (``<`` and ``>`` doubled).
_AUGMENTED = frozenset("+-*/%&|^@<>")
_OPEN, _CLOSE = "([{", ")]}"
#: A line with a ``.name`` somewhere before an ``=`` that compares nothing: the only
#: lines whose assignment targets may hold one (the others are not read further).
_CANDIDATE = re.compile(r"\.[ \t]*[A-Za-z_].*?(?:(?<![=!<>])|(?<=<<)|(?<=>>))=(?!=)")
#: An ``=`` that assigns (augmented or not), and what makes a line's head need a walk.
_ASSIGN = re.compile(r"(?:(?<![=!<>])|(?<=<<)|(?<=>>))=(?!=)")
_TRICKY = re.compile(r"[(\[{'\"#]")
#: What :func:`_targets` stops at: a quote, a bracket, a comment, a run of ``=``.
_TOKEN = re.compile(r"[\"'()\[\]{}#]|=+")
_CLOSING = {q: re.compile(rf"(?:[^{q}\\]|\\.)*{q}") for q in "'\""}
#: A name defined at some indentation: a method, or an assignment in a body.
_DEFINES = re.compile(
    r"^[ \t]+(?:(?:async[ \t]+)?def[ \t]+([A-Za-z_]\w*)"
    r"|([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?=(?!=))",
    re.MULTILINE,
)
#: A top-level class statement and the text of its bases.
_CLASS = re.compile(r"^class[ \t]+([A-Za-z_]\w*)[ \t]*(?:\(([^)]*)\))?", re.MULTILINE)
_IDENT = re.compile(r"[A-Za-z_]\w*")
MAX_FILES = 20_000


@dataclass
class PackageFacts:
    """The package's files and texts, and what they show."""

    texts: dict[str, str]
    #: Attribute names stored, with how often.
    stores: Counter[str] = field(default_factory=Counter)
    #: Each name defined at some indentation: the files that do.
    defined: dict[str, list[str]] = field(default_factory=dict)
    #: Each name a top-level class's bases mention: the classes (by name) that do.
    derived: dict[str, set[str]] = field(default_factory=dict)
    #: Each file's top-level classes, by name.
    classes: dict[str, set[str]] = field(default_factory=dict)
    #: Each top-level class's plain ``self.name`` stores (:mod:`.self_stores`), read
    #: on demand by :func:`.settled.settled_name`.
    own_stores: dict[str, Counter[str]] | None = None
    #: Answers of :func:`.settled.overridden_below`, kept with the facts they read and
    #: the files they read whole (noted again for each file the answer serves).
    answers: dict[tuple[str, str, bool], tuple[bool, tuple[str, ...]]] = field(default_factory=dict)

    def below(self, name: str) -> set[str]:
        """The classes whose bases lead, by name, to ``name`` (more than derive from it
        where two classes share a name: never fewer)."""
        found: set[str] = set()
        todo = [name]
        while todo:
            for sub in self.derived.get(todo.pop(), ()):
                if sub not in found:
                    found.add(sub)
                    todo.append(sub)
        return found


_Key = tuple[str, int, int]
#: One file's facts, by (path, length, hash of text).
_FILES: dict[_Key, FileFacts] = {}
#: A package's facts, by its files' keys.
_PACKAGES: dict[tuple[_Key, ...], PackageFacts] = {}
#: Each file's top-level classes and the names their bodies define, parsed on demand.
_BODIES: dict[_Key, dict[str, set[str]] | None] = {}


def package_facts(reader: ModuleReader, *views: str) -> PackageFacts:
    """The facts of ``reader``'s package (its own module alone when it is in no package,
    or when no repository is being read); ``views``: the parts the caller reads
    (:data:`.read_views.STORES`, ``DEFINED``, ``CLASSES``: ``below`` and ``classes``),
    noted as read of every file."""
    project = current_project()
    texts = _texts_of(reader)
    note_package(reader)  # a module added or a file made readable may change them
    if texts is None or project is None:
        prefix = project.prefix if project is not None else ""
        return _facts_of({reader.file_path.removeprefix(prefix): reader.source})
    for view in views:
        note_all(reader, texts, view)
    kept: dict[int, PackageFacts] = project.__dict__.setdefault("_facts", {})
    if id(texts) not in kept:  # the texts live as long as the project
        kept[id(texts)] = _facts_of(texts)
    return kept[id(texts)]


def note_all(reader: ModuleReader, texts: dict[str, str], view: str) -> None:
    """Note ``view`` of every package file as read for ``reader``'s file (once per file
    read): what the search took of each (:mod:`.read_views`), not its whole text."""
    project = current_project()
    if project is None:
        return
    noted: set[tuple[str, str]] = project.__dict__.setdefault("_facts_noted", set())
    if (reader.file_path, view) not in noted:
        noted.add((reader.file_path, view))
        for rel in texts:
            read_views.note(project, reader.file_path, rel, view)


def note_whole(reader: ModuleReader, rels: Iterable[str]) -> None:
    """Note the package files ``rels`` as read whole for ``reader``'s file."""
    project = current_project()
    if project is not None:
        for rel in rels:
            project.looked_for(reader.file_path, rel)


def named_elsewhere(reader: ModuleReader, facts: PackageFacts, name: str) -> bool:
    """Whether another file of the package names ``name`` as a word. The files looked
    at before one that does are read for lacking it; that one, and a file whose text is
    the reader's own, are read whole."""
    word = re.compile(rf"\b{re.escape(name)}\b")
    own = reader.source
    project = current_project()
    view = read_views.word_absent(name)
    note_package(reader)  # a module added may name it
    for rel, text in facts.texts.items():
        if text is own or text == own:
            note_whole(reader, (rel,))
        elif word.search(text):
            note_whole(reader, (rel,))
            return True
        else:
            read_views.note(project, reader.file_path, rel, view)
    return False


def _texts_of(reader: ModuleReader) -> dict[str, str] | None:
    project = current_project()
    if project is None:
        return None
    where = package_of(project, reader.file_path, reader.module)
    if where is None:
        return None
    return _package_texts(project, *where) or None


def _facts_of(texts: dict[str, str]) -> PackageFacts:
    keys = tuple((rel, len(text), hash(text)) for rel, text in texts.items())
    if keys not in _PACKAGES:
        if len(_PACKAGES) >= 64:
            _PACKAGES.clear()
        facts = PackageFacts(texts)
        for (rel, text), key in zip(texts.items(), keys, strict=True):
            stores, defined, classes = _file(key, text)
            facts.stores.update(stores)
            for name in defined:
                facts.defined.setdefault(name, []).append(rel)
            facts.classes[rel] = {name for name, _ in classes}
            for name, bases in classes:
                for base in bases:
                    facts.derived.setdefault(base, set()).add(name)
        _PACKAGES[keys] = facts
    elif text_store.first_look(keys):  # made before this scan: its cache keeps them too
        for (_, text), key in zip(texts.items(), keys, strict=True):
            _file(key, text)
    return _PACKAGES[keys]


def _file(key: _Key, text: str) -> FileFacts:
    if key not in _FILES:
        if len(_FILES) >= MAX_FILES:
            _FILES.clear()
        digest, facts = text_store.found(key[0], text)  # kept by an earlier scan
        if facts is None:
            defined = {a or b for a, b in _DEFINES.findall(text)}
            classes = [
                (m.group(1), _IDENT.findall(m.group(2) or "")) for m in _CLASS.finditer(text)
            ]
            facts = (count_stores(text), defined, classes)
            text_store.note(key[0], digest, facts)
        _FILES[key] = facts
    else:
        text_store.made_before(key, text, _FILES[key])
    return _FILES[key]


def file_facts(rel: str, text: str) -> FileFacts:
    """What the text of package file ``rel`` shows (kept per process, and by a scan)."""
    key = (rel, len(text), hash(text))
    return _FILES[key] if key in _FILES else _file(key, text)


def body_names(facts: PackageFacts, rel: str) -> dict[str, set[str]] | None:
    """The top-level classes of file ``rel`` and the names each body defines (None:
    the file does not parse)."""
    text = facts.texts[rel]
    key = (rel, len(text), hash(text))
    if key not in _BODIES:
        if len(_BODIES) >= MAX_FILES:
            _BODIES.clear()
        try:
            tree, _ = parse_any(text, rel)
        except (SyntaxError, ValueError, RecursionError):
            _BODIES[key] = None
            return None
        body = tree.body if isinstance(tree, ast.Module) else []
        _BODIES[key] = {c.name: _defined_in(c) for c in body if isinstance(c, ast.ClassDef)}
    return _BODIES[key]


def _defined_in(cls: ast.ClassDef) -> set[str]:
    out: set[str] = set()
    for stmt in cls.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(stmt.name)
        elif isinstance(stmt, ast.Assign):
            out.update(t.id for t in stmt.targets if isinstance(t, ast.Name))
        elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            out.add(stmt.target.id)
    return out


def count_stores(text: str) -> Counter[str]:
    """The attribute names a module's text stores, each with how often: every ``.name``
    left of a top-level ``=`` (or ``+=``…) of a line, and ``setattr``'s literal names."""
    counts: Counter[str] = Counter(m.group(2) for m in _SETATTR.finditer(text))
    for line in text.splitlines():
        if "=" not in line or "." not in line or not _CANDIDATE.search(line):
            continue
        for target in _line_targets(line):
            counts.update(_DOTTED.findall(target))
    return counts


def _line_targets(line: str) -> list[str]:
    """:func:`_targets`, the common line (``self.x = value``: no bracket, quote or
    comment left of its first ``=``) read without walking it character by character."""
    found = _ASSIGN.search(line)
    if found is None:
        return []
    head = line[: found.start()]
    if _TRICKY.search(head):
        return _targets(line)
    rest = line[found.end() :]
    return [head, *(_targets(rest) if _CANDIDATE.search(rest) else ())]


def _targets(line: str) -> list[str]:
    """The text left of each assignment ``=`` at the line's top bracket level (strings
    and a comment skipped; a string left open ends the reading)."""
    out: list[str] = []
    depth, start, pos = 0, 0, 0
    while (found := _TOKEN.search(line, pos)) is not None:
        token, i, pos = found.group(), found.start(), found.end()
        if token in _CLOSING:
            closed = _CLOSING[token].match(line, pos)
            if closed is None:
                break
            pos = closed.end()
        elif token == "#":
            break
        elif token in _OPEN:
            depth += 1
        elif token in _CLOSE:
            depth = max(depth - 1, 0)
        elif token == "=" and not depth:
            before = line[i - 1] if i else ""
            if before == "!" or (before in ("<", ">") and line[i - 2 : i] not in ("<<", ">>")):
                continue  # ``!=``, ``<=``, ``>=``
            augmented = bool(before) and before in _AUGMENTED
            out.append(line[start : i - 1 if augmented else i])
            start = pos
    return out
