"""One walk over a C or C++ file: every call that sets a Python error or warns, every
``throw``, and every status error constructed, as :class:`ErrorSite`\\ s."""

from __future__ import annotations

import re
from collections.abc import Iterable

from tree_sitter import Node, Tree

from errdex.extract.class_holes import typed_class_holes
from errdex.extract.python.literals import quoted_repr
from errdex.extract.site import ErrorSite, SiteKind
from errdex.record import ErrorType, Severity
from errdex.template import MessageTemplate

from .argparse import ARG_PARSERS
from .capi import CAPI_CALLS, PYEXC_ALIASES, CallSpec
from .cpp import python_class_of_throw, status_code_of, status_constructors
from .fields import stored_field, stores_of
from .find import calls_named, definitions, throws
from .formats import decode_escapes
from .grammar import Dialect
from .helpers import Helper, helper_of, python_placeholders
from .includes import Inherited
from .macros import bodies, helper_of_macro, relocated
from .messages import arguments, call_name, format_from, literal_text, message_template, node_text
from .reprs import typed_reprs
from .scope import ancestors, enclosing, guards_of

__all__ = ["NO_FRAME", "FileWalker"]

#: Every C and C++ site says so: the traceback a user sees ends at the Python caller.
NO_FRAME = "raised in C: a traceback shows the Python line that called it, not this one"
_CPP_NO_FRAME = "raised in C++: a traceback shows the Python line that called it, not this one"
_NEW_EXCEPTION = frozenset({"PyErr_NewException", "PyErr_NewExceptionWithDoc"})
_REGISTER = frozenset(
    {
        "py::register_exception",
        "pybind11::register_exception",
        "py::exception",
        "pybind11::exception",
        "nb::exception",
        "nanobind::exception",
    }
)
_THROWING = frozenset(
    {
        "nb::raise",
        "nanobind::raise",
        "nb::raise_type_error",
        "nanobind::raise_type_error",
        "pybind11_fail",
        "pybind11::pybind11_fail",
    }
)
_DEFINE_STRINGS = re.compile(r'\s*(?:"(?:[^"\\\n]|\\.)*"\s*)+')
_ONE_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
#: C++ exceptions that carry a Python error set before them (``throw py::error_already_set()``).
_ALREADY_SET = frozenset({"error_already_set", "python_error", "builtin_exception"})
#: A variable holding an exception class made elsewhere, named after it (``DecodeError``).
_NAMED_CLASS = re.compile(r"[A-Z][A-Za-z0-9]*(?:Error|Exception|Warning)")
_CRITICAL = frozenset({"MemoryError", "SystemError", "RecursionError"})


def _last_name(node: Node) -> str | None:
    """``FooError``, ``st->FooError``, ``(PyObject *)state->Err`` -> the name at the end."""
    while node.type in ("cast_expression", "parenthesized_expression", "pointer_expression"):
        inner = node.child_by_field_name("value") or node.child_by_field_name("argument")
        if inner is None:
            inner = node.named_children[-1] if node.named_children else None
        if inner is None:
            return None
        node = inner
    if node.type == "identifier":
        return node_text(node)
    if node.type == "field_expression":
        field = node.child_by_field_name("field")
        return node_text(field) if field is not None else None
    if node.type == "qualified_identifier":
        return node_text(node).rpartition("::")[2]
    return None


def _branches(node: Node) -> list[Node]:
    """``c ? a : b`` -> its two values (each in turn split), else the node itself."""
    while node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    if node.type != "conditional_expression":
        return [node]
    values = [node.child_by_field_name("consequence"), node.child_by_field_name("alternative")]
    return [b for v in values if v is not None for b in _branches(v)]


#: Every callee a C file's walk reads a call of (besides its own helpers).
C_SITE_NAMES = frozenset(
    name for name in (*CAPI_CALLS, *ARG_PARSERS, *_NEW_EXCEPTION) if "::" not in name
)
#: And a C++ file's: the bindings' too, and the status constructors (``status_code_of``).
CPP_SITE_NAMES = frozenset(
    {*CAPI_CALLS, *ARG_PARSERS, *_NEW_EXCEPTION, *_REGISTER, *status_constructors()}
)


