"""The Go extractor: ``errors.New``, ``fmt.Errorf``, ``panic``, ``log.Fatal*``/``Panic*``,
``http.Error``, package-level sentinel errors and the messages of ``Error() string`` methods.

The file is parsed once with tree-sitter-go; the names of the calls that can be sites are
found in the bytes and confirmed in the tree (``locate``), and only those are read in Python (``sites`` says what each raises, ``scope``
where it stands, ``messages`` what its message is). Classes follow what Go itself prints
with ``%T`` (see :mod:`errdex.extract.go.sites`).
"""

from __future__ import annotations

from functools import cache

from tree_sitter import Language, Node, Parser

from errdex.extract.registry import ExtractError
from errdex.extract.site import ErrorSite

from .literals import decode_interpreted
from .locate import calls_named, candidates
from .messages import Context, call_name, node_text, string_value, template_of
from .scope import guards_of, receiver_type, where
from .sites import Found, classify_call

__all__ = ["extract"]


@cache
def _language() -> Language:
    import tree_sitter_go

    return Language(tree_sitter_go.language())


def parse(source: bytes) -> Node:
    """The syntax tree's root (the bare parse the benchmark compares the extractor with)."""
    return Parser(_language()).parse(source).root_node


def _default_name(path: str) -> str:
    """The name an import binds without an alias: the path's last element, a major-version
    suffix (``/v2``) or a ``gopkg.in`` ``.v2`` left out."""
    parts = path.split("/")
    last = parts[-1]
    if len(parts) > 1 and last[:1] == "v" and last[1:].isdigit():
        last = parts[-2]
    return last.split(".v")[0] if path.startswith("gopkg.in/") else last


def _file_context(root: Node) -> tuple[str, Context]:
    package = ""
    imports: dict[str, str] = {}
    constants: list[Node] = []
    for decl in root.named_children:
        if decl.type == "package_clause" and decl.named_children:
            package = node_text(decl.named_children[0])
        elif decl.type == "import_declaration":
            stack = list(decl.named_children)
            while stack:
                spec = stack.pop()
                if spec.type == "import_spec_list":
                    stack.extend(spec.named_children)
                    continue
                path_node = spec.child_by_field_name("path")
                if spec.type != "import_spec" or path_node is None:
                    continue
                path = decode_interpreted(node_text(path_node)[1:-1])
                alias = spec.child_by_field_name("name")
                local = node_text(alias) if alias is not None else _default_name(path)
                imports[local] = path
        elif decl.type == "const_declaration":
            constants.append(decl)
    return package, Context(imports, lambda: _read_constants(constants))


def _read_constants(declarations: list[Node]) -> dict[str, str]:
    """The file's string constants (read only when a message names an identifier: a
    syscall package declares thousands of numeric ones)."""
    constants: dict[str, str] = {}
    for decl in declarations:
        for spec in decl.named_children:
            if spec.type != "const_spec":
                continue
            names = spec.children_by_field_name("name")
            value = spec.child_by_field_name("value")
            values = value.named_children if value is not None else []
            for name, val in zip(names, values, strict=False):
                text = string_value(val)
                if text is not None:
                    constants[node_text(name)] = text
    return constants


def _printf_wrappers(root: Node, context: Context) -> dict[str, str]:
    """Functions and methods declared ``f(format string, a ...interface{})`` (or ``...any``)
    whose body passes both on to ``fmt.Errorf(format, a...)``: name -> what they are."""
    found: dict[str, str] = {}
    for decl in root.named_children:
        if decl.type not in ("function_declaration", "method_declaration"):
            continue
        params = decl.child_by_field_name("parameters")
        body = decl.child_by_field_name("body")
        name = decl.child_by_field_name("name")
        if params is None or body is None or name is None:
            continue
        declared = [p for p in params.named_children if p.type != "comment"]
        if len(declared) < 2 or declared[-1].type != "variadic_parameter_declaration":
            continue
        fmt_param, rest = declared[-2], declared[-1]
        fmt_type = fmt_param.child_by_field_name("type")
        if fmt_type is None or node_text(fmt_type) != "string":
            continue
        fmt_names = [node_text(n) for n in fmt_param.children_by_field_name("name")]
        rest_name = rest.child_by_field_name("name")
        if not fmt_names or rest_name is None:
            continue
        wanted = f"{fmt_names[-1]},{node_text(rest_name)}..."
        for call in _calls_in(body):
            package, called = call_name(call, context)
            args = call.child_by_field_name("arguments")
            spread = "".join(node_text(args).split())[1:-1] if args is not None else ""
            if (package, called) == ("fmt", "Errorf") and spread == wanted:
                found[node_text(name)] = "fmt.Errorf"
                break
    return found


