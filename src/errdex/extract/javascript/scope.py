"""What a JavaScript module defines and binds: imports, error classes, names of functions,
and the values a function's variables hold at a site.

Imports (``import``/``require``) qualify a class by the module it comes from; the
module's own error classes say which code (``this.code = 'ERR_…'``) their constructor
sets; a function is named as V8 and readers name it (``AxiosError.from``, ``app.use``,
an arrow function by the variable it is assigned to). A variable is looked up in the
function that encloses the site, then outward, taking its last assignment before it.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field

from tree_sitter import Node

from .messages import node_text, string_value

__all__ = [
    "FUNCTIONS",
    "Bindings",
    "ClassInfo",
    "ModuleFacts",
    "enclosing_function",
    "function_names",
    "module_facts",
]

FUNCTIONS = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "function_expression",
        "function",
        "generator_function",
        "arrow_function",
        "method_definition",
    }
)
_CLASSES = frozenset({"class_declaration", "class", "abstract_class_declaration"})
_EXTENSIONS = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts")


@dataclass(frozen=True, slots=True)
class ClassInfo:
    """A class the module defines: its base and what its constructor sets."""

    name: str
    base: str | None
    code: str | None


@dataclass(slots=True)
class ModuleFacts:
    """One module's imports (local name -> (module, imported name)) and classes."""

    module: str
    imports: dict[str, tuple[str, str]] = field(default_factory=dict)
    classes: dict[str, ClassInfo] = field(default_factory=dict)

    def qualify(self, callee: Node) -> str:
        """The class a constructor expression names, by the module it is imported from."""
        text = node_text(callee)
        head, dot, rest = text.partition(".")
        imported = self.imports.get(head)
        if imported is not None:
            module, name = imported
            if rest:
                return f"{module}.{rest}"
            return f"{module}.{head if name in ('default', '*') else name}"
        if not dot and text in self.classes:
            return f"{self.module}.{text}"
        return text

    def class_code(self, name: str) -> str | None:
        """The code a module class's constructor (or a base's) sets, if any."""
        seen: set[str] = set()
        while name in self.classes and name not in seen:
            seen.add(name)
            info = self.classes[name]
            if info.code is not None:
                return info.code
            if info.base is None:
                return None
            name = info.base
        return None


def module_path(specifier: str, file_path: str) -> str:
    """``'../core/AxiosError.js'`` from ``lib/helpers/x.js`` -> ``lib/core/AxiosError``."""
    spec = specifier.removeprefix("node:")
    if spec.startswith("."):
        spec = posixpath.normpath(posixpath.join(posixpath.dirname(file_path), spec))
    for ext in _EXTENSIONS:
        if spec.endswith(ext):
            spec = spec[: -len(ext)]
            break
    return spec.removesuffix("/index") or spec


def _require_source(node: Node | None) -> tuple[str, str] | None:
    """``require('m')`` -> ('m', 'default'); ``require('m').X`` -> ('m', 'X')."""
    if node is None:
        return None
    if node.type == "member_expression":
        obj, prop = node.child_by_field_name("object"), node.child_by_field_name("property")
        inner = _require_source(obj)
        if inner is not None and prop is not None:
            return inner[0], node_text(prop)
        return None
    if node.type != "call_expression":
        return None
    callee, args = node.child_by_field_name("function"), node.child_by_field_name("arguments")
    if callee is None or node_text(callee) != "require" or args is None:
        return None
    first = args.named_children[0] if args.named_children else None
    spec = string_value(first) if first is not None else None
    return (spec, "default") if spec is not None else None


def _declarators(statement: Node) -> list[Node]:
    if statement.type == "export_statement":
        inner = statement.child_by_field_name("declaration")
        return _declarators(inner) if inner is not None else []
    if statement.type in ("lexical_declaration", "variable_declaration"):
        return [c for c in statement.named_children if c.type == "variable_declarator"]
    return []


def _statements_with(root: Node, data: bytes, words: tuple[bytes, ...]) -> list[Node]:
    """The top-level statements whose text holds one of ``words``, in source order: the
    only ones that can import or declare (``import``, ``require``, ``class``), found
    from the words' offsets instead of a walk over every statement."""
    found: dict[int, Node] = {}
    for word in words:
        at = data.find(word)
        while at != -1:
            statement = root.first_named_child_for_byte(at)
            if statement is not None:
                found.setdefault(statement.start_byte, statement)
            at = data.find(word, at + len(word))
    return [found[start] for start in sorted(found)]


