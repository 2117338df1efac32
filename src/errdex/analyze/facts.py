"""One walk per file: the small facts the static analyst needs, with the tree dropped.

Keeping syntax trees of a whole repository (the standard library is ~1 GB of nodes)
would not scale, so each file is parsed once and reduced to definitions, imports,
calls, docstrings and test expectations; everything later works on these facts.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field

from errdex.extract._downgrade import parse_any

__all__ = [
    "CallRef",
    "ClassFacts",
    "Expect",
    "FuncFacts",
    "ModuleFacts",
    "module_facts",
]

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef

#: A call as written: the dotted parts of the callee. ``("", "add_edge")`` is a method on
#: an unknown receiver, ``("super()", "m")`` a call through ``super()``.
CallRef = tuple[str, ...]

#: Lines of a test expectation shown as its snippet.
SNIPPET_LINES = 8

_EXPECT_CALLS = {
    "raises": "pytest.raises",
    "warns": "pytest.warns",
    "assertRaises": "assertRaises",
    "assertRaisesRegex": "assertRaisesRegex",
    "assertRaisesRegexp": "assertRaisesRegex",
}


@dataclass(slots=True)
class FuncFacts:
    """A function or method: where it is, how it is called, what it calls."""

    qualname: str
    name: str
    module: str
    path: str
    line: int
    end_line: int
    signature: str
    params: tuple[str, ...]  # as written: ``*args`` and ``**kwargs`` keep their stars
    required: tuple[str, ...]  # parameters without defaults; keyword-only ones as ``k=k``
    docstring: str | None
    doc_line: int
    cls: str | None  # the class qualname, for methods
    parent: str | None  # the enclosing function, for nested functions
    decorators: list[CallRef]
    calls: list[CallRef]
    local_imports: dict[str, str]
    is_test: bool
    #: ``reader = GraphMLReader(...)``: local names bound once, to a call's result.
    local_calls: dict[str, CallRef] = field(default_factory=dict)


@dataclass(slots=True)
class ClassFacts:
    qualname: str
    name: str
    module: str
    path: str
    line: int
    bases: list[CallRef]
    docstring: str | None
    doc_line: int
    is_test: bool


@dataclass(slots=True)
class Expect:
    """A test that expects an exception or warning (``pytest.raises`` and friends)."""

    path: str
    line: int
    name: str  # node id: path::Class::test
    kind: str
    classes: list[CallRef]
    match: str | None  # the regex (or literal) as the test gives it
    match_is_literal: bool  # True for ``assert "x" in str(e.value)``: not a regex
    match_whole: bool  # True for ``str(e.value) == "x"``
    match_source: str | None  # the argument as written, when not a plain string
    snippet: str
    calls: list[CallRef]
    module: str
    function: str | None  # qualname of the enclosing test function


@dataclass(slots=True)
class ModuleFacts:
    name: str
    rel: str
    path: str
    is_test: bool
    is_package: bool
    imports: dict[str, str] = field(default_factory=dict)
    star: list[str] = field(default_factory=list)
    all_names: tuple[str, ...] | None = None
    top: dict[str, str] = field(default_factory=dict)  # name -> qualname of a def/class
    functions: list[FuncFacts] = field(default_factory=list)
    classes: list[ClassFacts] = field(default_factory=list)
    expects: list[Expect] = field(default_factory=list)


def module_facts(
    text: str, rel: str, path: str, module: str, *, is_test: bool
) -> ModuleFacts | None:
    """The facts of one file, or None when it does not parse."""
    try:
        tree, _ = parse_any(text, path)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    facts = ModuleFacts(
        name=module,
        rel=rel,
        path=path,
        is_test=is_test,
        is_package=rel.endswith("__init__.py"),
    )
    _Walker(facts, text.splitlines()).module(tree)
    return facts


_DEF_TYPES = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef})
#: Fields that never hold a node worth visiting (contexts, operators, plain values).
_LEAF_FIELDS = frozenset({"ctx", "op", "ops", "id", "attr", "arg", "value_kind", "kind", "n", "s"})
_FIELDS_MEMO: dict[type, tuple[str, ...]] = {}


def _child_fields(t: type) -> tuple[str, ...]:
    """The fields of a node type that may hold child expressions or statements."""
    found = _FIELDS_MEMO.get(t)
    if found is None:
        if t is ast.Constant or not issubclass(t, ast.AST):
            found = ()
        else:
            found = tuple(f for f in t._fields if f not in _LEAF_FIELDS)
        _FIELDS_MEMO[t] = found
    return found


def dotted(node: ast.expr) -> CallRef | None:
    """``a.b.c`` -> ("a", "b", "c"); a method on any other receiver -> ("", name)."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return tuple(reversed(parts))
    if not parts:
        return None
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "super"
        and len(parts) == 1
    ):
        return ("super()", parts[0])
    return ("", parts[0])


