"""The Java extractor: every ``throw``, ``assert c : msg``, ``Objects.requireNonNull``, Guava
precondition and logger ``error``/``warn`` call, read with tree-sitter-java.

``syntax`` holds the grammar and the one query that finds candidate nodes; ``sites``
says what each raises (with ``messages`` for the templates and ``bindings`` for what a
name holds); ``names`` writes classes and methods as a stack trace prints them;
``guards`` writes the conditions on the way. Records point at the ``throw`` line, and a
site's qualname is the frame a Java stack trace prints for it (``com.x.Outer$Inner.m``).
"""

from __future__ import annotations

from errdex.extract.registry import ExtractError
from errdex.extract.site import ErrorSite

from .bindings import Bindings
from .guards import guards_of
from .names import Namer, Unit, is_class_node, member_name
from .sites import Found, SiteReader
from .syntax import Node, candidates, parse

__all__ = ["extract"]


def extract(source: str, file_path: str, lines: list[str]) -> list[ErrorSite]:
    """The registry's entry point (see :mod:`errdex.extract.registry`)."""
    del lines
    data = source.encode("utf-8")
    tree = parse(data)
    root = tree.root_node
    if root.has_error and _mostly_broken(root):
        raise ExtractError("tree-sitter-java could not parse most of this file")
    nodes = candidates(root, data)
    if not any(nodes.values()):
        return []  # nothing to read: the file's names are not needed
    unit = Unit.read(root)
    reader = SiteReader(unit, Bindings(root, data))
    namer = Namer(unit)
    found: list[Found] = []
    for node in nodes["throw"]:
        found.extend(reader.throw(node))
    for node in nodes["call"]:
        found.extend(reader.call(node))
    for node in nodes["assert"]:
        found.extend(reader.assertion(node))
    found.sort(key=lambda f: f.node.start_byte)
    sites: list[ErrorSite] = []
    for item in found:
        sites.extend(_sites(item, file_path, namer))
    return sites


def _mostly_broken(root: Node) -> bool:
    """More than half the top-level nodes are errors: not Java (or not this grammar's)."""
    children = root.named_children
    errors = sum(1 for c in children if c.type == "ERROR" or c.is_missing)
    return not children or errors * 2 > len(children)


def _frame_name(node: Node, namer: Namer) -> tuple[str, str]:
    """(binary class, JVM method) of the frame that runs ``node``: one walk up to its
    class, noting the innermost member and the innermost lambda on the way (a lambda's
    frame is its own)."""
    method: str | None = None
    lam: Node | None = None
    parent = node.parent
    while parent is not None and not is_class_node(parent):
        kind = parent.type
        if lam is None and kind == "lambda_expression":
            lam = parent
        if method is None:
            method = member_name(parent, kind)
        parent = parent.parent
    binary = namer.binary(parent) if parent is not None else namer.unit.package or "<unknown>"
    if method is None:
        method = "<clinit>"
    if lam is not None:
        owner = {"<init>": "new", "<clinit>": "static"}.get(method, method)
        method = f"lambda${owner}${namer.lambda_number(lam)}"
    return binary, method


def _sites(item: Found, file_path: str, namer: Namer) -> list[ErrorSite]:
    binary, method = _frame_name(item.node, namer)
    guards = guards_of(item.node) + item.extra_guards
    notes = list(item.notes)
    if len(item.templates) > 1:
        notes.append(f"one of {len(item.templates)} alternative messages")
    return [
        ErrorSite(
            file_path=file_path,
            line=item.node.start_point[0] + 1,
            end_line=item.node.end_point[0] + 1,
            kind=item.kind,
            template=template,
            error_class=item.error_class,
            qualified_class=item.qualified_class,
            qualname=f"{binary}.{method}",
            function=method,
            style=item.style,
            error_type=item.error_type,
            http_status=item.http_status,
            severity=item.severity,
            guards=guards,
            notes=list(notes),
            language="java",
        )
        for template in item.templates
    ]