def _imports(statements: list[Node], file_path: str, facts: ModuleFacts) -> None:
    for statement in statements:
        if statement.type == "import_statement":
            source = statement.child_by_field_name("source")
            spec = string_value(source) if source is not None else None
            if spec is None:
                continue
            module = module_path(spec, file_path)
            for clause in (c for c in statement.named_children if c.type == "import_clause"):
                for part in clause.named_children:
                    if part.type == "identifier":
                        facts.imports[node_text(part)] = (module, "default")
                    elif part.type == "namespace_import":
                        for local in part.named_children:
                            facts.imports[node_text(local)] = (module, "*")
                    elif part.type == "named_imports":
                        for spec_node in part.named_children:
                            imported = spec_node.child_by_field_name("name")
                            alias = spec_node.child_by_field_name("alias") or imported
                            if imported is not None and alias is not None:
                                facts.imports[node_text(alias)] = (module, node_text(imported))
            continue
        for declarator in _declarators(statement):
            source_pair = _require_source(declarator.child_by_field_name("value"))
            target = declarator.child_by_field_name("name")
            if source_pair is None or target is None:
                continue
            module = module_path(source_pair[0], file_path)
            if target.type == "identifier":
                facts.imports[node_text(target)] = (module, source_pair[1])
            elif target.type == "object_pattern":
                for prop in target.named_children:
                    if prop.type == "shorthand_property_identifier_pattern":
                        facts.imports[node_text(prop)] = (module, node_text(prop))
                    elif prop.type == "pair_pattern":
                        key, value = (
                            prop.child_by_field_name("key"),
                            prop.child_by_field_name("value"),
                        )
                        if key is not None and value is not None and value.type == "identifier":
                            facts.imports[node_text(value)] = (module, node_text(key))


def _class_base(node: Node) -> str | None:
    for child in node.named_children:
        if child.type == "class_heritage":
            value = child.named_children[0] if child.named_children else None
            if value is not None and value.type == "extends_clause":  # TypeScript
                value = value.child_by_field_name("value")
            return node_text(value) if value is not None else None
    return None


def _constructor_code(node: Node) -> str | None:
    """``this.code = 'ERR_…'`` in the class's constructor."""
    body = node.child_by_field_name("body")
    for member in body.named_children if body is not None else ():
        name = member.child_by_field_name("name")
        if member.type != "method_definition" or name is None or node_text(name) != "constructor":
            continue
        block = member.child_by_field_name("body")
        for statement in block.named_children if block is not None else ():
            expr = statement.named_children[0] if statement.named_children else None
            if statement.type != "expression_statement" or expr is None:
                continue
            if expr.type == "assignment_expression":
                left, right = expr.child_by_field_name("left"), expr.child_by_field_name("right")
                if left is not None and right is not None and node_text(left) == "this.code":
                    return string_value(right)
    return None


def _classes(statements: list[Node], facts: ModuleFacts) -> None:
    for statement in statements:
        nodes: list[tuple[str, Node]] = []
        inner = statement
        if statement.type == "export_statement":
            inner = statement.child_by_field_name("declaration") or statement
        if inner.type in _CLASSES:
            declared = inner.child_by_field_name("name")
            if declared is not None:
                nodes.append((node_text(declared), inner))
        for declarator in _declarators(statement):
            value, target = (
                declarator.child_by_field_name("value"),
                declarator.child_by_field_name("name"),
            )
            if value is not None and target is not None and value.type in _CLASSES:
                nodes.append((node_text(target), value))
        for name, node in nodes:
            facts.classes[name] = ClassInfo(name, _class_base(node), _constructor_code(node))


def module_facts(root: Node, file_path: str, data: bytes) -> ModuleFacts:
    """The imports and classes of the module whose tree is ``root`` and text ``data``."""
    module = file_path
    for ext in _EXTENSIONS:
        if module.endswith(ext):
            module = module[: -len(ext)]
            break
    facts = ModuleFacts(module)
    _imports(_statements_with(root, data, (b"import", b"require")), file_path, facts)
    _classes(_statements_with(root, data, (b"class",)), facts)
    return facts


# -- function names -------------------------------------------------------------------


def enclosing_function(node: Node) -> Node | None:
    """The innermost function (of any form) around ``node``, or None at module level."""
    parent = node.parent
    while parent is not None:
        if parent.type in FUNCTIONS:
            return parent
        parent = parent.parent
    return None


def _owner_name(obj: Node) -> str | None:
    """The name an object literal is known by: its variable, or the member it is assigned to."""
    parent = obj.parent
    if parent is None:
        return None
    if parent.type == "variable_declarator":
        name = parent.child_by_field_name("name")
        return node_text(name) if name is not None else None
    if parent.type == "assignment_expression":
        left = parent.child_by_field_name("left")
        text = node_text(left) if left is not None else ""
        return None if text in ("module.exports", "exports") else text
    return None


def _class_name(body: Node) -> str | None:
    cls = body.parent
    if cls is None:
        return None
    name = cls.child_by_field_name("name")
    if name is not None:
        return node_text(name)
    holder = cls.parent
    if holder is not None and holder.type == "variable_declarator":
        target = holder.child_by_field_name("name")
        return node_text(target) if target is not None else None
    return None