def clean(text: str) -> str:
    """Text that encodes as UTF-8: a lone surrogate (``"\\udc80"`` in a literal) is escaped."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def _docstring(body: list[ast.stmt]) -> tuple[str | None, int]:
    if body and isinstance(body[0], ast.Expr):
        value = body[0].value
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return clean(value.value), value.lineno
    return None, 0


def _signature(node: FunctionNode) -> str:
    prefix = "async def" if isinstance(node, ast.AsyncFunctionDef) else "def"
    try:
        args = ast.unparse(node.args)
        returns = f" -> {ast.unparse(node.returns)}" if node.returns is not None else ""
    except (ValueError, RecursionError):
        args, returns = "...", ""
    return clean(f"{prefix} {node.name}({args}){returns}")


def _params(node: FunctionNode) -> tuple[str, ...]:
    a = node.args
    names = [x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
    if a.vararg is not None:
        names.append("*" + a.vararg.arg)
    if a.kwarg is not None:
        names.append("**" + a.kwarg.arg)
    return tuple(names)


def _required(node: FunctionNode, is_method: bool) -> tuple[str, ...]:
    a = node.args
    positional = [*a.posonlyargs, *a.args]
    without_default = positional[: len(positional) - len(a.defaults)]
    names = [x.arg for x in without_default]
    if is_method and names and names[0] in ("self", "cls"):
        names = names[1:]
    names += [
        f"{x.arg}={x.arg}" for x, d in zip(a.kwonlyargs, a.kw_defaults, strict=True) if d is None
    ]
    return tuple(names)


def _string_list(node: ast.expr) -> list[str] | None:
    if isinstance(node, (ast.List, ast.Tuple)):
        out = [
            e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)
        ]
        return out if len(out) == len(node.elts) else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _string_list(node.left), _string_list(node.right)
        return None if left is None or right is None else left + right
    return None


class _Walker:
    """Collects a module's facts in one pass over its statements."""

    def __init__(self, facts: ModuleFacts, lines: list[str]) -> None:
        self.facts = facts
        self.lines = lines
        package = facts.name if facts.is_package else facts.name.rpartition(".")[0]
        self.package = package

    # -- module level -------------------------------------------------------------

    def module(self, tree: ast.Module) -> None:
        self._body(tree.body, prefix="", cls=None, parent=None, toplevel=True)

    def _import(self, node: ast.Import | ast.ImportFrom, into: dict[str, str]) -> None:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    into[alias.asname] = alias.name
                else:
                    top = alias.name.split(".")[0]
                    into[top] = top
            return
        base = node.module or ""
        if node.level:
            anchor = self.package.split(".") if self.package else []
            if node.level > 1:
                anchor = anchor[: len(anchor) - (node.level - 1)]
            base = ".".join([*anchor, *([base] if base else [])])
        for alias in node.names:
            if alias.name == "*":
                if into is self.facts.imports and base:
                    self.facts.star.append(base)
                continue
            into[alias.asname or alias.name] = f"{base}.{alias.name}".lstrip(".")

    def _body(
        self,
        body: list[ast.stmt],
        *,
        prefix: str,
        cls: str | None,
        parent: str | None,
        toplevel: bool,
    ) -> None:
        """Definitions in a module or class body, looking inside if/try/with blocks."""
        for stmt in body:
            if isinstance(stmt, (ast.Import, ast.ImportFrom)) and toplevel:
                self._import(stmt, self.facts.imports)
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._function(stmt, prefix=prefix, cls=cls, parent=parent, toplevel=toplevel)
            elif isinstance(stmt, ast.ClassDef):
                self._class(stmt, prefix=prefix, parent=parent, toplevel=toplevel)
            elif isinstance(stmt, (ast.Assign, ast.AugAssign)) and toplevel:
                self._all(stmt)
            elif isinstance(stmt, ast.If):
                self._body(stmt.body, prefix=prefix, cls=cls, parent=parent, toplevel=toplevel)
                self._body(stmt.orelse, prefix=prefix, cls=cls, parent=parent, toplevel=toplevel)
            elif isinstance(stmt, (ast.Try, ast.TryStar)):
                for block in (stmt.body, *(h.body for h in stmt.handlers), stmt.orelse):
                    self._body(block, prefix=prefix, cls=cls, parent=parent, toplevel=toplevel)
            elif isinstance(stmt, (ast.With, ast.AsyncWith)):
                self._body(stmt.body, prefix=prefix, cls=cls, parent=parent, toplevel=toplevel)

    def _all(self, stmt: ast.Assign | ast.AugAssign) -> None:
        if isinstance(stmt, ast.Assign):
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in stmt.targets):
                names = _string_list(stmt.value)
                self.facts.all_names = tuple(names) if names is not None else None
        elif isinstance(stmt.target, ast.Name) and stmt.target.id == "__all__":
            extra = _string_list(stmt.value)
            if extra is not None and self.facts.all_names is not None:
                self.facts.all_names = (*self.facts.all_names, *extra)

    def _qual(self, prefix: str, name: str) -> str:
        inner = f"{prefix}{name}"
        return f"{self.facts.name}.{inner}" if self.facts.name else inner

    def _function(
        self,
        node: FunctionNode,
        *,
        prefix: str,
        cls: str | None,
        parent: str | None,
        toplevel: bool,
    ) -> None:
        qualname = self._qual(prefix, node.name)
        if toplevel:
            self.facts.top.setdefault(node.name, qualname)
        doc, doc_line = _docstring(node.body)
        calls: list[CallRef] = []
        local_imports: dict[str, str] = {}
        nested: list[FunctionNode | ast.ClassDef] = []
        local_calls = self._scan_body(node, calls, local_imports, nested)
        decorators = [
            ref
            for d in node.decorator_list
            if (ref := dotted(d.func if isinstance(d, ast.Call) else d)) is not None
        ]
        func = FuncFacts(
            qualname=qualname,
            name=node.name,
            module=self.facts.name,
            path=self.facts.path,
            line=node.lineno,
            end_line=node.end_lineno or node.lineno,
            signature=_signature(node),
            params=_params(node),
            required=_required(node, cls is not None),
            docstring=doc,
            doc_line=doc_line,
            cls=cls,
            parent=parent,
            decorators=decorators,
            calls=calls,
            local_imports=local_imports,
            is_test=self.facts.is_test,
            local_calls=local_calls,
        )
        self.facts.functions.append(func)
        inner_prefix = f"{prefix}{node.name}.<locals>."
        for child in nested:
            if isinstance(child, ast.ClassDef):
                self._class(child, prefix=inner_prefix, parent=qualname, toplevel=False)
            else:
                self._function(
                    child, prefix=inner_prefix, cls=None, parent=qualname, toplevel=False
                )
        if self.facts.is_test:
            _ExpectFinder(self, func, node).run()

    def _class(
        self, node: ast.ClassDef, *, prefix: str, parent: str | None, toplevel: bool
    ) -> None:
        qualname = self._qual(prefix, node.name)
        if toplevel:
            self.facts.top.setdefault(node.name, qualname)
        doc, doc_line = _docstring(node.body)
        self.facts.classes.append(
            ClassFacts(
                qualname=qualname,
                name=node.name,
                module=self.facts.name,
                path=self.facts.path,
                line=node.lineno,
                bases=[ref for b in node.bases if (ref := dotted(b)) is not None],
                docstring=doc,
                doc_line=doc_line,
                is_test=self.facts.is_test,
            )
        )
        self._body(
            node.body, prefix=f"{prefix}{node.name}.", cls=qualname, parent=parent, toplevel=False
        )

    def _scan_body(
        self,
        func: FunctionNode,
        calls: list[CallRef],
        imports: dict[str, str],
        nested: list[FunctionNode | ast.ClassDef],
    ) -> dict[str, CallRef]:
        """Calls and imports of a function body, and the local names bound once to a call's
        result; nested definitions are set aside."""
        stack: list[ast.AST] = list(func.body)
        pop, push, extend = stack.pop, stack.append, stack.extend
        call_t, defs, assign_t = ast.Call, _DEF_TYPES, ast.Assign
        bound: dict[str, CallRef | None] = {}
        while stack:  # exact type tests, not isinstance: this loop visits every node
            node = pop()
            t = type(node)
            if t in defs:
                nested.append(node)  # type: ignore[arg-type]
                continue
            if t is call_t:
                ref = dotted(node.func)  # type: ignore[attr-defined]
                if ref is not None:
                    calls.append(ref)
            elif t is assign_t:
                _bind(node, bound)  # type: ignore[arg-type]
            elif t is ast.Import or t is ast.ImportFrom:
                self._import(node, imports)  # type: ignore[arg-type]
            for name in _child_fields(t):
                value = getattr(node, name, None)
                if value is None:
                    continue
                if type(value) is list:
                    extend(value)
                else:
                    push(value)
        nested.sort(key=lambda n: n.lineno)
        return {name: ref for name, ref in bound.items() if ref is not None}

    def snippet(self, first: int, last: int) -> str:
        last = min(last, first + SNIPPET_LINES - 1, len(self.lines))
        block = self.lines[first - 1 : last]
        indent = min((len(x) - len(x.lstrip()) for x in block if x.strip()), default=0)
        return clean("\n".join(x[indent:] for x in block))


