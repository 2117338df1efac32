"""One walk per file: a module's definitions, imports and calls, reduced to facts.

Each file is parsed once; the walk visits every node of a function body with exact
type tests, since it runs over every file of a repository and its tests.
"""

from __future__ import annotations

import ast

from errdex.extract._downgrade import parse_any
from errdex.extract.python.guards import is_elif
from errdex.extract.python.params import parameter_names
from errdex.extract.source_lines import source_lines

from .astfields import child_fields as _child_fields
from .binds import Binds, bind_alias, bind_call, class_alias, class_calls
from .body_extras import body_extras
from .call_paths import call_conditions
from .callsites import call_sites
from .class_body import assigned_names
from .class_shape import opaque_class
from .compiled_patterns import compiled_patterns
from .def_shape import decorator_refs, lambda_yields
from .early_exits import early_exits
from .early_raises import early_raises
from .expects import ExpectFinder
from .facts import CallRef, ClassFacts, FuncFacts, FunctionNode, ModuleFacts, clean, dotted
from .held_reads import Changes, module_changes
from .local_values import reaching_values
from .module_all import note_all, string_list
from .package_twins import alternatives, typing_only
from .platforms import (
    BUILTIN_NAMES,
    PLATFORM_MODULES,
    builtin_names,
    flag_names,
    holds_here,
    platform_words,
)
from .script_mains import command_line, main_block
from .settled import (
    DRAINING,
    FILLING,
    Raw,
    changed_names,
    literal_rebinds,
    local_constants,
    note_top_assign,
    settled_names,
)
from .shadows import shadowing_imports
from .stale_imports import hard_imports
from .twin_tests import fresh_reads
from .twins import dead_handlers, twin_facts
from .value_sets import local_sets

__all__ = ["SNIPPET_LINES", "module_facts"]

#: Lines of a test expectation shown as its snippet.
SNIPPET_LINES = 8


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
    walker = _Walker(facts, source_lines(text))
    walker.module(tree)
    facts.bound_calls = {n: ref for n, ref in walker.bound.items() if ref is not None}
    facts.patterns = compiled_patterns(tree)
    facts.platform_names = {k: v for k, v in facts.platform_names.items() if v}
    facts.aliases = {n: ref for n, ref in walker.aliases.items() if ref is not None}
    facts.settled = settled_names(walker.settled, walker.written, {*facts.imports, *facts.top})
    if is_test:
        facts.fresh, facts.fresh_names = fresh_reads(tree, text)
    package = module if facts.is_package else module.rpartition(".")[0]
    twins = twin_facts(tree, package)
    facts.rebound, facts.fallbacks = twins.rebound, twins.fallbacks
    facts.alternatives = list(alternatives(tree, package))
    facts.typing_only = typing_only(tree, package)
    facts.hard_imports = hard_imports(tree)
    shadows = {**twins.replaced, **shadowing_imports(tree, package)}
    facts.shadowed = {
        name: (s.module, s.line, s.conditional, s.guard, s.caught) for name, s in shadows.items()
    }
    return facts


#: A platform test is short: a longer expression is not parsed again to find out.
_PLATFORM_TEST_CHARS = 200
_DEF_TYPES = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef})
#: Statements and expressions binding a name that holds nothing a test calls through.
_OTHER_BINDS = frozenset({ast.AugAssign, ast.AnnAssign, ast.NamedExpr})


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
    return tuple(parameter_names(node.args, marked=True))


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


