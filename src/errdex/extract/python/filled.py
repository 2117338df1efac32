"""What fills a hole shown by a name, said in evidence rather than printed as code.

``resp = self.getmultiline(); raise error_perm(resp)`` shows ``{resp}``; the code that
computed ``resp`` is kept on the hole (``Hole.filled``) and said here. When that code
only passes on text read at run time (``self.file.readline()``, through helpers of the
class such as ``getresp`` → ``getmultiline`` → ``getline``), the message is that text
and nothing else: irreducible, and the evidence says so and where the text was read.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from errdex.template import Hole, MessageTemplate

from .subtree import walked

__all__ = ["filled_notes", "joined_fill", "named", "peel", "read_at", "str_argument"]

Function = ast.FunctionDef | ast.AsyncFunctionDef
#: ``(class name, method name)`` -> the method and the class of the module defining it.
Lookup = Callable[[str, str], tuple[Function, str] | None]

#: Calls that read text from a file, socket or stream: the text is the runtime's.
_READS = frozenset({"read", "readline", "readlines", "recv", "recvfrom", "recv_into", "read1"})
#: Methods that keep what they are called on, as far as its origin goes.
_PASSING = frozenset({"decode", "encode", "strip", "rstrip", "lstrip", "lower", "upper"})
_MAX_DEPTH = 6


def str_argument(node: object) -> ast.expr | None:
    """``x`` of ``str(x)`` (one argument, no keywords), else None."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "str"
        and len(node.args) == 1
        and not node.keywords
    ):
        return node.args[0]
    return None