class FileWalker:
    """The sites of one parsed file."""

    def __init__(self, tree: Tree, file_path: str, language: Dialect) -> None:
        self.tree = tree
        self.file_path = file_path
        self.language = language
        self.macros: dict[str, str] = {}
        #: 0-based row of each string macro's ``#define`` (what precedes an ``#include``).
        self.macro_rows: dict[str, int] = {}
        self.module_exceptions: dict[str, str] = {}  # variable or field -> "mod.FooError"
        self.registered: dict[str, str] = {}  # C++ class -> Python name (py::register_exception)
        self.sites: list[ErrorSite] = []
        #: Sites whose message is one value: the helpers' (``raise_errmsg(msg)``).
        self.opaque: list[tuple[Node, ErrorSite]] = []
        #: Whether the file is written against pybind11 or nanobind (their classes
        #: are then meant when unqualified: ``throw value_error(…)`` in their namespace).
        self.binding = False
        self.no_frame = NO_FRAME if language == "c" else _CPP_NO_FRAME
        #: The helpers found (``raise_errmsg``), by name; ``inherited``: those of the file
        #: that includes this one (:mod:`.includes`), used where this file has none.
        self.helpers: dict[str, Helper] = {}
        self.inherited: dict[str, Helper] = {}

    # -- what the file defines --------------------------------------------------------

    def inherit(self, inherited: Inherited) -> None:
        """Start from what the file including this one defines (its own come on top)."""
        self.macros = dict(inherited.macros)
        self.module_exceptions = dict(inherited.module_exceptions)
        self.registered = dict(inherited.registered)
        self.inherited = inherited.helpers

    def _collect(self, definitions: list[Node], calls: Iterable[tuple[Node, str]]) -> None:
        for node in definitions:
            if node.type == "preproc_def":
                name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
                # the first of the file's definitions (``#if``/``#else`` ones) is read
                if (
                    name is not None
                    and value is not None
                    and node_text(name) not in self.macro_rows
                    and _DEFINE_STRINGS.fullmatch(node_text(value))
                ):
                    self.macros[node_text(name)] = "".join(
                        decode_escapes(m.group(1)) for m in _ONE_STRING.finditer(node_text(value))
                    )
                    self.macro_rows[node_text(name)] = node.start_point[0]
        for node, callee in calls:
            if callee in _NEW_EXCEPTION and (args := arguments(node)):
                self._new_exception(node, args)
            elif callee in _REGISTER and len(args := arguments(node)) >= 2:
                self._register(node, args)

    def _new_exception(self, call: Node, args: list[Node]) -> None:
        dotted = literal_text(args[0], self.macros)
        parent = call.parent
        while parent is not None and parent.type in ("cast_expression", "parenthesized_expression"):
            parent = parent.parent
        if dotted is None or parent is None:
            return
        target = (
            parent.child_by_field_name("left") if parent.type == "assignment_expression" else None
        )
        if parent.type == "init_declarator":
            target = parent.child_by_field_name("declarator")
            while target is not None and target.type == "pointer_declarator":
                target = target.child_by_field_name("declarator")
        name = _last_name(target) if target is not None else None
        if name:
            self.module_exceptions[name] = dotted

    def _register(self, call: Node, args: list[Node]) -> None:
        fn = call.child_by_field_name("function")
        while fn is not None and fn.type == "qualified_identifier":
            fn = fn.child_by_field_name("name")
        targs = (
            fn.child_by_field_name("arguments")
            if fn is not None and fn.type == "template_function"
            else None
        )
        python = literal_text(args[1], self.macros)
        if targs is not None and targs.named_children and python:
            cpp = "".join(node_text(targs.named_children[0]).split())
            self.registered[cpp] = python
            self.registered[cpp.rpartition("::")[2]] = python

    # -- the walk ---------------------------------------------------------------------

    def run(self) -> list[ErrorSite]:
        # found by name (:mod:`.find`): no query over every node of the tree
        calls = calls_named(self.tree, C_SITE_NAMES if self.language == "c" else CPP_SITE_NAMES)
        thrown_at = throws(self.tree) if self.language == "cpp" else []
        others, macros = definitions(self.tree)
        names = [call_name(call) for call in calls]
        self._collect(others, zip(calls, names, strict=True))
        macro_helpers = self._macro_sites(others + macros)
        thrown = set()
        for throw in thrown_at:
            call = self._throw(throw)
            if call is not None:
                thrown.add(call.id)
        for call, name in zip(calls, names, strict=True):
            if call.id not in thrown:
                self._call(call, name)
        helpers = {h.name: h for h in (helper_of(n, s) for n, s in self.opaque) if h is not None}
        helpers.update(macro_helpers)
        self.helpers = {**self.inherited, **helpers}
        calls = calls_named(self.tree, self.helpers)
        names = [call_name(call) for call in calls]
        for call, name in zip(calls, names, strict=True):
            helper = self.helpers.get(name)
            if helper is not None:
                self._through(call, helper)
        self._stored_texts()
        self.sites.sort(key=lambda s: (s.line, s.style))
        return self.sites

    def _macro_sites(self, definitions: list[Node]) -> dict[str, Helper]:
        """The sites of ``#define`` bodies (read as functions of their own, with this file's
        string macros and exception variables), and the macros that raise a parameter."""
        helpers: dict[str, Helper] = {}
        for body in bodies(definitions, self.language):
            inner = FileWalker(body.tree, self.file_path, self.language)
            inner.macros = self.macros
            inner.module_exceptions = self.module_exceptions
            inner.registered = self.registered
            inner.binding = self.binding
            for site in inner.run():
                placed = relocated(site, body)
                self.sites.append(placed)
                helper = helper_of_macro(placed, body)
                if helper is not None:
                    helpers.setdefault(helper.name, helper)
        return helpers

    def _class_of(self, node: Node | None) -> tuple[str | None, str | None]:
        """(class shown, qualified class) of an exception argument."""
        if node is None:
            return None, None
        name = _last_name(node)
        if name is None:
            return None, None
        if name.startswith("PyExc_"):
            short = PYEXC_ALIASES.get(name[6:], name[6:])
            return short, f"builtins.{short}"
        dotted = self.module_exceptions.get(name)
        if dotted is not None:
            return dotted.rpartition(".")[2], dotted
        if _NAMED_CLASS.fullmatch(name):
            # created in another file (``state->JSONDecodeError``): named after its class
            return name, None
        return None, None

    def _call(self, call: Node, name: str) -> None:
        spec = CAPI_CALLS.get(name)
        if spec is not None:
            self._capi(call, name, spec, arguments(call))
            return
        parser = ARG_PARSERS.get(name)
        if parser is not None:
            for template, when in parser(arguments(call), self.macros):
                self._add(
                    call,
                    "set",
                    template,
                    "TypeError",
                    "builtins.TypeError",
                    name,
                    [f"raised when {when}"],
                )
            return
        status = status_code_of(name) if self.language == "cpp" else None
        args = arguments(call) if status is not None else []
        if status is not None and args:
            code, is_format = status
            if not is_format or literal_text(args[0], self.macros) is not None:
                message = (
                    format_from(args, self.macros, printf=True)
                    if is_format
                    else message_template(args[0], self.macros)
                )
                self._add(
                    call,
                    "throw",
                    MessageTemplate.literal(f"{code}: ") + message,
                    None,
                    None,
                    name,
                    [
                        f"a status error ({code}): the binding that turns it into a Python exception picks the class "
                        f"and prints '{code}: ' before the message"
                    ],
                )

    def _capi(self, call: Node, name: str, spec: CallSpec, args: list[Node]) -> None:
        shown, qualified = (
            (spec.error_class, f"builtins.{spec.error_class}") if spec.error_class else (None, None)
        )
        if spec.exc_arg is not None:
            shown, qualified = self._class_of(
                args[spec.exc_arg] if spec.exc_arg < len(args) else None
            )
            if shown is None and spec.warn:
                shown, qualified = None, None
        msg = args[spec.msg_arg] if spec.msg_arg < len(args) else None
        template: MessageTemplate
        if spec.mode == "fixed" and spec.message is not None:
            template = spec.message
        elif spec.mode == "none":
            template = MessageTemplate()
        elif msg is None:
            return
        elif spec.mode == "format":
            template = typed_reprs(format_from(args[spec.msg_arg :], self.macros), call)
            template = typed_class_holes(template, "c")
        elif spec.mode == "printf":
            template = format_from(args[spec.msg_arg :], self.macros, printf=True)
        elif spec.mode == "object":
            template = MessageTemplate.expression(node_text(msg))
        else:
            template = message_template(msg, self.macros)
        if shown == "KeyError" and spec.mode in ("string", "format"):
            template = quoted_repr(template)  # str(KeyError(s)) is repr(s)
        kind: SiteKind = "warn" if spec.warn else ("throw" if name in _THROWING else "set")
        notes = []
        if shown is not None and qualified is None:
            notes.append(f"the class is read from the name of the variable that holds it ({shown})")
        self._add(call, kind, template, shown, qualified, name, notes)

    def _through(self, call: Node, helper: Helper) -> None:
        """A call of a helper that raises the message it is passed (each of the two
        messages of ``cond ? ERR_A : ERR_B`` a site of its own)."""
        args = arguments(call)
        if helper.param >= len(args):
            return
        branches = _branches(args[helper.param])
        for branch in branches:
            template = message_template(branch, self.macros)
            if template.is_opaque:
                continue
            if helper.to_python:
                template = python_placeholders(template)
            site = helper.site
            notes = [
                f"raised through {helper.name}(), which sets {site.error_class or 'the error'} "
                "with the message it is passed; the exception class may add text after it"
            ]
            if len(branches) > 1:
                notes.append(f"one of the {len(branches)} messages the call chooses between")
            if site.file_path != self.file_path:
                notes.append(
                    f"{helper.name}() is defined in {site.file_path}, which includes this file"
                )
            self._add(
                call, site.kind, template, site.error_class, site.qualified_class,
                f"via {helper.name}", notes,
            )  # fmt: skip

    def _stored_texts(self) -> None:
        """The texts of a raise of one struct field, at the lines that store them there
        (:mod:`.fields`)."""
        done: set[str] = set()
        for _, site in list(self.opaque):
            name = stored_field(site)
            if name is None or name in done:
                continue
            done.add(name)
            stores = stores_of(self.tree.root_node, name)
            read = site.template.holes[0].name
            chosen: list[tuple[Node, Node, str]] = [(v, v, name) for v in stores.direct]
            for call in calls_named(self.tree, stores.setters) if stores.setters else []:
                setter = call_name(call)
                args = arguments(call)
                if stores.setters[setter] < len(args):
                    chosen += [(call, b, setter) for b in _branches(args[stores.setters[setter]])]
            for node, value, by in chosen:
                template = message_template(value, self.macros)
                if template.is_opaque:
                    continue
                how = f"passed to {by}(), which stores it in" if by != name else "assigned to"
                notes = [
                    f"the message is {how} the field {name}; {site.style} at line "
                    f"{site.line} raises {site.error_class or 'the error'} with {read}"
                ]
                style = f"via {by}" if by != name else f"via field {name}"
                self._add(node, site.kind, template, site.error_class, site.qualified_class,
                          style, notes)  # fmt: skip

    def _throw(self, throw: Node) -> Node | None:
        value = next((c for c in throw.named_children if c.type != "comment"), None)
        if value is None or value.type != "call_expression":
            return None  # ``throw;`` and ``throw e;`` rethrow what was raised elsewhere
        name = call_name(value)
        args = arguments(value)
        if name.rpartition("::")[2] in _ALREADY_SET or name in _THROWING or name in CAPI_CALLS:
            return None  # the Python error was set before; the site that set it is the record
        shown, qualified = python_class_of_throw(name, self.binding)
        notes: list[str] = []
        if shown is None:
            python = self.registered.get(name) or self.registered.get(name.rpartition("::")[2])
            if python is not None:
                shown, qualified = python, None
                notes.append(f"C++ {name}, registered with the binding as {python}")
            else:
                notes.append(
                    f"C++ {name}: the binding's translator decides the Python class "
                    "(pybind11: RuntimeError for an unregistered std::exception)"
                )
        template = MessageTemplate() if not args else message_template(args[0], self.macros)
        self._add(value, "throw", template, shown, qualified, f"throw {name}", notes)
        return value

    def _add(
        self,
        node: Node,
        kind: SiteKind,
        template: MessageTemplate,
        shown: str | None,
        qualified: str | None,
        style: str,
        notes: list[str],
    ) -> None:
        above = ancestors(node)
        function, qualname = enclosing(node, above)
        warn = kind == "warn"
        error_type: ErrorType = "console" if warn else "exception"
        severity: Severity = "warning" if warn else ("critical" if shown in _CRITICAL else "error")
        site = ErrorSite(
            file_path=self.file_path,
            line=node.start_point[0] + 1,
            end_line=node.end_point[0] + 1,
            kind=kind,
            template=template,
            error_class=shown,
            qualified_class=qualified,
            qualname=qualname,
            function=function,
            style=style,
            error_type=error_type,
            severity=severity,
            guards=guards_of(node, above),
            notes=[self.no_frame, *notes],
            language=self.language,
        )
        self.sites.append(site)
        if site.template.is_opaque and len(site.template.holes) == 1:
            self.opaque.append((node, site))
