"""``self.<attr>`` kept from a constructor's parameter: the texts the class is built with.

jinja2's lexer keeps a message in ``Failure.__init__`` (``self.message = message``) and
raises it in ``Failure.__call__``; the messages are the literals the module passes where
it builds one (``Failure("Missing end of comment tag")``, lexer.py:547/581), and the
template ``{self.message}`` told a reader nothing (blind review of stop 35). Read only
where every way the attribute may be set is seen: the class's own ``__init__`` stores the
parameter once and unchanged, nothing else in the package stores the name for it, no
class derives from it, the class's name appears nowhere else in the package, and in its
module only as the callee of calls that each pass a string literal (or a constant) there.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from errdex.extract._downgrade import parse_any
from errdex.template import MessageTemplate

from .attributes import assigned_to_self
from .folded import MISSING, constant_value
from .frames import empty_scope
from .hierarchy import ClassRef, HierarchyReader, method_of
from .read_views import CLASSES
from .settled import settled_name
from .subtree import walked
from .text_facts import named_elsewhere, package_facts

if TYPE_CHECKING:
    from .messages import Templates

__all__ = ["constructed_texts"]

#: Different texts read for one attribute, at most (more: the hole stays).
MAX_TEXTS = 8


def constructed_texts(reader: HierarchyReader, ref: ClassRef, attr: str) -> Templates | None:
    """The texts ``self.<attr>`` holds in a method of ``ref``'s class when its own
    ``__init__`` keeps a parameter there and every construction of the class passes a
    constant string for it; None otherwise."""
    from .held_class import kept_from  # above printers, which ask this

    init = method_of(ref, "__init__")
    if init is None or ref.reader is not reader:
        return None
    param = next((p for p, a in kept_from(init).items() if a == attr), None)
    if param is None or len(assigned_to_self(init, attr)) != 1 or _rebound(init, param):
        return None
    name = ref.node.name
    facts = package_facts(reader, CLASSES)
    if facts.below(name) or not settled_name(ref, attr, exact=True, known=1):
        return None  # a subclass, or another store of the name, may set it otherwise
    if named_elsewhere(reader, facts, name):
        return None
    positional = [a.arg for a in (*init.args.posonlyargs, *init.args.args)][1:]
    texts: list[MessageTemplate] = []
    for call in _constructions(reader, name):
        value = _passed(call, param, positional, init)
        if value is None:
            return None
        text = constant_value(reader, value, empty_scope(""))
        if text is MISSING or not isinstance(text, str):
            return None
        found = MessageTemplate.literal(text)
        if found not in texts:
            texts.append(found)
    return texts if 0 < len(texts) <= MAX_TEXTS else None


def _rebound(init: ast.FunctionDef | ast.AsyncFunctionDef, param: str) -> bool:
    return any(
        isinstance(n, ast.Name) and n.id == param and isinstance(n.ctx, ast.Store)
        for n in walked(init)
    )


def _constructions(reader: HierarchyReader, name: str) -> list[ast.Call]:
    """Every call of the class in its module; empty when its name is read any other way
    (passed as a value, stored, subclassed: then it may be built where this cannot see)."""
    tree: ast.Module | None = reader.__dict__.get("_parsed")
    if tree is None:
        try:
            tree = parse_any(reader.source, reader.file_path)[0]
        except SyntaxError:  # a .pyx module (``cimport``): no call of it is known
            tree = ast.Module(body=[], type_ignores=[])
        reader.__dict__["_parsed"] = tree
    calls = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name
    ]
    harmless = {id(n) for n in _checks_and_annotations(tree)}
    loads = sum(
        1
        for n in ast.walk(tree)
        if isinstance(n, ast.Name)
        and n.id == name
        and isinstance(n.ctx, ast.Load)
        and id(n) not in harmless
    )
    return calls if loads == len(calls) else []


def _checks_and_annotations(tree: ast.Module) -> list[ast.AST]:
    """Nodes that read a class without building or passing it: annotations, and the
    class argument of ``isinstance``/``issubclass``."""
    out: list[ast.AST] = []
    for n in ast.walk(tree):
        annotation = (
            getattr(n, "annotation", None) if isinstance(n, (ast.AnnAssign, ast.arg)) else None
        )
        if annotation is not None:
            out.extend(ast.walk(annotation))
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.returns is not None:
            out.extend(ast.walk(n.returns))
        elif (
            isinstance(n, ast.Call)
            and isinstance(n.func, ast.Name)
            and n.func.id in ("isinstance", "issubclass")
            and len(n.args) == 2
        ):
            out.extend(ast.walk(n.args[1]))
    return out


def _passed(
    call: ast.Call,
    param: str,
    positional: list[str],
    init: ast.FunctionDef | ast.AsyncFunctionDef,
) -> ast.expr | None:
    """The expression a call gives ``param`` (its default when it gives none)."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return None
    from .held_class import default_of  # above printers, which ask this

    given = next((k.value for k in call.keywords if k.arg == param), None)
    if given is not None:
        return given
    index = positional.index(param) if param in positional else -1
    if 0 <= index < len(call.args):
        return call.args[index]
    return default_of(init, param)