class _ExpectFinder:
    """``with pytest.raises(...)``, ``self.assertRaises(...)`` and their callable forms."""

    def __init__(self, walker: _Walker, func: FuncFacts, node: FunctionNode) -> None:
        self.walker = walker
        self.func = func
        self.node = node
        self.strings: dict[str, str] = {}

    def run(self) -> None:
        self._block(self.node.body)

    def _name(self) -> str:
        facts = self.walker.facts
        inner = self.func.qualname[len(facts.name) + 1 :] if facts.name else self.func.qualname
        parts = inner.split(".<locals>.")[0].split(".")
        return "::".join([facts.path, *parts])

    def _kind(self, call: ast.Call) -> str | None:
        ref = dotted(call.func)
        if ref is None:
            return None
        last = ref[-1]
        kind = _EXPECT_CALLS.get(last)
        if kind is None:
            return None
        if kind.startswith("pytest."):
            head = ref[0]
            resolved = self.walker.facts.imports.get(head, head)
            full = ".".join((resolved, *ref[1:]))
            return kind if full in ("pytest.raises", "pytest.warns") else None
        return kind if ref[0] == "self" and len(ref) == 2 else None

    def _block(self, body: list[ast.stmt]) -> None:
        for i, stmt in enumerate(body):
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target = stmt.targets[0]
                value = _constant_string(stmt.value, self.strings)
                if isinstance(target, ast.Name) and value is not None:
                    self.strings[target.id] = value
            if isinstance(stmt, (ast.With, ast.AsyncWith)):
                for item in stmt.items:
                    expr = item.context_expr
                    if isinstance(expr, ast.Call) and (kind := self._kind(expr)) is not None:
                        as_name = (
                            item.optional_vars.id
                            if isinstance(item.optional_vars, ast.Name)
                            else None
                        )
                        self._with(stmt, expr, kind, as_name, body[i + 1 :])
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                call = stmt.value
                kind = self._kind(call)
                if kind is not None:
                    self._callable_form(stmt, call, kind)
            for child in _child_blocks(stmt):
                self._block(child)

    def _classes(self, node: ast.expr | None) -> list[CallRef]:
        if node is None:
            return []
        if isinstance(node, ast.Tuple):
            return [ref for e in node.elts if (ref := dotted(e)) is not None]
        ref = dotted(node)
        return [ref] if ref is not None else []

    def _match(self, call: ast.Call, kind: str) -> tuple[str | None, str | None]:
        node: ast.expr | None = None
        for kw in call.keywords:
            if kw.arg in ("match", "expected_regex"):
                node = kw.value
        if node is None and kind == "assertRaisesRegex" and len(call.args) > 1:
            node = call.args[1]
        if node is None:
            return None, None
        value = _constant_string(node, self.strings)
        if value is not None:
            source = None if isinstance(node, ast.Constant) else ast.unparse(node)
            return clean(value), source
        escaped = _escaped_string(node, self.strings)
        if escaped is not None:
            return escaped, ast.unparse(node)
        return None, ast.unparse(node)

    def _calls(self, nodes: list[ast.AST]) -> list[CallRef]:
        calls: list[CallRef] = []
        stack = list(nodes)
        while stack:
            node = stack.pop()
            if isinstance(node, ast.Call):
                ref = dotted(node.func)
                if ref is not None and ref[-1] not in _EXPECT_CALLS:
                    calls.append(ref)
            stack.extend(ast.iter_child_nodes(node))
        return calls

    def _add(
        self,
        stmt: ast.stmt,
        call: ast.Call,
        kind: str,
        calls: list[CallRef],
        match: tuple[str | None, str | None],
        literal: tuple[str, bool] | None = None,
    ) -> None:
        classes = self._classes(call.args[0] if call.args else None)
        if not classes:
            for kw in call.keywords:
                if kw.arg in ("expected_exception", "expected_warning"):
                    classes = self._classes(kw.value)
        if not classes:
            return
        value, source = match
        is_literal = False
        whole = False
        if value is None and literal is not None:
            value, whole = literal
            is_literal = True
        end = stmt.end_lineno or stmt.lineno
        self.walker.facts.expects.append(
            Expect(
                path=self.walker.facts.path,
                line=stmt.lineno,
                name=self._name(),
                kind=kind,
                classes=classes,
                match=value,
                match_is_literal=is_literal,
                match_whole=whole,
                match_source=source,
                snippet=self.walker.snippet(stmt.lineno, end),
                calls=calls,
                module=self.walker.facts.name,
                function=self.func.qualname,
            )
        )

    def _with(
        self,
        stmt: ast.With | ast.AsyncWith,
        call: ast.Call,
        kind: str,
        as_name: str | None,
        after: list[ast.stmt],
    ) -> None:
        literal = _literal_check(after, as_name, self.strings) if as_name else None
        calls = self._calls(list(stmt.body))
        self._add(stmt, call, kind, calls, self._match(call, kind), literal)

    def _callable_form(self, stmt: ast.stmt, call: ast.Call, kind: str) -> None:
        index = 2 if kind == "assertRaisesRegex" else 1
        if len(call.args) <= index:
            return
        target = call.args[index]
        calls: list[CallRef] = []
        ref = dotted(target)
        if ref is not None:
            calls.append(ref)
        else:
            calls = self._calls([target])
        self._add(stmt, call, kind, calls, self._match(call, kind))


