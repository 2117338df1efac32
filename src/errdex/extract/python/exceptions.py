"""What a raise raises: the exception class, how it is built, and the message it carries.

A class called directly, an exception built by a helper of the module, one bound to a
name earlier, or a class of the module whose ``__init__`` formats the message from its
arguments; and how ``str()`` of the builtins prints several arguments.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterator, Sequence

from errdex.template import MessageTemplate

from .builders import BuilderReader, Unfollowed
from .held_tuple import held_item
from .key_repr import not_text
from .literals import group_message, quoted_repr, style_of
from .lost_caught import deleted_name_message, handler_names
from .messages import MAX_ALTERNATIVES, Templates
from .module import BUILTIN_EXCEPTIONS
from .scope import Scope, bind_assignment

__all__ = ["ExceptionReader"]

_LOST = (
    "`{0}` is the name an enclosing `except … as {0}` binds, which Python deletes when "
    "the handler ends: a call of this function after it raises NameError"
)
#: Builtins whose ``str()`` is the repr of their single argument.
_REPR_STR_EXCEPTIONS = frozenset({"KeyError"})
#: Builtins whose ``str()`` of several arguments is not the tuple repr.
_CUSTOM_STR_EXCEPTIONS = frozenset(
    name
    for name in BUILTIN_EXCEPTIONS
    if issubclass(getattr(builtins, name), (OSError, UnicodeError, SyntaxError, ImportError))
)
#: Builtins whose ``str()`` is ``message (N sub-exceptions)``.
_GROUPS = frozenset({"ExceptionGroup", "BaseExceptionGroup"})
_OSERROR_FAMILY = frozenset(
    name for name in BUILTIN_EXCEPTIONS if issubclass(getattr(builtins, name), OSError)
)


#: Calls that hand back an exception object made elsewhere, at run time: a stored one
#: (``my_exceptions.pop()``, ``events.popleft()``, ``next(side_effect)``) or a future's
#: (``d.exception()``, ``self._exception.with_traceback(tb)``).
_TAKING = frozenset({"pop", "popleft", "exception", "with_traceback"})
_TAKEN_OUT = (
    "re-raises the exception `{}` hands back, made elsewhere at run time: its message is"
    " that exception's own, so a paste of it alone can only be told from other such sites"
    " by its frames"
)


def _takes_out(func: ast.expr) -> bool:
    if isinstance(func, ast.Attribute):
        return func.attr in _TAKING
    return isinstance(func, ast.Name) and func.id == "next"


class ExceptionReader(BuilderReader):
    """Resolves the exception of a ``raise`` (or ``warn``) to its class and message."""

    def __init__(self, source: str, file_path: str, module: str, fields: dict[str, str]) -> None:
        super().__init__(source, file_path, module, fields)
        self._helper_cache: dict[int, tuple[ast.Call, Scope] | None] = {}
        #: Notes on how the last message resolved away from its raise was built.
        self.derived: list[str] = []
        self._handler_names: frozenset[str] | None = None

    def _lost(self, name: str, scope: Scope) -> str | None:
        """:func:`.lost_caught.deleted_name_message`, read only for a name some handler of
        the module binds (a module's ``as`` names are listed once)."""
        tree = getattr(self, "_tree", None)
        if tree is None:
            return None
        if self._handler_names is None:
            self._handler_names = handler_names(tree)
        if name not in self._handler_names:
            return None
        return deleted_name_message(tree, scope.node, name)

    def _resolve_raised(
        self, exc: ast.expr, scope: Scope, depth: int = 0
    ) -> Iterator[tuple[ast.expr | None, str, list[str]]]:
        """What a raise raises: a class or a construction call, or None when unknown."""
        if isinstance(exc, ast.Call):
            if self._is_class_expr(exc.func, scope):
                yield exc, "direct", []
                return
            held = held_item(self, exc.func, scope)
            if held is not None:
                # ``error[0](…)``: the class the tuple holds, called with the line's arguments
                call = ast.copy_location(ast.Call(held, exc.args, exc.keywords), exc)
                yield call, "direct", [f"class held in `{self.expr_text(exc.func)}`"]
                return
            helper = self._helper(exc.func, scope)
            if helper is not None:
                helper_call, _ = helper
                yield helper_call, "helper_call", [f"built by helper {self.expr_text(exc.func)}"]
                return
            if _takes_out(exc.func):
                text = self.expr_text(exc)
                yield None, "helper_call", [f"irreducible: {_TAKEN_OUT.format(text)}"]
                return
            yield None, "helper_call", [f"built by {self.expr_text(exc.func)}(), not resolved"]
            return
        if isinstance(exc, ast.Name):
            if exc.id in scope.caught:
                yield None, "reraise", []
                return
            bound = scope.env.get(exc.id)
            if bound is not None and depth < 3:
                for thunk in bound[:MAX_ALTERNATIVES]:
                    if isinstance(thunk, ast.Call) and self._is_class_expr(thunk.func, scope):
                        yield thunk, "prebuilt_exception", []
                    elif isinstance(thunk, ast.Call):
                        yield from (
                            (c, "prebuilt_exception" if s == "direct" else s, n)
                            for c, s, n in self._resolve_raised(thunk, scope, depth + 1)
                        )
                    else:
                        yield None, "variable", []
                return
            if self._is_class_expr(exc, scope):
                yield exc, "class_no_args", []
                return
            lost = self._lost(exc.id, scope) if bound is None else None
            if lost is not None:  # ``except … as e: def f(): raise e`` (:mod:`.lost_caught`)
                error = ast.Call(ast.Name("NameError", ast.Load()), [ast.Constant(lost)], [])
                yield ast.copy_location(error, exc), "unbound_name", [_LOST.format(exc.id)]
                return
            yield None, "variable", []
            return
        if isinstance(exc, ast.Attribute) and self._is_class_expr(exc, scope):
            yield exc, "class_no_args", []
            return
        yield None, "other_expr", []

    def _helper_def(
        self, func: ast.expr, scope: Scope
    ) -> tuple[ast.FunctionDef | ast.AsyncFunctionDef | None, str | None]:
        """The same-module function, or this class's method (``self._error()``), called:
        (its definition or None, the class it is a method of)."""
        if isinstance(func, ast.Name):
            return self.functions.get(func.id), None
        if (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id in ("self", "cls")
            and scope.class_name
        ):
            return self.methods.get((scope.class_name, func.attr)), scope.class_name
        return None, None

    def _helper(self, func: ast.expr, scope: Scope) -> tuple[ast.Call, Scope] | None:
        """A same-module function or method that returns a constructed exception."""
        target, class_name = self._helper_def(func, scope)
        if target is None:
            return None
        key = id(target)
        if key not in self._helper_cache:
            self._helper_cache[key] = None
            qual = f"{class_name}.{target.name}" if class_name else target.name
            helper_scope = Scope(
                qualname=qual, function=target.name, class_name=class_name, env={}, node=target
            )
            self._helper_cache[key] = self._find_returned_exception(target.body, helper_scope)
        return self._helper_cache[key]

    def _find_returned_exception(
        self, body: Sequence[ast.stmt], scope: Scope
    ) -> tuple[ast.Call, Scope] | None:
        for stmt in body:
            if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                bind_assignment(stmt, scope)
            elif isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Call):
                if self._is_class_expr(stmt.value.func, scope):
                    return stmt.value, Scope(
                        scope.qualname, scope.function, scope.class_name, dict(scope.env)
                    )
            elif isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Name):
                for thunk in scope.env.get(stmt.value.id, ()):
                    if isinstance(thunk, ast.Call) and self._is_class_expr(thunk.func, scope):
                        return thunk, Scope(
                            scope.qualname, scope.function, scope.class_name, dict(scope.env)
                        )
            elif isinstance(stmt, ast.If):
                found = self._find_returned_exception(
                    stmt.body, scope
                ) or self._find_returned_exception(stmt.orelse, scope)
                if found:
                    return found
        return None

    def _exception_parts(self, node: ast.expr, scope: Scope) -> tuple[str, str, Templates, str]:
        """(qualified class, class as shown, message templates, message style); how a
        message built elsewhere was derived is left in ``self.derived``."""
        self.derived = []
        call = node if isinstance(node, ast.Call) else None
        class_expr = call.func if call is not None else node
        qualified = self.qualify(class_expr)
        shown = qualified.rpartition(".")[2]
        helper_scope = scope
        cached = [v for v in self._helper_cache.values() if v is not None and v[0] is call]
        if cached:
            helper_scope = cached[0][1]
        plain = self._plain_parts(qualified, shown, call, helper_scope)
        built = self.built_by_class(qualified, call, helper_scope)
        if isinstance(built, Unfollowed):
            # the class builds its message in a way not followed: not known, not guessed
            self.derived = [f"message built by {built.builder}, not followed"]
            expression = self.expr_text(call) if call is not None else self.expr_text(node)
            return qualified, shown, [MessageTemplate.unknown_message(expression)], "class_init"
        if built is None or built.templates == plain[2]:
            # what the line shows is what prints: no derivation to report, only what the
            # reading left out (a ``__str__``'s longer forms)
            self.derived = list(built.remarks) if built is not None else []
            return plain
        self.derived = [derivation(built.notes), *built.remarks]
        return qualified, shown, built.templates, "class_init"

    def _plain_parts(
        self, qualified: str, shown: str, call: ast.Call | None, helper_scope: Scope
    ) -> tuple[str, str, Templates, str]:
        """The message as the raise line's own arguments give it, by the builtins' rules."""
        if call is None:
            return qualified, shown, [MessageTemplate()], "class_no_args"
        args = [a for a in call.args if not isinstance(a, ast.Starred)]
        if not call.args:
            message_kw = next((k.value for k in call.keywords if k.arg in ("msg", "message")), None)
            if message_kw is None:
                return qualified, shown, [MessageTemplate()], "class_no_args"
            args = [message_kw]
        starred = next((a for a in call.args if isinstance(a, ast.Starred)), None)
        if starred is not None:  # ``X(*parts)``: the message is whatever the list holds
            templates = [MessageTemplate.expression(self.expr_text(starred))]
            return qualified, shown, templates, "other_expr"
        style = style_of(args[0])
        if len(args) == 1:
            templates = self.templates(args[0], helper_scope)
            if (
                shown in _REPR_STR_EXCEPTIONS
                and qualified == f"builtins.{shown}"
                and not not_text(args[0], helper_scope)
            ):
                templates = [quoted_repr(t) for t in templates]
            return qualified, shown, templates, style
        if shown in _OSERROR_FAMILY and qualified == f"builtins.{shown}" and len(args) in (2, 3):
            # OSError(errno, strerror[, filename]) prints "[Errno 2] strerror: 'filename'"
            errno, strerror = (self.templates(a, helper_scope)[0] for a in args[:2])
            template = (
                MessageTemplate.literal("[Errno ")
                + errno
                + MessageTemplate.literal("] ")
                + strerror
            )
            if len(args) == 3:
                filename = self.templates(args[2], helper_scope)[0]
                template += MessageTemplate.literal(": ") + (
                    filename if filename.is_opaque else quoted_repr(filename)
                )
            return qualified, shown, [template], "multiple_args"
        if shown in _GROUPS and qualified == f"builtins.{shown}" and len(args) == 2:
            message = self.templates(args[0], helper_scope)
            excs = args[1]
            count = (
                len(excs.elts)
                if isinstance(excs, (ast.List, ast.Tuple))
                and not any(isinstance(e, ast.Starred) for e in excs.elts)
                else None
            )
            source = self.expr_text(excs)
            return qualified, shown, [group_message(t, count, source) for t in message], style
        if self._prints_args_tuple(qualified, shown):
            # ``ValueError("bad", x)`` prints as the tuple repr: ('bad', <x>)
            return qualified, shown, self.tuple_reprs(args, helper_scope, 0), "multiple_args"
        return qualified, shown, self.templates(args[0], helper_scope), style

    def _prints_args_tuple(self, qualified: str, shown: str) -> bool:
        """Whether ``str(exc)`` of several arguments is ``BaseException``'s tuple repr.

        True for builtins other than the OSError/UnicodeError/SyntaxError/ImportError
        families, and for classes of this module that define neither ``__init__`` nor
        ``__str__``; classes from elsewhere are assumed to keep the default.
        """
        if qualified == f"builtins.{shown}":
            return shown not in _CUSTOM_STR_EXCEPTIONS
        local = self.classes.get(shown) if qualified == f"{self.module}.{shown}" else None
        if local is None:
            return True
        return not any(
            isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
            and item.name in ("__init__", "__str__")
            for item in local.body
        )


def derivation(steps: list[str]) -> str:
    """``message built by `Parser.parse_error`, then `ParseError.__init__```."""
    return "message built by " + ", then ".join(steps)
