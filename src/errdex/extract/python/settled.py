"""Whether ``self.<attr>`` holds, on every instance, what the class body gives it.

A class body's ``_name = None`` is only a default when anything stores ``._name`` later
(pandas' ``Index._simple_new``: ``result._name = name``), and a property returning ``1``
says nothing of a subclass that returns another count (``MultiIndex.nlevels``). Written
into a template as text, such a value makes the template false: the real message
carries the instance's value. So a value read from a class is taken as text only when
it is settled: nothing in the package stores that attribute name (through ``self``,
``cls``, an instance or ``setattr`` with that literal name), no class of the MRO sets
attributes by computed names, the body binding is not an annotated instance default
(``label: str = "x"``, a dataclass field's default) and, where ``self`` may be any
subclass, no subclass in the package defines the name again (:mod:`.text_facts`).
"""

from __future__ import annotations

import ast
from collections import Counter

from .hierarchy import ClassRef, Node, class_binding
from .project import current_project
from .read_views import CLASSES, DEFINED, OWN_STORES, STORES
from .self_stores import self_stores_by_class
from .subtree import walk, walked
from .text_facts import body_names, note_all, note_whole, package_facts

__all__ = ["overridden_below", "settled_in_class", "settled_name", "stores_of"]


def settled_in_class(ref: ClassRef, defining: ClassRef, attr: str, exact: bool) -> bool:
    """Whether ``self.<attr>``, ``self`` an instance of ``ref`` (exactly ``ref`` when
    ``exact``, else of it or any subclass), is what ``defining``'s body binds."""
    stmt = class_binding(defining, attr)
    if stmt is None or (isinstance(stmt, ast.AnnAssign) and not _class_level(stmt.annotation)):
        return False
    return settled_name(ref, attr, exact)


def settled_name(ref: ClassRef, attr: str, exact: bool, known: int = 0) -> bool:
    """Whether nothing but the class bodies of ``ref``'s MRO (and the ``known`` stores
    the caller has read) decides ``self.<attr>``: no other store of that name in the
    package, no computed ``setattr`` in the MRO, and (unless ``self`` is exactly ``ref``)
    no subclass of another module defining it again: the callers read each subclass of
    ``ref``'s own module as one more way ``self`` may be."""
    mro = ref.reader.mro(ref)
    stores = stores_of(ref, attr)
    # the package's ``self`` stores by class are read only when the count by name is not
    # enough on its own: most attributes are stored nowhere else
    if stores > known and stores - _unrelated_stores(ref, attr, mro) > known:
        return False
    mro = mro or []
    if any(isinstance(n, ClassRef) and _computed_stores(n) for n in mro):
        return False
    return exact or not overridden_below(ref, attr, elsewhere=True)


def _unrelated_stores(ref: ClassRef, attr: str, mro: list[Node] | None) -> int:
    """The ``self.<attr>`` stores in classes (by name) neither in ``ref``'s MRO nor
    derived from it: marshmallow's ``Email.__init__`` storing ``self.error`` leaves a
    ``URL``'s ``self.error`` what ``URL.__init__`` stores. None where the MRO is unknown
    (a base outside the package may be any of them)."""
    if mro is None:
        return 0
    facts = package_facts(ref.reader, CLASSES)
    if facts.own_stores is None:
        facts.own_stores = {}
        for text in facts.texts.values():
            for cls, counts in self_stores_by_class(text).items():
                facts.own_stores.setdefault(cls, Counter()).update(counts)
    note_all(ref.reader, facts.texts, OWN_STORES)
    related = {n.node.name for n in mro if isinstance(n, ClassRef)} | facts.below(ref.node.name)
    return sum(c.get(attr, 0) for cls, c in facts.own_stores.items() if cls not in related)


def stores_of(ref: ClassRef, attr: str) -> int:
    """How many stores of ``.<attr>`` the text of ``ref``'s package shows."""
    return package_facts(ref.reader, STORES).stores.get(attr, 0)


def overridden_below(ref: ClassRef, attr: str, elsewhere: bool = False) -> bool:
    """Whether a class of ``ref``'s package that derives from it (by the names its bases
    give) defines ``attr`` in its body; ``elsewhere``: in another module than ``ref``'s
    (whose own subclasses the caller reads one by one)."""
    facts = package_facts(ref.reader, CLASSES, DEFINED)
    key = (ref.qualified, attr, elsewhere)
    if key not in facts.answers:
        below = facts.below(ref.node.name)
        answer = False
        parsed: list[str] = []
        for rel in facts.defined.get(attr, ()) if below else ():
            if (elsewhere and rel == _own(ref)) or not facts.classes.get(rel, set()) & below:
                continue
            parsed.append(rel)
            bodies = body_names(facts, rel)
            if bodies is None or any(attr in bodies.get(sub, ()) for sub in below):
                answer = True  # a module that may define it again, or one that does
                break
        facts.answers[key] = (answer, tuple(parsed))
    answer, parsed_files = facts.answers[key]
    note_whole(ref.reader, parsed_files)  # the bodies read, for each file served
    return answer


def _own(ref: ClassRef) -> str:
    project = current_project()
    return ref.reader.file_path.removeprefix(project.prefix if project is not None else "")


def _class_level(annotation: ast.expr) -> bool:
    """``ClassVar[…]`` / ``Final`` annotations bind the class, not each instance."""
    return any(
        (isinstance(n, ast.Name) and n.id in ("ClassVar", "Final"))
        or (isinstance(n, ast.Attribute) and n.attr in ("ClassVar", "Final"))
        for n in walk(annotation)
    )


def _computed_stores(node: ClassRef) -> bool:
    """``setattr(x, name, v)`` with a computed name, or ``__dict__`` used, in the class."""
    for n in walked(node.node):
        if isinstance(n, ast.Attribute) and n.attr == "__dict__":
            return True
        if not (isinstance(n, ast.Call) and len(n.args) >= 2):
            continue
        func = n.func
        called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
        named = n.args[1] if len(n.args) == 3 else n.args[0]
        if called in ("setattr", "__setattr__") and not isinstance(named, ast.Constant):
            return True
    return False