def _function_name(fn: Node) -> str:
    """How one function is named: declared, by its holder, or ``<anonymous>``."""
    own = fn.child_by_field_name("name")
    own_text = node_text(own) if own is not None else None
    if fn.type == "method_definition":
        body = fn.parent
        if body is not None and body.type == "class_body":
            cls = _class_name(body)
            return f"{cls}.{own_text}" if cls else own_text or "<anonymous>"
        if body is not None and body.type == "object":
            owner = _owner_name(body)
            return f"{owner}.{own_text}" if owner else own_text or "<anonymous>"
        return own_text or "<anonymous>"
    parent = fn.parent
    if parent is not None and parent.type == "variable_declarator":
        target = parent.child_by_field_name("name")
        return node_text(target) if target is not None else own_text or "<anonymous>"
    if parent is not None and parent.type == "assignment_expression":
        left = parent.child_by_field_name("left")
        text = node_text(left) if left is not None else ""
        if text in ("module.exports", "exports") and own_text:
            return own_text
        return text or own_text or "<anonymous>"
    if parent is not None and parent.type == "pair":
        key = parent.child_by_field_name("key")
        key_text = node_text(key) if key is not None else "<anonymous>"
        obj = parent.parent
        owner = _owner_name(obj) if obj is not None else None
        return f"{owner}.{key_text}" if owner else key_text
    if parent is not None and parent.type in ("public_field_definition", "field_definition"):
        key = parent.child_by_field_name("name") or parent.child_by_field_name("property")
        body = parent.parent
        cls = _class_name(body) if body is not None else None
        key_text = node_text(key) if key is not None else "<anonymous>"
        return f"{cls}.{key_text}" if cls else key_text
    return own_text or "<anonymous>"


def function_names(node: Node) -> tuple[str, str | None]:
    """(qualname, function) of a site: ``Axios.request`` and ``request``; ``<module>``
    and None at module level. Nested functions join their names with dots."""
    names: list[str] = []
    fn = enclosing_function(node)
    while fn is not None:
        names.append(_function_name(fn))
        fn = enclosing_function(fn)
    if not names:
        return "<module>", None
    innermost = names[0].rpartition(".")[2]
    # an inner name already carrying its holder (``Axios.request``) keeps it once
    return ".".join(reversed(names)), innermost


# -- bindings -------------------------------------------------------------------------


class Bindings:
    """A function's assignments to one name, found in its text and checked in its tree:
    ``name = value`` / ``const name = value`` and ``name.prop = value``, nested functions
    left out. Only the few names a site looks up are ever searched for."""

    def __init__(self, root: Node, data: bytes, scope: Node | None) -> None:
        self.root = root
        self.data = data
        self.scope = scope
        self._start = scope.start_byte if scope is not None else 0
        self._end = scope.end_byte if scope is not None else len(data)

    def _hits(self, pattern: bytes, at: int) -> list[tuple[Node, re.Match[bytes]]]:
        found = []
        data = self.data
        for m in re.compile(pattern).finditer(data, self._start, min(at, self._end)):
            before = data[m.start() - 1 : m.start()]
            if before and (before.isalnum() or before in b"_$."):
                continue  # a longer name, or a member of another object
            node = self.root.descendant_for_byte_range(m.start(), m.start() + 1)
            if (
                node is not None
                and node.type == "identifier"
                and enclosing_function(node) == self.scope
            ):
                found.append((node, m))
        return found

    def last_before(self, name: str, at: int) -> Node | None:
        """The value last assigned to ``name`` (completely) before byte ``at``, or None."""
        word = re.escape(name.encode())
        best: Node | None = None
        for node, _ in self._hits(word + rb"\s*=(?![=>])", at):
            parent = node.parent
            value: Node | None = None
            if parent is None:
                continue
            if parent.type == "variable_declarator" and parent.child_by_field_name("name") == node:
                value = parent.child_by_field_name("value")
            elif (
                parent.type == "assignment_expression"
                and parent.child_by_field_name("left") == node
            ):
                value = parent.child_by_field_name("right")
            if value is not None and parent.end_byte <= at:
                best = value
        return best

    def members_between(self, name: str, start: int, end: int) -> list[tuple[str, Node]]:
        """``name.prop = value`` assignments after ``start`` and before ``end``."""
        word = re.escape(name.encode())
        found: list[tuple[str, Node]] = []
        for node, m in self._hits(word + rb"\s*\.\s*([\w$]+)\s*=(?![=>])", end):
            member = node.parent
            assign = member.parent if member is not None else None
            if m.start() < start or assign is None or assign.type != "assignment_expression":
                continue
            right = assign.child_by_field_name("right")
            if assign.child_by_field_name("left") == member and right is not None:
                found.append((m.group(1).decode(), right))
        return found