class _Walker:
    """Collects a module's facts in one pass over its statements."""

    def __init__(self, facts: ModuleFacts, lines: list[str]) -> None:
        self.facts = facts
        self.lines = lines
        package = facts.name if facts.is_package else facts.name.rpartition(".")[0]
        self.package = package
        self.abstract: set[str] = set()  # classes with an ``@abstractmethod``
        #: Inside the ``except ImportError`` of a ``try`` whose imports work here
        #: (``analyze.twins``): its imports bind nothing at run time.
        self.in_dead_handler = False
        self.bound: dict[str, CallRef | None] = {}  # top-level names bound to a call
        #: The platform words of the module or class ``if`` being walked (FuncFacts.platform).
        self.platform: str | None = None
        self.aliases: dict[str, CallRef | None] = {}  # ... and to a dotted name
        self.settled: Raw = {}  # ... and to anything, with the literal (ModuleFacts.settled)
        self.written: set[str] = set()  # names a function declares ``global``
        #: Inside a module's ``if __name__ == "__main__":`` (FuncFacts.script_only).
        self.script = False
        self.changed: Changes | None = None  # attributes it may change (held_reads)

    # -- module level -------------------------------------------------------------

    def module(self, tree: ast.Module) -> None:
        self.changed = module_changes(tree)
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
                if not self.in_dead_handler:  # a fallback that does not run binds nothing
                    self._import(stmt, self.facts.imports)
                    if self.platform is not None and cls is None:
                        self._platform_import(stmt, self.platform)
            elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._function(stmt, prefix=prefix, cls=cls, parent=parent, toplevel=toplevel)
            elif isinstance(stmt, ast.ClassDef):
                self._class(stmt, prefix=prefix, parent=parent, toplevel=toplevel)
            elif isinstance(stmt, ast.Expr) and toplevel and cls is None:
                note_all(stmt, self.facts)  # ``__all__.append("popen")``
            elif isinstance(stmt, (ast.Assign, ast.AugAssign)) and toplevel:
                if cls is None:
                    note_all(stmt, self.facts)
                note_top_assign(stmt, self.settled)
                if isinstance(stmt, ast.Assign):
                    self._fresh_module(stmt)
                    self._platform_name(stmt)
                    bind_call(stmt, self.bound)
                    bind_alias(stmt, self.aliases)
            elif isinstance(stmt, ast.If):
                outer = self.platform  # ``if sys.platform == "win32": def f(): ...``
                on, off = self._platform_of(stmt.test)
                self.platform = on or outer
                script = self.script
                self.script = script or (toplevel and cls is None and main_block(stmt.test))
                self._body(stmt.body, prefix=prefix, cls=cls, parent=parent, toplevel=toplevel)
                self.script = script
                self.platform = off or outer
                self._body(stmt.orelse, prefix=prefix, cls=cls, parent=parent, toplevel=toplevel)
                self.platform = outer
            elif isinstance(stmt, (ast.Try, ast.TryStar)):
                dead = toplevel and dead_handlers(stmt, self.package)
                for block in (stmt.body, *(h.body for h in stmt.handlers), stmt.orelse):
                    was_dead = self.in_dead_handler
                    self.in_dead_handler = was_dead or (
                        dead and block is not stmt.body and block is not stmt.orelse
                    )
                    self._body(block, prefix=prefix, cls=cls, parent=parent, toplevel=toplevel)
                    self.in_dead_handler = was_dead
                if toplevel:
                    self._platform_flag(stmt)
            elif isinstance(stmt, (ast.With, ast.AsyncWith)):
                self._body(stmt.body, prefix=prefix, cls=cls, parent=parent, toplevel=toplevel)

    def _platform_import(self, stmt: ast.Import | ast.ImportFrom, on: str) -> None:
        """An import under a module ``if`` on the platform: what it binds there; the
        import of the platform this interpreter runs on is the one ``imports`` keeps."""
        bound: dict[str, str] = {}
        self._import(stmt, bound)
        for name, module in bound.items():
            self.facts.platform_imports.setdefault(name, {})[on] = module
            here = [
                m for words, m in self.facts.platform_imports[name].items() if holds_here(words)
            ]
            if here:
                self.facts.imports[name] = here[0]

    def _platform_of(self, test: ast.expr) -> tuple[str | None, str | None]:
        """A module or class body's ``if`` on the platform: (its words, its else's)."""
        if not isinstance(test, (ast.Compare, ast.Call, ast.UnaryOp, ast.BoolOp, ast.Name)):
            return None, None
        text = ast.unparse(test)
        if len(text) >= _PLATFORM_TEST_CHARS:
            return None, None
        imports, constants = self.facts.imports, self.facts.platform_names
        on = platform_words(text, imports, constants)
        if on is None:
            return None, None
        return on, platform_words(f"not ({text})", imports, constants)

    def _platform_flag(self, stmt: ast.Try | ast.TryStar) -> None:
        """``try: import msvcrt`` / ``except ImportError: _mswindows = False`` / ``else:
        _mswindows = True`` (``subprocess``): the flag is the module's platform test; of
        another module (``import ssl`` / ``_have_ssl``), whether this Python can import it."""
        aliases = [x.names for x in stmt.body if isinstance(x, ast.Import)]
        imported = [a.asname or a.name for n in aliases for a in n if a.name in PLATFORM_MODULES]
        if len(stmt.handlers) != 1:
            return
        off = flag_names(stmt.handlers[0].body, False)
        on = flag_names(stmt.orelse, True) | flag_names(stmt.body, True)
        for name in off & on:
            if len(imported) == 1:
                self.facts.platform_names[name] = imported[0]
            elif len(aliases) == 1 and len(aliases[0]) == 1:  # ``_have_ssl``: ``import ssl`` worked
                self.facts.import_flags[name] = aliases[0][0].name

    def _platform_name(self, stmt: ast.Assign) -> None:
        """``_mswindows = (sys.platform == "win32")``: kept when bound once to a test."""
        if len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name):
            return
        name = stmt.targets[0].id
        found = self.facts.platform_names
        if name in found:
            found[name] = ""  # bound twice: no one test
            return
        value = stmt.value
        if builtin_names(value, self.facts.imports, {}):
            found[name] = BUILTIN_NAMES  # ``_names = sys.builtin_module_names`` (``os``)
            return
        if not isinstance(value, (ast.Compare, ast.Call, ast.UnaryOp, ast.BoolOp)):
            found[name] = ""
            return
        text = ast.unparse(value)
        short = len(text) < _PLATFORM_TEST_CHARS
        found[name] = text if short and platform_words(text, self.facts.imports) else ""

    def _fresh_module(self, stmt: ast.Assign) -> None:
        """``py_heapq = import_fresh_module("heapq", blocked=["_heapq"])`` binds the
        module as an import would (CPython's suites test the pure-Python module so); with
        ``fresh=`` naming another module (the C accelerator) it is not the module's source."""
        call = stmt.value
        if not (isinstance(call, ast.Call) and call.args and len(stmt.targets) == 1):
            return
        target, ref, first = stmt.targets[0], dotted(call.func), call.args[0]
        if not isinstance(first, ast.Constant) or not isinstance(first.value, str):
            return
        name = first.value
        if not isinstance(target, ast.Name) or ref is None:
            return
        if ref[-1] != "import_fresh_module":
            return
        for kw in call.keywords:
            if kw.arg == "fresh" and string_list(kw.value) not in ([], [name]):
                return
        self.facts.imports[target.id] = name

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
        binds = Binds()
        argv: list[tuple[CallRef, bool]] = []
        skips: dict[int, tuple[int, int]] = {}
        local_calls, yields = self._scan_body(
            node, calls, local_imports, nested, binds, qualname, argv, skips
        )
        local_binds, returns = binds.result(local_calls)
        decorators, odd_decorators = decorator_refs(node)
        lines: dict[str, list[int]] = {}
        sites, rebound = (
            ([], frozenset()) if self.facts.is_test else call_sites(node, lines, self.package)
        )
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
            posonly=tuple(x.arg for x in node.args.posonlyargs),
            kwonly=tuple(x.arg for x in node.args.kwonlyargs),
            docstring=doc,
            doc_line=doc_line,
            cls=cls,
            parent=parent,
            decorators=decorators,
            odd_decorators=odd_decorators,
            calls=calls,
            local_imports=local_imports,
            is_test=self.facts.is_test,
            local_calls=local_calls,
            local_binds=local_binds,
            returns=returns,
            call_sites=sites,
            rebound=rebound,
            bound_lines={name: tuple(at) for name, at in lines.items()},
            is_async=isinstance(node, ast.AsyncFunctionDef),
            is_generator=yields,
            cls_abstract=cls is not None and cls in self.abstract,
            platform=self.platform,
            else_skips=skips,
            script_only=self.script,
            # the module's imports above the definition: those below are rare in a module
            command_line=command_line(
                calls,
                argv,
                {**self.facts.imports, **local_imports},
                takes_arguments=len(_params(node)) > (cls is not None),
            ),
            local_consts=local_constants(binds.literals, lines, _params(node)),
            param_literals=literal_rebinds(binds.literal_lines, lines, _params(node)),
            filled=changed_names(binds.item_stores, calls, FILLING),
            drained=changed_names(binds.item_deletes, calls, DRAINING),
            local_values=(
                {}
                if self.facts.is_test
                else reaching_values(node, _params(node), lines, local_imports)
            ),
            local_sets={} if self.facts.is_test else local_sets(node, _params(node)),
            **body_extras(node, self.facts.is_test),
            call_conditions=call_conditions(
                node, _params(node), rebound, {site.line for site in sites}
            ),
            early_raises=() if self.facts.is_test else early_raises(node, self.changed),
            early_exits=() if self.facts.is_test else early_exits(node, self.changed),
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
            ExpectFinder(self.facts, func, node, self.snippet).run()

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
                attrs={
                    t.id: ref
                    for x in node.body
                    if isinstance(x, ast.Assign) and len(x.targets) == 1
                    for t in x.targets
                    if isinstance(t, ast.Name) and (ref := class_alias(x.value)) is not None
                },
                attr_calls=class_calls(node.body),
                assigned=assigned_names(node.body),
                opaque=opaque_class(node),
                metaclass=next(
                    (dotted(k.value) for k in node.keywords if k.arg == "metaclass"), None
                ),
            )
        )
        if _is_abstract(node):
            self.abstract.add(qualname)
        self._body(
            node.body, prefix=f"{prefix}{node.name}.", cls=qualname, parent=parent, toplevel=False
        )

    def _scan_body(
        self,
        func: FunctionNode,
        calls: list[CallRef],
        imports: dict[str, str],
        nested: list[FunctionNode | ast.ClassDef],
        binds: Binds,
        qualname: str,
        argv: list[tuple[CallRef, bool]],
        skips: dict[int, tuple[int, int]],
    ) -> tuple[dict[str, CallRef], bool]:
        """Calls and imports of a function body, the local names bound once to a call's
        result, and whether it yields; nested definitions are set aside, ``binds`` notes
        the other bindings and the returns, ``argv`` the dotted ``….argv`` names used (and
        whether assigned to), ``skips`` the body each ``else`` guard skips
        (:attr:`FuncFacts.else_skips`), and handlers that keep what they catch go to the
        module's ``handled``."""
        stack: list[ast.AST] = list(func.body)
        pop, push, extend = stack.pop, stack.append, stack.extend
        call_t, defs, assign_t = ast.Call, _DEF_TYPES, ast.Assign
        bound: dict[str, CallRef | None] = {}
        yields = False
        in_lambdas: set[int] = set()  # ``lambda: (yield)`` makes the lambda a generator
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
                bind_call(node, bound)  # type: ignore[arg-type]
                binds.assign(node)  # type: ignore[arg-type]
            elif t is ast.With or t is ast.AsyncWith:
                binds.with_items(node)  # type: ignore[arg-type]
            elif t is ast.For or t is ast.AsyncFor or t in _OTHER_BINDS:
                binds.other(node.target)  # type: ignore[attr-defined]
            elif t is ast.Return:
                binds.returns.append(node.value)  # type: ignore[attr-defined]
            elif t is ast.Import or t is ast.ImportFrom:
                self._import(node, imports)  # type: ignore[arg-type]
            elif t is ast.Delete:
                binds.delete(node)  # type: ignore[arg-type]
            elif t is ast.Yield or t is ast.YieldFrom:
                yields = yields or id(node) not in in_lambdas
            elif t is ast.Global:
                self.written.update(node.names)  # type: ignore[attr-defined]
            elif t is ast.ExceptHandler and not self.facts.is_test:
                self._handler(node, qualname)  # type: ignore[arg-type]
            elif t is ast.If and node.orelse:  # type: ignore[attr-defined]
                self._else_skip(node, skips)  # type: ignore[arg-type]
            elif t is ast.Attribute and node.attr == "argv":  # type: ignore[attr-defined]
                ref = dotted(node)  # type: ignore[arg-type]
                if ref is not None:  # ``sys.argv = [...]``
                    argv.append((ref, type(node.ctx) is ast.Store))  # type: ignore[attr-defined]
            elif t is ast.Lambda:
                in_lambdas |= lambda_yields(node)  # type: ignore[arg-type]
            elif t is ast.Subscript and type(node.ctx) is ast.Store:  # type: ignore[attr-defined]
                value = node.value  # type: ignore[attr-defined]
                ref = dotted(value) if type(value) is ast.Attribute else None
                if ref is not None and ref[-1] == "argv":  # ``sys.argv[0] = script_name``
                    argv.append((ref, True))
            for name in _child_fields(t):
                value = getattr(node, name, None)
                if value is None:
                    continue
                if type(value) is list:
                    extend(value)
                else:
                    push(value)
        nested.sort(key=lambda n: n.lineno)
        return {name: ref for name, ref in bound.items() if ref is not None}, yields

    def _else_skip(self, node: ast.If, skips: dict[int, tuple[int, int]]) -> None:
        """The lines of ``node``'s body, under the line the extractor gives the ``else``
        guard of its ``orelse`` (the ``if``'s own before an ``elif``, else the first line
        of the ``else`` block: :func:`errdex.extract.python.guards.write_guard`)."""
        orelse = node.orelse
        to_elif = len(orelse) == 1 and type(orelse[0]) is ast.If and is_elif(orelse[0], self.lines)
        key = node.lineno if to_elif else orelse[0].lineno
        skips[key] = (node.body[0].lineno, node.body[-1].end_lineno or node.body[-1].lineno)

    def _handler(self, node: ast.ExceptHandler, qualname: str) -> None:
        if node.type is None or _raises_again(node):
            return
        types = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
        for t in types:
            ref = dotted(t)
            if ref is not None and ref[0]:
                self.facts.handled.setdefault(".".join(ref), []).append((qualname, node.lineno))

    def snippet(self, first: int, last: int) -> str:
        last = min(last, first + SNIPPET_LINES - 1, len(self.lines))
        block = self.lines[first - 1 : last]
        indent = min((len(x) - len(x.lstrip()) for x in block if x.strip()), default=0)
        return clean("\n".join(x[indent:] for x in block))


_ABSTRACT_DECORATORS = frozenset({"abstractmethod", "abstractproperty"})


def _raises_again(handler: ast.ExceptHandler) -> bool:
    """A bare ``raise`` (or ``raise e`` of the caught name) in the handler's own body."""
    stack: list[ast.AST] = list(handler.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Raise) and (
            node.exc is None or (isinstance(node.exc, ast.Name) and node.exc.id == handler.name)
        ):
            return True
        stack.extend(ast.iter_child_nodes(node))
    return False


def _is_abstract(node: ast.ClassDef) -> bool:
    """An ``@abstractmethod`` in the class body: instantiating it (under ``ABCMeta``)
    raises ``TypeError``, so no snippet should."""
    for stmt in node.body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for d in stmt.decorator_list:
                ref = dotted(d.func if isinstance(d, ast.Call) else d)
                if ref is not None and ref[-1] in _ABSTRACT_DECORATORS:
                    return True
    return False
