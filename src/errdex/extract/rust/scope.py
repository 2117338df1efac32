"""Where a Rust site stands: its path as a backtrace names it, its guards, and whether it
is test code (``#[cfg(test)] mod tests { … }``, ``#[test] fn``), which a scan leaves out.

Read by climbing from the site, so the cost is the site's depth. A method is
``Type::method`` (``impl<A> SmallVec<A>`` -> ``SmallVec::insert``), a closure
``f::{{closure}}``, nested modules and the file's own module path (``src/de/mod.rs`` ->
``de``) come first, the crate's name is left out (the file does not say it).
"""

from __future__ import annotations

import re

from tree_sitter import Node

from errdex.extract._syntax import guards_up, if_guard
from errdex.extract.site import Guard

__all__ = ["file_module", "guards_of", "in_test_code", "outer_attributes", "where"]

_CFG_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[A-Za-z_][\w:]*|[(),=]')


def _text(node: Node | None) -> str:
    return "" if node is None else (node.text or b"").decode("utf-8", errors="replace")


def file_module(file_path: str) -> str:
    """The module path a file is: ``src/a/b.rs`` -> ``a::b``; ``lib.rs``/``main.rs``/
    ``mod.rs`` name their folder's module."""
    parts = file_path.replace("\\", "/").split("/")
    # past the last ``src/`` (a workspace member's too), else the file alone
    parts = parts[len(parts) - parts[::-1].index("src") :] if "src" in parts else parts[-1:]
    if parts and parts[-1].endswith(".rs"):
        parts[-1] = parts[-1][:-3]
    if parts and parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    if len(parts) > 1 and parts[0] == "bin":
        parts = parts[1:]
    return "::".join(p for p in parts if p)


def outer_attributes(item: Node) -> list[Node]:
    """The ``#[…]`` attributes written just before an item."""
    found: list[Node] = []
    sibling = item.prev_named_sibling
    while sibling is not None and sibling.type in (
        "attribute_item",
        "line_comment",
        "block_comment",
    ):
        if sibling.type == "attribute_item":
            found.append(sibling)
        sibling = sibling.prev_named_sibling
    return found


def _is_test_attribute(attribute: Node) -> bool:
    inner = next((c for c in attribute.named_children if c.type == "attribute"), None)
    if inner is None or not inner.named_children:
        return False
    name = _text(inner.named_children[0])
    if name in ("test", "bench") or name.endswith("::test"):
        return True
    if name != "cfg" or len(inner.named_children) < 2:
        return False
    tokens = _CFG_TOKEN.findall(_text(inner.named_children[1]))
    return _requires_test(tokens, 1)[0] if tokens[:1] == ["("] else False


def _requires_test(tokens: list[str], at: int) -> tuple[bool, int]:
    """Whether the cfg predicate starting at ``tokens[at]`` holds only when testing
    (``test``, ``all(…, test)``, ``any(test, test)``; never under ``not``), and where it ends."""
    if at >= len(tokens):
        return False, at
    word = tokens[at]
    if word in ("all", "any", "not") and tokens[at + 1 : at + 2] == ["("]:
        found: list[bool] = []
        at += 2
        while at < len(tokens) and tokens[at] != ")":
            if tokens[at] == ",":
                at += 1
                continue
            value, at = _requires_test(tokens, at)
            found.append(value)
        at += 1
        if word == "all":
            return any(found), at
        if word == "any":
            return bool(found) and all(found), at
        return False, at
    if tokens[at + 1 : at + 2] == ["="]:  # feature = "x"
        return False, at + 3
    return word == "test", at + 1


def _inner_attributes(body: Node) -> list[Node]:
    """The ``#![…]`` attributes heading a file or a module's body."""
    found: list[Node] = []
    for child in body.named_children:
        if child.type == "inner_attribute_item":
            found.append(child)
        elif child.type not in ("line_comment", "block_comment"):
            break
    return found


def in_test_code(node: Node) -> bool:
    """Whether ``node`` lies in a ``#[cfg(test)]`` item, a ``#[test]`` function, or a file
    or module that says ``#![cfg(test)]`` of itself (rayon's ``test.rs`` files)."""
    current = node.parent
    while current is not None:
        if current.type in ("mod_item", "function_item", "impl_item") and any(
            _is_test_attribute(a) for a in outer_attributes(current)
        ):
            return True
        if current.type in ("source_file", "declaration_list") and any(
            _is_test_attribute(a) for a in _inner_attributes(current)
        ):
            return True
        current = current.parent
    return False


def _type_name(impl: Node) -> str:
    typ = impl.child_by_field_name("type")
    if typ is None:
        return "?"
    if typ.type == "generic_type":
        typ = typ.child_by_field_name("type") or typ
    return _text(typ)


def where(node: Node, file_path: str) -> tuple[str | None, str]:
    """(the enclosing ``fn``'s name, the site's path without the crate)."""
    names: list[str] = []
    function: str | None = None
    current = node.parent
    while current is not None:
        kind = current.type
        if kind == "function_item":
            name = _text(current.child_by_field_name("name"))
            function = function or name
            names.append(name)
        elif kind == "closure_expression":
            names.append("{{closure}}")
        elif kind == "impl_item":
            names.append(_type_name(current))
        elif kind in ("trait_item", "mod_item"):
            names.append(_text(current.child_by_field_name("name")))
        current = current.parent
    module = file_module(file_path)
    path = [module] if module else []
    return function, "::".join([*path, *reversed(names)])


def _guard(node: Node, child: Node) -> Guard | None:
    line = node.start_point[0] + 1
    kind = node.type
    if kind == "if_expression":
        return if_guard(node, child, _text(node.child_by_field_name("condition")))
    if kind == "match_arm":
        block = node.parent
        match = block.parent if block is not None else None
        subject = _text(match.child_by_field_name("value")) if match is not None else "?"
        pattern = _text(node.child_by_field_name("pattern"))
        if child.type == "match_pattern":
            return None
        return Guard("case", f"{subject} matches {pattern}", line)
    if kind == "loop_expression":
        return Guard("loop", "loop", line)
    if kind in ("while_expression", "for_expression"):
        body = node.child_by_field_name("body")
        if body is None or body.id != child.id:
            return None
        if kind == "while_expression":
            return Guard("while", _text(node.child_by_field_name("condition")), line)
        pattern = _text(node.child_by_field_name("pattern"))
        return Guard("for", f"for {pattern} in {_text(node.child_by_field_name('value'))}", line)
    if kind == "let_declaration":
        alternative = node.child_by_field_name("alternative")
        if alternative is not None and alternative.id == child.id:
            pattern = _text(node.child_by_field_name("pattern"))
            value = _text(node.child_by_field_name("value"))
            return Guard("else", f"{value} does not match {pattern}", line)
    return None


def guards_of(node: Node) -> tuple[Guard, ...]:
    """The clauses from the enclosing ``fn`` (or closure) down to the site, outermost first."""
    return guards_up(node, ("function_item", "closure_expression"), _guard)