def _sentinel(call: Node, package: str) -> str | None:
    """``pkg.ErrX`` when ``call`` is the value of a package-level ``var ErrX = …``."""
    values = call.parent
    spec = values.parent if values is not None else None
    if values is None or spec is None or values.type != "expression_list":
        return None
    if spec.type != "var_spec":
        return None
    decl = spec.parent
    if decl is not None and decl.type == "var_spec_list":
        decl = decl.parent
    if decl is None or decl.parent is None or decl.parent.type != "source_file":
        return None
    names = spec.children_by_field_name("name")
    position = [c.id for c in values.named_children].index(call.id)
    if position >= len(names):
        return None
    return f"{package}.{node_text(names[position])}"


class _FileExtractor:
    def __init__(self, file_path: str, package: str, context: Context) -> None:
        self.file_path = file_path
        self.package = package
        self.context = context
        self.sites: list[ErrorSite] = []
        self.consumed: list[tuple[int, int]] = []

    def _inside_consumed(self, node: Node) -> bool:
        return any(s <= node.start_byte and node.end_byte <= e for s, e in self.consumed)

    def call(self, call: Node) -> None:
        if self._inside_consumed(call):
            return
        found = classify_call(call, self.context)
        if found is None:
            return
        for arg in _named_args(call):
            if arg.id in found.consumed:
                self.consumed.append((arg.start_byte, arg.end_byte))
        qualified = found.error_class
        style = found.style
        function, qualname = where(call, self.package)
        sentinel = _sentinel(call, self.package) if found.kind == "raise" else None
        if sentinel is not None:
            qualified, style, qualname = sentinel, "sentinel", sentinel
            found.notes.append(f"a sentinel error: callers test it with errors.Is(err, {sentinel})")
        self._add(call, found, sentinel or found.error_class, qualified, style, function, qualname)

    def error_method(self, method: Node) -> None:
        """``func (e *T) Error() string``: each ``return`` of a message with literal text."""
        params = method.child_by_field_name("parameters")
        result = method.child_by_field_name("result")
        body = method.child_by_field_name("body")
        if params is None or params.named_children or result is None or body is None:
            return
        if node_text(result) != "string":
            return
        shown = receiver_type(method).strip("()")
        qualified = (
            shown.replace("*", "*" + self.package + ".", 1)
            if shown.startswith("*")
            else (f"{self.package}.{shown}")
        )
        stack = list(body.named_children)
        returns: list[Node] = []
        while stack:
            node = stack.pop()
            if node.type == "func_literal":
                continue
            if node.type == "return_statement":
                returns.append(node)
                continue
            stack.extend(node.named_children)
        for ret in sorted(returns, key=lambda n: n.start_byte):
            values = ret.named_children
            if len(values) != 1 or values[0].type != "expression_list":
                continue
            exprs = values[0].named_children
            if len(exprs) != 1:
                continue
            template = template_of(exprs[0], self.context)
            if template.is_opaque:
                continue  # ``return e.msg``: the message is made where the value is
            found = Found("raise", template, shown, "Error() method")
            function, qualname = where(ret, self.package)
            self._add(ret, found, shown, qualified, found.style, function, qualname)

    def _add(
        self,
        node: Node,
        found: Found,
        shown: str | None,
        qualified: str | None,
        style: str,
        function: str | None,
        qualname: str,
    ) -> None:
        self.sites.append(
            ErrorSite(
                file_path=self.file_path,
                line=node.start_point[0] + 1,
                end_line=node.end_point[0] + 1,
                kind=found.kind,
                template=found.template,
                error_class=shown,
                qualified_class=qualified,
                qualname=qualname,
                function=function,
                style=style,
                error_type=found.error_type,
                severity=found.severity,
                guards=guards_of(node),
                cause=found.cause,
                notes=found.notes,
                language="go",
                http_status=found.http_status,
            )
        )


def _calls_in(body: Node) -> list[Node]:
    out = []
    stack = [body]
    while stack:
        node = stack.pop()
        if node.type == "call_expression":
            out.append(node)
        stack.extend(node.named_children)
    return out


def _named_args(call: Node) -> list[Node]:
    args = call.child_by_field_name("arguments")
    return args.named_children if args is not None else []


def extract(text: str, file_path: str, lines: list[str]) -> list[ErrorSite]:
    """The registry's entry point (see :mod:`errdex.extract.registry`)."""
    source = text.encode("utf-8", errors="surrogatepass")
    root = parse(source)
    package, context = _file_context(root)
    if not package:
        raise ExtractError("no package clause: not a Go source file")
    extractor = _FileExtractor(file_path, package, context)
    calls, methods = candidates(root, source)
    if b"...)" in source:
        context.wrappers = _printf_wrappers(root, context)
        if context.wrappers:
            calls = [*calls, *calls_named(root, source, set(context.wrappers))]
    for call in sorted(set(calls), key=lambda n: (n.start_byte, -n.end_byte)):
        extractor.call(call)
    for method in methods:
        extractor.error_method(method)
    if root.has_error:
        for site in extractor.sites:
            site.notes.append("the parser recovered from a syntax error in this file")
    return sorted(extractor.sites, key=lambda s: (s.line, s.qualname))
