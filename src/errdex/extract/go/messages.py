"""Go expressions that build a message, as templates: literals, ``+``, ``fmt.Sprintf`` and kin.

What cannot be read statically (a variable, a call) is a hole written ``{<source>}``, as
the Python extractor writes a value joined into a message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from tree_sitter import Node

from errdex.template import Literal, MessageTemplate

from .literals import decode_interpreted, decode_raw, format_template

__all__ = [
    "Context",
    "arguments",
    "call_name",
    "node_text",
    "sprint",
    "string_value",
    "template_of",
]


class Context:
    """What a file says that messages need: its imports (local name -> path) and constants."""

    def __init__(
        self, imports: Mapping[str, str], constants: Callable[[], Mapping[str, str]]
    ) -> None:
        self.imports = imports
        self._read_constants = constants
        self._constants: Mapping[str, str] | None = None
        #: Functions and methods of the file that pass a format and its arguments on to
        #: ``fmt.Errorf`` (pflag's ``failf``): their calls are sites too.
        self.wrappers: dict[str, str] = {}

    @property
    def constants(self) -> Mapping[str, str]:
        """The file's string constants, read on first use."""
        if self._constants is None:
            self._constants = self._read_constants()
        return self._constants

    def package_of(self, local: str) -> str | None:
        """The import path a selector's operand names (``fmt`` -> ``fmt``), or None."""
        return self.imports.get(local)


def node_text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", errors="replace")


def string_value(node: Node) -> str | None:
    """The value of a Go string literal node, or None when it is not one."""
    if node.type == "interpreted_string_literal":
        return decode_interpreted(node_text(node)[1:-1])
    if node.type == "raw_string_literal":
        return decode_raw(node_text(node)[1:-1])
    return None


def arguments(call: Node) -> list[Node]:
    """The argument expressions of a call (``...`` spread arguments included as written)."""
    args = call.child_by_field_name("arguments")
    if args is None:
        return []
    return [c for c in args.named_children if c.type != "comment"]


def call_name(call: Node, context: Context) -> tuple[str | None, str]:
    """(import path or None, name) of a call's function: ``fmt.Errorf`` -> (``fmt``,
    ``Errorf``); a plain ``panic`` -> (None, ``panic``); a method -> (None, ``x.m``)."""
    fn = call.child_by_field_name("function")
    if fn is None:
        return None, ""
    if fn.type == "identifier":
        return None, node_text(fn)
    if fn.type == "selector_expression":
        operand = fn.child_by_field_name("operand")
        field = fn.child_by_field_name("field")
        if operand is not None and field is not None:
            if operand.type == "identifier":
                package = context.package_of(node_text(operand))
                if package is not None:
                    return package, node_text(field)
            return None, node_text(fn)
    return None, node_text(fn)


def sprint(args: list[Node], context: Context, spaced: bool, newline: bool) -> MessageTemplate:
    """``fmt.Sprint`` adds a space between operands when neither is a string;
    ``Sprintln`` between all of them (its newline ends the value)."""
    pieces: list[MessageTemplate] = []
    previous_string = True
    for i, arg in enumerate(args):
        is_string = string_value(arg) is not None
        if i and (spaced or not (is_string or previous_string)):
            pieces.append(MessageTemplate.literal(" "))
        pieces.append(template_of(arg, context))
        previous_string = is_string
    if newline:
        pieces.append(MessageTemplate.literal("\n"))
    return MessageTemplate.join(pieces)


#: How many local variables are followed back (``msg := a; a := fmt.Sprintf(…)``).
_MAX_DEPTH = 3
_FUNCTIONS = ("function_declaration", "method_declaration", "func_literal")


def _visible_from(node: Node, ident: Node) -> bool:
    """Whether a statement's block holds ``ident`` (its declaration is in scope there)."""
    block = node.parent
    return block is not None and block.start_byte <= ident.start_byte < block.end_byte


def _assigned_value(ident: Node, name: str) -> Node | None:
    """The value last given to the local variable ``name`` before ``ident``, in a block
    that holds it (``msg := fmt.Sprintf(…)`` … ``panic(msg)``)."""
    body: Node | None = ident.parent
    while body is not None and body.type not in _FUNCTIONS:
        body = body.parent
    if body is None:
        return None
    best: tuple[int, Node | None] | None = None
    stack = list(body.named_children)
    while stack:
        node = stack.pop()
        if node.start_byte >= ident.start_byte or node.end_byte <= (best or (0,))[0]:
            continue
        if node.type in ("short_var_declaration", "assignment_statement", "var_spec"):
            if not _visible_from(node if node.type != "var_spec" else node.parent or node, ident):
                continue
            left = node.child_by_field_name("left") or node
            names = (
                node.children_by_field_name("name")
                if node.type == "var_spec"
                else left.named_children
            )
            right = node.child_by_field_name("right") or node.child_by_field_name("value")
            values = right.named_children if right is not None else []
            for position, target in enumerate(names):
                if node_text(target) == name and (best is None or node.start_byte > best[0]):
                    value = values[position] if len(values) == len(names) else None
                    best = (node.start_byte, value)
            continue
        stack.extend(node.named_children)
    return best[1] if best is not None else None


def template_of(node: Node, context: Context, depth: int = 0) -> MessageTemplate:
    """The message an expression evaluates to, as far as the source says."""
    value = string_value(node)
    if value is not None:
        return MessageTemplate.literal(value)
    kind = node.type
    if kind == "parenthesized_expression" and node.named_children:
        return template_of(node.named_children[0], context, depth)
    if kind == "binary_expression":
        op = node.child_by_field_name("operator")
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if op is not None and node_text(op) == "+" and left is not None and right is not None:
            return template_of(left, context, depth) + template_of(right, context, depth)
    if kind == "identifier":
        name = node_text(node)
        if name in context.constants:
            return MessageTemplate([Literal(context.constants[name])])
        assigned = _assigned_value(node, name) if depth < _MAX_DEPTH else None
        if assigned is not None:
            resolved = template_of(assigned, context, depth + 1)
            if not resolved.is_opaque:
                return resolved
    if kind == "call_expression":
        found = _call_template(node, context)
        if found is not None:
            return found
    return MessageTemplate.expression(node_text(node))


def _call_template(call: Node, context: Context) -> MessageTemplate | None:
    package, name = call_name(call, context)
    args = arguments(call)
    if package == "fmt" and name in ("Sprintf", "Errorf") and args:
        fmt = string_value(args[0])
        if fmt is None:
            fmt_constant = context.constants.get(node_text(args[0]))
            if fmt_constant is None:
                return None
            fmt = fmt_constant
        return format_template(fmt, [node_text(a) for a in args[1:]])
    if package == "fmt" and name in ("Sprint", "Sprintln"):
        return sprint(args, context, spaced=name == "Sprintln", newline=name == "Sprintln")
    if package == "errors" and name == "New" and len(args) == 1:
        return template_of(args[0], context)
    return None
