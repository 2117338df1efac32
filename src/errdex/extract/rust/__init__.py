"""The Rust extractor: ``panic!`` and its kin, ``assert*!``, ``.expect("…")``, anyhow's
``bail!``/``anyhow!``/``ensure!``, thiserror's ``#[error("…")]`` and ``io::Error`` values.

One tree-sitter-rust parse; the keywords of the macros, calls and attributes that can be
sites are found in the bytes and confirmed in the tree (``locate``), and only those are
read in Python. Test code (``#[cfg(test)]``
modules, ``#[test]`` functions, ``#![cfg(test)]`` files) is left out, as a scan leaves out
test files; the files a ``#[cfg(test)] mod tests;`` declares the scan leaves out before
they are read (:mod:`.test_modules`).

Classes: Rust prints none for a panic (``thread 'main' panicked at src/lib.rs:3:5:``),
so panic sites record ``panic``; anyhow's are ``anyhow::Error``; a thiserror variant is
``Enum::Variant`` (a struct its name); ``io::Error::new(kind, …)`` is ``io::Error``.
"""

from __future__ import annotations

import re
from functools import cache

from tree_sitter import Language, Node, Parser

from errdex.extract.site import ErrorSite, SiteKind
from errdex.record import ErrorType, Severity
from errdex.template import Literal, MessageTemplate

from .literals import string_value
from .locate import candidates
from .macros import ERRORS, macro_args, macro_message, message_of_args
from .options import is_option
from .scope import guards_of, in_test_code, where

__all__ = ["extract", "parse"]


@cache
def _language() -> Language:
    import tree_sitter_rust

    return Language(tree_sitter_rust.language())


def parse(source: bytes) -> Node:
    """The syntax tree's root (the bare parse the benchmark compares the extractor with)."""
    return Parser(_language()).parse(source).root_node


def _text(node: Node | None) -> str:
    return "" if node is None else (node.text or b"").decode("utf-8", errors="replace")


class _FileExtractor:
    def __init__(self, source: bytes, file_path: str) -> None:
        self.source = source
        self.file_path = file_path
        self.sites: list[ErrorSite] = []

    def add(
        self,
        node: Node,
        kind: SiteKind,
        template: MessageTemplate,
        shown: str | None,
        style: str,
        *,
        qualified: str | None = None,
        error_type: ErrorType = "exception",
        severity: Severity = "error",
        notes: list[str] | None = None,
        at: Node | None = None,
        qualname: str | None = None,
    ) -> None:
        function, local = where(at or node, self.file_path)
        self.sites.append(
            ErrorSite(
                file_path=self.file_path,
                line=node.start_point[0] + 1,
                end_line=node.end_point[0] + 1,
                kind=kind,
                template=template,
                error_class=shown,
                qualified_class=qualified or shown,
                qualname=qualname or local,
                function=function,
                style=style,
                error_type=error_type,
                severity=severity,
                guards=guards_of(at or node),
                notes=notes or [],
                language="rust",
            )
        )

    def macro(self, node: Node) -> None:
        name_node = node.child_by_field_name("macro")
        tree = next((c for c in node.children if c.type == "token_tree"), None)
        if name_node is None or tree is None:
            return
        name = _text(name_node).rsplit("::", 1)[-1]
        args = macro_args(tree, self.source)
        template = macro_message(name, args)
        if name in ERRORS:
            self.add(node, "raise", template, self._report_class(name), f"{name}!")
            return
        kind: SiteKind = "assert" if "assert" in name else "panic"
        self.add(node, kind, template, "panic", f"{name}!", error_type="panic", severity="critical")

    def _report_class(self, macro: str) -> str:
        """anyhow's ``bail!``/``ensure!`` make an ``anyhow::Error``; eyre's, of the same
        names, an ``eyre::Report`` (told apart by the crate the file names)."""
        eyre = macro == "eyre" or (b"eyre" in self.source and b"anyhow" not in self.source)
        return "eyre::Report" if eyre else "anyhow::Error"

    def method(self, node: Node) -> None:
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if function is None or arguments is None:
            return
        field = _text(function.child_by_field_name("field"))
        values = [
            c for c in arguments.named_children if c.type not in ("line_comment", "block_comment")
        ]
        if len(values) != 1:
            return
        message = _message_expr(values[0], self.source)
        if field == "context":
            if message.is_opaque:
                return  # ``.context(err)`` of another crate's API, or no text to show
            self.add(node, "raise", message, "anyhow::Error", ".context()", notes=_CONTEXT_NOTE)
            return
        receiver = function.child_by_field_name("value")
        option = field == "expect" and is_option(receiver)
        if option:
            template = message
            notes = ["Option::expect: prints the message alone"]
        else:
            debug = "{:?}"
            what = "the error" if field == "expect" else "the value"
            template = (
                message
                + MessageTemplate([Literal(": ")])
                + MessageTemplate.hole(debug, "error" if field == "expect" else "value")
            )
            notes = [f"Result::{field} prints the message, ': ' and {what}'s Debug form"]
        line_node = function.child_by_field_name("field") or node
        self.add(
            line_node,
            "panic",
            template,
            "panic",
            f".{field}()",
            error_type="panic",
            severity="critical",
            notes=notes,
            at=node,
        )

    def io_error(self, node: Node) -> None:
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        if function is None or arguments is None:
            return
        path = _text(function.child_by_field_name("path"))
        name = _text(function.child_by_field_name("name"))
        if not (path.endswith("io::Error") or (path == "Error" and self._bare_error_is_io())):
            return
        values = arguments.named_children
        if name == "new" and len(values) == 2 and "ErrorKind::" in _text(values[0]):
            kind = _text(values[0]).rsplit("::", 1)[-1]
            message_node = values[1]
        elif name == "other" and len(values) == 1:
            kind, message_node = "Other", values[0]
        else:
            return
        template = _message_expr(message_node, self.source)
        notes = [f"ErrorKind::{kind}"]
        self.add(
            node,
            "raise",
            template,
            "io::Error",
            f"io::Error::{name}",
            qualified="std::io::Error",
            notes=notes,
        )

    def _bare_error_is_io(self) -> bool:
        """Whether a bare ``Error`` is ``std::io::Error``: imported from ``std::io`` and not
        a type of the file's own (cc's ``Error::new(ErrorKind::IOError, …)`` is cc's)."""
        return _IO_ERROR_IMPORT.search(self.source) is not None and not _OWN_ERROR.search(
            self.source
        )

    def attribute(self, node: Node) -> None:
        """``#[error("…")]`` on a thiserror enum variant or struct."""
        attribute = next((c for c in node.named_children if c.type == "attribute"), None)
        tree = attribute.child_by_field_name("arguments") if attribute is not None else None
        if tree is None or tree.type != "token_tree":
            return
        args = macro_args(tree, self.source)
        if not args.tokens or string_value(args.tokens[0][0]) is None:
            return  # ``#[error(transparent)]`` forwards another error's message
        template = message_of_args(args) or MessageTemplate()
        item = node.next_named_sibling
        while item is not None and item.type in ("attribute_item", "line_comment", "block_comment"):
            item = item.next_named_sibling
        if item is None:
            return
        if item.type == "enum_variant":
            enum = item.parent.parent if item.parent is not None else None
            owner = _text(enum.child_by_field_name("name")) if enum is not None else "?"
            shown = f"{owner}::{_text(item.child_by_field_name('name'))}"
        elif item.type in ("struct_item", "enum_item"):
            shown = _text(item.child_by_field_name("name"))
        else:
            return
        module = where(item, self.file_path)[1]
        qualname = f"{module}::{shown}" if module else shown
        self.add(node, "raise", template, shown, "#[error]", at=item, qualname=qualname)