def _decoded(node: ast.expr) -> ast.expr | None:
    """``b`` of ``str(b, "ascii")`` or ``str(b, "latin-1", "replace")``: bytes decoded."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "str"
        and len(node.args) in (2, 3)
        and not node.keywords
        and all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in node.args[1:])
    ):
        return node.args[0]
    return None


def peel(node: ast.expr) -> ast.expr:
    """The value that ``x.decode(…)``, ``x.strip()``, ``x[:-2]``, ``str(x)`` and
    ``str(x, "ascii")`` pass on."""
    while True:
        call = node if isinstance(node, ast.Call) else None
        if call is not None and isinstance(call.func, ast.Attribute) and call.func.attr in _PASSING:
            node = call.func.value
            continue
        if (argument := str_argument(node) or _decoded(node)) is not None:
            node = argument
            continue
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            node = node.value
            continue
        return node


def read_at(expr: ast.expr, class_name: str | None, lookup: Lookup, depth: int = 0) -> str | None:
    """Where the text ``expr`` evaluates to was read (``FTP.getline``: ``self.file.readline``),
    when every way to it passes on text read at run time; None otherwise."""
    if depth > _MAX_DEPTH:
        return None
    node = peel(expr)
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        ways = [read_at(v, class_name, lookup, depth + 1) for v in node.values]
        return ways[0] if ways and all(ways) else None
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
        return None
    owner = node.func.value
    if node.func.attr in _READS:
        return f"`{ast.unparse(node.func)}`"
    if not (isinstance(owner, ast.Name) and owner.id == "self" and class_name):
        return None
    found = lookup(class_name, node.func.attr)
    if found is None:
        return None
    method, defining = found
    # ``self`` is still an instance of ``class_name``: its own methods are looked up there
    return _returns_read(method, class_name, defining, lookup, depth + 1)


def _returns_read(
    fn: Function, class_name: str, defining: str, lookup: Lookup, depth: int
) -> str | None:
    """Where the text every ``return`` of ``fn`` gives was read, or None."""
    bound: dict[str, list[ast.expr]] = {}
    returns: list[ast.expr] = []
    for node in walked(fn):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)) and node is not fn:
            return None  # a nested function's returns are not this one's
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                bound.setdefault(target.id, []).append(node.value)
        elif isinstance(node, ast.Return):
            if node.value is None:
                return None
            returns.append(node.value)
    if not returns:
        return None
    where: str | None = None
    for value in returns:
        found = _local_read(value, bound, class_name, lookup, depth, set())
        if found is None:
            return None
        where = where or found
    return f"{where} in `{defining}.{fn.name}`" if " in `" not in (where or "") else where


def _local_read(
    value: ast.expr,
    bound: dict[str, list[ast.expr]],
    class_name: str,
    lookup: Lookup,
    depth: int,
    seen: set[str],
) -> str | None:
    node = peel(value)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        # ``line + ('\n' + nextline)``: read text joined with more of it
        left = _local_read(node.left, bound, class_name, lookup, depth, seen)
        right = _text_or_read(node.right, bound, class_name, lookup, depth, seen)
        return left if left is not None and right else None
    if isinstance(node, ast.Name):
        if node.id in seen:
            return ""  # ``line = line[:-2]``: the earlier binding says where it was read
        ways = bound.get(node.id)
        if not ways:
            return None
        found = [_local_read(w, bound, class_name, lookup, depth, seen | {node.id}) for w in ways]
        if any(f is None for f in found):
            return None
        return next((f for f in found if f), None)
    return read_at(node, class_name, lookup, depth)


def _text_or_read(
    node: ast.expr,
    bound: dict[str, list[ast.expr]],
    class_name: str,
    lookup: Lookup,
    depth: int,
    seen: set[str],
) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, bytes)):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _text_or_read(node.left, bound, class_name, lookup, depth, seen) and _text_or_read(
            node.right, bound, class_name, lookup, depth, seen
        )
    return _local_read(node, bound, class_name, lookup, depth, seen) is not None


def named(name: str, template: MessageTemplate) -> MessageTemplate:
    """A name bound to a value whose text is not known shows as the name, as the raise
    writes it (``{resp}``), never as the code that computed it (``{self.getresp()}``):
    that code is kept on the hole as what fills it (``Hole.filled``)."""
    if len(template.parts) != 1 or not isinstance(template.parts[0], Hole):
        return template
    hole = template.parts[0]
    if hole.name.isidentifier() or hole.text == "{" + name + "}" or hole.name.endswith("…"):
        return template  # a name already (a parameter a followed chain named): no code shown
    if hole.kind or hole.prefix or not hole.text.startswith("{"):
        return template  # ``%s`` written in a format string, or a hole that says what it prints
    filled = hole.filled or hole.name
    return MessageTemplate([Hole("{" + name + "}", name, filled=filled)])


def _fills(template: MessageTemplate) -> str:
    return "".join(p.filled for p in template.holes)


def joined_fill(held: MessageTemplate, other: MessageTemplate) -> MessageTemplate:
    """One name filled on two ways (``resp = self.sendcmd(cmd)``, then ``self.getresp()``):
    the one hole says both."""
    if len(held.parts) != 1 or not isinstance(held.parts[0], Hole):
        return held
    hole = held.parts[0]
    extra = _fills(other)
    if not extra or extra in hole.filled.split(" or "):
        return held
    joined = f"{hole.filled} or {extra}" if hole.filled else extra
    return MessageTemplate([Hole(hole.text, hole.name, hole.prefix, hole.kind, joined)])


def filled_notes(
    template: MessageTemplate, class_name: str | None, lookup: Lookup
) -> tuple[list[str], bool]:
    """The evidence for each hole shown by a name (what fills it), and whether the message
    is one such hole whose text is read at run time (then it is irreducible)."""
    notes: list[str] = []
    irreducible = False
    holes = [p for p in template.parts if isinstance(p, Hole) and p.filled]
    for hole in holes:
        notes.append(f"`{hole.text}` is filled by `{hole.filled}`")
    if len(template.parts) == 1 and holes:
        hole = holes[0]
        try:
            expr = ast.parse(hole.filled, mode="eval").body
        except SyntaxError:
            return notes, False
        where = read_at(expr, class_name, lookup)
        if where:
            irreducible = True
            notes.append(
                f"irreducible: the message is `{hole.name}`, text read at run time"
                f" ({where}) and passed on with no text added, so a paste of it alone can only be"
                " told from other such sites by its frames"
            )
    return notes, irreducible