def _bind(node: ast.Assign, bound: dict[str, CallRef | None]) -> None:
    """Note ``name = f(...)``; a name bound twice (or to anything else) is not followed."""
    ref = dotted(node.value.func) if isinstance(node.value, ast.Call) else None
    for target in node.targets:
        if isinstance(target, ast.Name):
            name = target.id
            bound[name] = ref if name not in bound else None


def _child_blocks(stmt: ast.stmt) -> list[list[ast.stmt]]:
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return []
    blocks: list[list[ast.stmt]] = []
    for name in ("body", "orelse", "finalbody"):
        block = getattr(stmt, name, None)
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
            blocks.append(block)
    for handler in getattr(stmt, "handlers", []) or []:
        blocks.append(handler.body)
    for case in getattr(stmt, "cases", []) or []:
        blocks.append(case.body)
    return blocks


def _constant_string(node: ast.expr, strings: dict[str, str]) -> str | None:
    """A string the test spells out: a constant, a local name bound to one, a sum of them."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return strings.get(node.id)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left = _constant_string(node.left, strings)
        right = _constant_string(node.right, strings)
        return None if left is None or right is None else left + right
    return None


def _escaped_string(node: ast.expr, strings: dict[str, str]) -> str | None:
    """``re.escape("...")``: the regex that matches the literal text."""
    if (
        isinstance(node, ast.Call)
        and len(node.args) == 1
        and (ref := dotted(node.func)) is not None
        and ref[-1] == "escape"
    ):
        value = _constant_string(node.args[0], strings)
        return re.escape(value) if value is not None else None
    return None


def _literal_check(
    after: list[ast.stmt], as_name: str, strings: dict[str, str]
) -> tuple[str, bool] | None:
    """``assert "x" in str(e.value)`` (or ``== str(e.value)``) right after the with block."""
    for stmt in after[:3]:
        if not isinstance(stmt, ast.Assert) or not isinstance(stmt.test, ast.Compare):
            continue
        test = stmt.test
        if len(test.ops) != 1:
            continue
        left, right = test.left, test.comparators[0]
        op = test.ops[0]
        if isinstance(op, ast.In) and _is_str_of(right, as_name):
            value = _constant_string(left, strings)
            if value is not None:
                return value, False
        if isinstance(op, ast.Eq):
            for a, b in ((left, right), (right, left)):
                if _is_str_of(a, as_name):
                    value = _constant_string(b, strings)
                    if value is not None:
                        return value, True
    return None


def _is_str_of(node: ast.expr, as_name: str) -> bool:
    """``str(e.value)`` or ``str(e)`` for the ``as`` name of the with block."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "str"
        and len(node.args) == 1
    ):
        return False
    arg = node.args[0]
    if isinstance(arg, ast.Attribute) and arg.attr in ("value", "exception"):
        arg = arg.value
    return isinstance(arg, ast.Name) and arg.id == as_name