_IO_ERROR_IMPORT = re.compile(rb"\buse\s+std::io::(?:Error\b|\{[^}]*\bError\b)")
_OWN_ERROR = re.compile(rb"\b(?:struct|enum|type)\s+Error\b")
_CONTEXT_NOTE = ["anyhow prints the context, then the error it wraps under 'Caused by:'"]


def _message_expr(node: Node, source: bytes) -> MessageTemplate:
    """A message passed as a value: a literal, ``format!``, ``"…".to_string()``/``.into()``,
    ``String::from("…")``, else a hole named by its source."""
    value = string_value(node)
    if value is not None:
        return MessageTemplate.literal(value)
    if node.type == "macro_invocation":
        name = _text(node.child_by_field_name("macro")).rsplit("::", 1)[-1]
        tree = next((c for c in node.children if c.type == "token_tree"), None)
        if name in ("format", "format_args") and tree is not None:
            return message_of_args(macro_args(tree, source)) or MessageTemplate()
    if node.type == "call_expression":
        function = node.child_by_field_name("function")
        arguments = node.child_by_field_name("arguments")
        inner = arguments.named_children if arguments is not None else []
        if function is not None and function.type == "field_expression" and not inner:
            method = _text(function.child_by_field_name("field"))
            value_node = function.child_by_field_name("value")
            if method in ("to_string", "into", "to_owned") and value_node is not None:
                text = string_value(value_node)
                if text is not None:
                    return MessageTemplate.literal(text)
        if (
            function is not None
            and _text(function) in ("String::from", "str::to_string")
            and len(inner) == 1
        ):
            text = string_value(inner[0])
            if text is not None:
                return MessageTemplate.literal(text)
    return MessageTemplate.expression(_text(node))


def extract(text: str, file_path: str, lines: list[str]) -> list[ErrorSite]:
    """The registry's entry point (see :mod:`errdex.extract.registry`)."""
    source = text.encode("utf-8", errors="surrogatepass")
    root = parse(source)
    extractor = _FileExtractor(source, file_path)
    captures = candidates(root, source)
    handlers = (
        ("macro", extractor.macro),
        ("method", extractor.method),
        ("io", extractor.io_error),
        ("attr", extractor.attribute),
    )
    sites = extractor.sites
    for capture, handle in handlers:
        for node in captures.get(capture, []):
            before = len(sites)
            handle(node)
            if len(sites) > before and in_test_code(node):  # asked of sites only: fewer
                del sites[before:]
    if root.has_error:
        for site in extractor.sites:
            site.notes.append("the parser recovered from a syntax error in this file")
    return sorted(extractor.sites, key=lambda s: (s.line, s.qualname))
