"""Messages built away from the raise: by a helper that returns the exception, or by the
exception class's own ``__init__``.

``raise self.parse_error(InvalidNumberError)`` prints what ``Source.parse_error`` builds
when it calls ``exception(line, col, *args)``, which is what ``InvalidNumberError.__init__``
hands to ``ParseError.__init__``, which formats ``f"{message} at line {line} col {col}"``.
This module follows such a chain the way the interpreter would: the call's arguments
bound to the callee's parameters (defaults, ``*args`` and ``**kwargs`` included), the
callee's statements in order, ``super().__init__`` along the class's MRO, ``self.x[key]``
looked up where the class hierarchy defines it. A branch is followed only when its
condition is decided by what is known (``message is None`` with ``message`` given); a
statement it cannot follow ends the chain with no answer, so the raise keeps what its own
line shows. Where an argument is a literal, the callee's parameter is filled with it;
otherwise the parameter stays a hole named as the callee names it.
"""

from __future__ import annotations

import ast
from typing import Any

from errdex.template import MessageTemplate

from .attributes import lookup_key
from .built import Built, Unfollowed
from .builtin_str import args_message, assigned_args, builtin_class, builtin_message
from .called import NestedClass, called_class, is_parameter, self_class
from .frames import (
    MAX_DEPTH,
    Args,
    ClassValue,
    Fail,
    Frame,
    Function,
    SelfBinding,
    Text,
    aliased_init,
    empty_scope,
    mro_position,
)
from .hierarchy import ClassRef, Node, defines, method_of
from .messages import MAX_ALTERNATIVES, Templates
from .printers import PrinterReader, as_given, left_out, opaque_given
from .returns import returned_ways
from .scope import Scope
from .settled import overridden_below
from .subtree import walked

__all__ = ["BuilderReader", "Built", "SelfBinding", "Unfollowed"]


class BuilderReader(PrinterReader):
    """Follows helpers and ``__init__`` methods of the repository to the message they build."""

    #: The ``self.method(…)`` calls whose returned text is being read: a call met again
    #: inside its own reading is not read twice (it would never end).
    _returning: set[int] | None = None

    # -- entry points ---------------------------------------------------------------------
    def built_by_helper(self, call: ast.Call, scope: Scope) -> Built | None:
        """``raise helper(...)``: the class and message the helper's returned exception has."""
        held = self_class(self, call.func, scope)
        if isinstance(held, NestedClass):
            # ``raise self.error("…")`` of ``class error(Exception): pass`` in the class body
            try:
                args = self._arguments(call, scope, {})
                message = builtin_message(list(held.builtin.__mro__), args)
            except Fail:
                return None
            note = f"`{self.expr_text(call.func)}`, the class `{held.qualified}`"
            return Built(held.qualified, [message], [note])
        called = held if held is not None else called_class(self, call.func, scope)
        if called is not None:
            # ``raise error("too many groups")``: a class named in lower case is no helper
            alias = f"`{self.expr_text(call.func)}`, which is `{called.removeprefix('builtins.')}`"
            notes = [] if self.class_ref(called) is not None else [alias]
            try:
                return self._construct_each(called, call, scope, notes)
            except Fail:
                return None
        target = self._callee(call.func, scope, None)
        if target is None:
            return None
        reader, fn, binding, defining = target
        try:
            args = self._arguments(call, scope, {})
            first = reader._run_helper(fn, reader._helper_frame(fn, args, binding, defining, [], 0))
            if first is None:
                return None
            if binding is None or not binding.used:
                return first
            # ``self`` may be any subclass: each one its module defines may say otherwise
            out = list(first.templates)
            for sub in binding.ref.reader.subclasses(binding.ref):
                frame = reader._helper_frame(fn, args, SelfBinding(sub), defining, [], 0)
                other = reader._run_helper(fn, frame)
                if other is None or other.qualified != first.qualified:
                    return None
                out.extend(t for t in other.templates if t not in out)
            if len(out) > MAX_ALTERNATIVES:
                return None
            return Built(first.qualified, out, first.notes)
        except Fail:
            return None

    def built_by_class(
        self, qualified: str, call: ast.Call | None, scope: Scope
    ) -> Built | Unfollowed | None:
        """``raise Cls(...)`` or ``raise Cls`` of a repository class whose ``__init__`` or
        ``__str__`` builds the message; None when neither is on the way (the builtin's
        rules, applied by the caller, hold); ``Unfollowed`` when one is but the chain
        could not be followed (the message is then not known)."""
        ref = self.class_ref(qualified)
        if ref is None:
            return None
        mro = ref.reader.mro(ref)
        if mro is None:
            own = ref.reader.own_builder(ref)  # the builtin's rules hold only without one
            return None if own is None else Unfollowed(f"`{own[0].node.name}.{own[1]}`")
        init = next((n for n in mro if defines(n, "__init__")), None)
        printer = next((n for n in mro if defines(n, "__str__")), None)
        if not isinstance(init, ClassRef) and not isinstance(printer, ClassRef):
            return self._builtin_printed(ref.qualified, printer, mro, call, scope)
        try:
            return self._construct_each(qualified, call, scope, [])
        except Fail:
            builder = init if isinstance(init, ClassRef) else printer
            assert isinstance(builder, ClassRef)
            method = "__init__" if builder is init else "__str__"
            return Unfollowed(f"`{builder.node.name}.{method}`")

    def _construct_each(
        self, qualified: str, call: ast.Call | None, scope: Scope, notes: list[str]
    ) -> Built:
        """``Cls(*args)`` built once per text of an argument that holds one of several
        (``msg`` from ``_formatMessage``: each way it returns is built the same way)."""
        args = self._arguments(call, scope, {}) if call is not None else Args()
        built = self._construct(qualified, args, notes, 0)
        for i, choices in self._alternative_arguments(call, scope)[:1]:  # they multiply
            for choice in choices[1:]:
                positional = list(args.positional)
                positional[i] = Text(choice)
                other = self._construct(qualified, Args(positional, args.keywords), notes, 0)
                built.templates.extend(t for t in other.templates if t not in built.templates)
        return built

    def _builtin_printed(
        self,
        qualified: str,
        printer: Node | None,
        mro: list[Node],
        call: ast.Call | None,
        scope: Scope,
    ) -> Built | None:
        """A repository class printing by a builtin's ``__str__`` that is not the tuple
        rule: a KeyError subclass quotes its argument (``ZoneInfoNotFoundError``), an
        OSError subclass writes ``[Errno …]``. None for the others (the raise's rules)."""
        if call is None or not (
            printer is KeyError or (printer is OSError and len(call.args) in (2, 3))
        ):
            return None
        try:
            args = self._arguments(call, scope, {})
            messages = [builtin_message(mro, args)]
            for i, choices in self._alternative_arguments(call, scope)[:1]:
                for choice in choices[1:]:  # ``"…" if msg is None else msg``: each text
                    positional = list(args.positional)
                    positional[i] = Text(choice)
                    messages.append(builtin_message(mro, Args(positional, args.keywords)))
        except Fail:
            return None
        assert isinstance(printer, type)
        return Built(qualified, messages, [f"`{printer.__name__}.__str__`"])

    # -- what a call reaches --------------------------------------------------------------

    def _callee(
        self, func: ast.expr, scope: Scope, binding: SelfBinding | None
    ) -> tuple[BuilderReader, Function, SelfBinding | None, ClassRef | None] | None:
        """The function a call runs, and what ``self`` is in it."""
        if isinstance(func, ast.Name):
            fn = self.functions.get(func.id)
            if fn is not None:
                return self, fn, None, None
            imported = self.imports.get(func.id)
            if imported is None:
                return None
            module, _, name = imported.rpartition(".")
            other = self.reader_of(module) if module else None
            if isinstance(other, BuilderReader) and name in other.functions:
                return other, other.functions[name], None, None
            return None
        if not isinstance(func, ast.Attribute):
            return None
        owner = func.value
        if isinstance(owner, ast.Name) and owner.id not in ("self", "cls"):
            # ``parser = Parser(raw); raise parser.parse_error(...)``: a method of the
            # repository class every binding of the local name constructs
            local = self._local_instance(owner.id, scope)
            if local is None and owner.id not in self.imports and is_parameter(owner.id, scope):
                local = self._only_class_defining(func.attr)
            return _method(SelfBinding(local), func.attr) if local is not None else None
        if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
            if binding is None and scope.class_name and scope.class_name in self.classes:
                binding = SelfBinding(ClassRef(self, self.classes[scope.class_name]))
            if binding is None:
                return None
            return _method(binding, func.attr)
        if (
            isinstance(owner, ast.Attribute)
            and isinstance(owner.value, ast.Name)
            and owner.value.id == "self"
        ):
            if binding is None and scope.class_name and scope.class_name in self.classes:
                binding = SelfBinding(ClassRef(self, self.classes[scope.class_name]))
            held = self._attribute_class(binding.ref, owner.attr) if binding else None
            return _method(SelfBinding(held), func.attr) if held is not None else None
        return None

    def _only_class_defining(self, method: str) -> ClassRef | None:
        """``def _parse(source, state): raise source.error("…", pos)``: a parameter whose
        method only one class of the module defines is taken to be that class."""
        found = [c for c in self.classes.values() if method_of(ClassRef(self, c), method)]
        return ClassRef(self, found[0]) if len(found) == 1 else None

    def _local_instance(self, name: str, scope: Scope) -> ClassRef | None:
        """The repository class a local (or enclosing: re's ``addgroup``) name holds."""
        thunks = scope.env.get(name, ())
        if not thunks and scope.outer and not is_parameter(name, scope):
            thunks = next((e[name] for e in self._outer_env(scope) if name in e), ())
        found: ClassRef | None = None
        for thunk in thunks:
            call = thunk.func if isinstance(thunk, ast.Call) else None
            if not isinstance(call, (ast.Name, ast.Attribute)):
                return None
            held = self.class_ref(self.qualify(call))
            if held is None or (found is not None and held.node is not found.node):
                return None
            found = held
        return found

    def _attribute_class(self, ref: ClassRef, attr: str) -> ClassRef | None:
        """The class of ``self.<attr>`` when every assignment to it constructs that class."""
        mro = ref.reader.mro(ref)
        if mro is None:
            return None
        found: ClassRef | None = None
        for node in mro:
            if not isinstance(node, ClassRef):
                continue
            for stmt in walked(node.node):
                if not isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                    continue
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                if not any(
                    isinstance(t, ast.Attribute)
                    and t.attr == attr
                    and isinstance(t.value, ast.Name)
                    and t.value.id == "self"
                    for t in targets
                ):
                    continue
                value = stmt.value
                if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)):
                    return None
                held = node.reader.class_ref(node.reader.qualify(value.func))
                if held is None or (found is not None and held.node is not found.node):
                    return None
                found = held
        return found

    # -- arguments ------------------------------------------------------------------------

    def _helper_frame(self, fn: Function, args: Args, *rest: Any) -> Frame:
        """A helper's frame; ``rest`` is (binding, defining, notes, depth)."""
        binding, defining, notes, depth = rest
        frame = self._frame(fn, args, binding, defining, [*notes, f"`{_name(defining, fn)}`"])
        frame.depth = depth
        return frame

    def _run_helper(self, fn: Function, frame: Frame) -> Built | None:
        """What a helper's ``return`` builds, run in ``frame`` (its arguments bound)."""
        depth = frame.depth
        if depth > MAX_DEPTH:
            raise Fail
        returned = self._walk_to(fn.body, frame, None)
        if not isinstance(returned, ast.expr):
            return None
        return self._returned(returned, frame, depth)

    def _returned(self, expr: ast.expr, frame: Frame, depth: int) -> Built | None:
        scope, values = frame.scope, frame.values
        if isinstance(expr, ast.Name) and expr.id not in values:
            bound = scope.env.get(expr.id, ())
            if len(bound) == 1 and isinstance(bound[0], ast.Call):
                return self._returned(bound[0], frame, depth + 1)
            return None
        if not isinstance(expr, ast.Call):
            return None
        func = expr.func
        held = values.get(func.id) if isinstance(func, ast.Name) else None
        if isinstance(held, ClassValue):
            return self._construct(
                held.qualified, self._arguments(expr, scope, values), frame.notes, depth + 1
            )
        if held is None and self._is_class_expr(func, scope):
            qualified = self.qualify(func)
            return self._construct(
                qualified, self._arguments(expr, scope, values), frame.notes, depth + 1
            )
        called = called_class(self, func, scope) if held is None else None
        if called is not None:
            return self._construct(
                called, self._arguments(expr, scope, values), frame.notes, depth + 1
            )
        target = self._callee(func, scope, frame.binding)
        if target is None:
            return None
        reader, fn, binding, defining = target
        args = self._arguments(expr, scope, values)
        inner = reader._helper_frame(fn, args, binding, defining, frame.notes, depth + 1)
        return reader._run_helper(fn, inner)

    def _construct(self, qualified: str, args: Args, notes: list[str], depth: int) -> Built:
        """``Cls(*args)`` as ``str()`` prints it; Fail where that is not known."""
        if depth > MAX_DEPTH:
            raise Fail
        ref = self.class_ref(qualified) if not qualified.startswith("builtins.") else None
        if ref is None:
            builtin = builtin_class(qualified)
            mro: list[Node] = list(builtin.__mro__) if builtin is not None else []
            message = builtin_message(mro, args)
            return Built(qualified, [message], notes)
        full = ref.reader.mro(ref)
        if full is None:
            raise Fail
        printer = next((n for n in full if defines(n, "__str__")), None)
        init = next((n for n in full if defines(n, "__init__")), None)
        binding = SelfBinding(ref, exact=True)
        steps = list(notes)
        if isinstance(init, ClassRef):
            try:
                message = _builder(init)._run_init(
                    init, full, args, args, binding, notes, depth + 1
                )
            except Fail:
                if not isinstance(printer, ClassRef) or not binding.attrs:
                    raise
                # the class's own ``__str__`` prints from the attributes ``__init__`` set:
                # what the builtin would have made of the arguments does not matter
            steps.append(f"`{init.node.name}.__init__`")
        elif not isinstance(printer, ClassRef):
            message = builtin_message(full, args)
        if isinstance(printer, ClassRef):
            steps.append(f"`{printer.node.name}.__str__`")
            printed = _builder(printer)._print(
                printer, full, binding, args, isinstance(init, ClassRef)
            )
            passed = frozenset(
                hole
                for value in [*args.positional, *args.keywords.values()]
                if isinstance(value, Text)
                for hole in value.template.holes
            )
            printed = [as_given(t, binding, passed) for t in printed]
            return Built(ref.qualified, printed, steps, left_out(printer, binding))
        if binding.sets_args:
            raise Fail  # ``self.args = …``: what the builtin ``__str__`` prints was replaced
        return Built(ref.qualified, binding.messages or [message], steps)

    def _run_init(
        self,
        defining: ClassRef,
        mro: list[Node],
        args: Args,
        original: Args,
        binding: SelfBinding,
        notes: list[str],
        depth: int,
    ) -> MessageTemplate:
        if depth > MAX_DEPTH:
            raise Fail
        fn = method_of(defining, "__init__")
        if fn is None:
            raise Fail
        frame = self._frame(fn, args, binding, defining, notes)
        frame.depth = depth
        if binding.given is None:
            binding.given = opaque_given(frame)
        binding.in_init = True
        self._walk_to(fn.body, frame, mro)
        assigned = assigned_args(fn) if binding.sets_args else None
        if assigned is not None:
            # ``self.args = (code, msg)`` after any base ``__init__``: what ``str()`` prints
            values = [self._value(e, frame.scope, frame.values) for e in assigned]
            message = args_message(mro, values, [self.expr_text(e) for e in assigned])
            binding.sets_args = False
            return message
        if frame.message is not None:
            return frame.message
        # no base ``__init__`` call: ``BaseException.__new__`` kept the constructor's args
        return builtin_message(mro, original)

    def _base_init(self, call: ast.Call, frame: Frame, mro: list[Node]) -> MessageTemplate | None:
        """``super().__init__(...)`` (or ``Base.__init__(self, ...)``): the message it sets."""
        call = aliased_init(call, frame.defining)
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr == "__init__"):
            return None
        owner = func.value
        call_args = list(call.args)
        start: int
        if (
            isinstance(owner, ast.Call)
            and isinstance(owner.func, ast.Name)
            and (owner.func.id == "super")
        ):
            if not owner.args:
                start = mro_position(mro, frame.defining) + 1
            elif (
                len(owner.args) == 2
                and isinstance(owner.args[1], ast.Name)
                and owner.args[1].id == "self"
            ):
                # ``super(Base, self)``: the lookup starts past ``Base`` in self's MRO
                start = mro_position(mro, self.base_node(owner.args[0], 0)) + 1
            else:
                raise Fail
        elif (
            isinstance(owner, (ast.Name, ast.Attribute))
            and call_args
            and isinstance(call_args[0], ast.Name)
            and call_args[0].id == "self"
        ):
            base = self.base_node(owner, 0)
            if base is None:
                raise Fail
            start = mro_position(mro, base)
            call_args = call_args[1:]
        else:
            return None
        if start <= 0:
            raise Fail
        args = self._arguments(
            ast.Call(func=func, args=call_args, keywords=call.keywords), frame.scope, frame.values
        )
        rest = mro[start:]
        init = next((n for n in rest if defines(n, "__init__")), None)
        if frame.binding is not None:
            frame.binding.base_call(args)
        if isinstance(init, ClassRef):
            assert frame.binding is not None
            return _builder(init)._run_init(
                init, mro, args, args, frame.binding, frame.notes, frame.depth + 1
            )
        several = self._several_texts(call_args, frame)
        if several is not None and frame.binding is not None:
            # ``super().__init__(msg)`` with ``msg`` set one way or another by an ``if``
            i, texts = several
            for text in texts:
                positional = list(args.positional)
                positional[i] = Text(text)
                frame.binding.messages.append(builtin_message(mro, Args(positional, args.keywords)))
        try:
            return builtin_message(mro, args)
        except Fail:
            if not any(isinstance(n, ClassRef) and defines(n, "__str__") for n in mro):
                raise
            # a ``__str__`` of the repository prints (jsonschema's ``_Error`` hands ten
            # values to ``Exception.__init__``, then prints ``self.message``): what the
            # builtin would make of these arguments is never shown, so the walk goes on
            return MessageTemplate()

    # -- statements -----------------------------------------------------------------------

    def _self_attribute(self, node: ast.Attribute, scope: Scope) -> Templates | None:
        binding = scope.bound_self
        if not (isinstance(node.value, ast.Name) and node.value.id == "self"):
            return None
        if binding is None and scope.class_name in self.classes:
            return self._unbound_attribute(node, self.classes[scope.class_name], scope)
        if not isinstance(binding, SelfBinding):
            return None
        if node.attr in binding.attrs:
            return [binding.attrs[node.attr]]
        if node.attr in binding.choices:
            return list(binding.choices[node.attr])
        if binding.in_init:
            return None  # while ``__init__`` runs, only what it has set so far is known
        return self._bound_attribute(node, scope, binding)

    def _returned_text(self, node: ast.Call, scope: Scope) -> Templates | None:
        """``self._format_error(value)``: what a method of the raising class returns."""
        func = node.func
        if not (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == "self"
            and scope.class_name
            and scope.class_name in self.classes
            and not func.attr.startswith("__")
        ):
            return None
        given = scope.bound_self
        if isinstance(given, SelfBinding):
            bindings = [given]
        else:
            # ``self`` is the class or any subclass its module defines: each may differ
            own = SelfBinding(ClassRef(self, self.classes[scope.class_name]))
            bindings = [own, *(SelfBinding(s) for s in own.ref.reader.subclasses(own.ref))]
        if self._returning is None:
            self._returning = set()
        if id(node) in self._returning:
            return None  # ``key = self.optionxform(str(key))`` in a loop: the call's own value
        self._returning.add(id(node))
        found: Templates = []
        try:
            for binding in bindings:
                texts = self._text_for(func, node, scope, binding)
                if texts is None:
                    return None
                found.extend(t for t in texts if t not in found)
                if binding is bindings[0] and not binding.used:
                    break  # nothing read from ``self``'s class: the subclasses say the same
        finally:
            self._returning.discard(id(node))
        if not found or len(found) > MAX_ALTERNATIVES or all(t.is_opaque for t in found):
            return None
        if not bindings[0].exact and overridden_below(bindings[0].ref, func.attr, True):
            return None  # a subclass in another module returns its own text
        return found

    def _text_for(
        self, func: ast.Attribute, node: ast.Call, scope: Scope, binding: SelfBinding
    ) -> Templates | None:
        target = _method(binding, func.attr)
        if target is None:
            return None
        reader, fn, binding, defining = target
        try:
            args = self._arguments(node, scope, {})
            ways, frame = returned_ways(
                fn, lambda: reader._frame(fn, args, binding, defining, []), reader._walk_to
            )
        except Fail:
            return None
        found = [t for way in ways for t in reader.templates(way, frame.scope)]
        return list(dict.fromkeys(found)) if len(found) <= MAX_ALTERNATIVES else None

    def _subscript(self, node: ast.Subscript, scope: Scope, depth: int) -> Templates | None:
        binding = scope.bound_self
        if not isinstance(binding, SelfBinding):
            return None
        owner = node.value
        if not (
            isinstance(owner, ast.Attribute)
            and isinstance(owner.value, ast.Name)
            and owner.value.id == "self"
        ):
            return None
        keys = self.templates(node.slice, scope, depth + 1)
        if len(keys) != 1 or keys[0].holes:
            return None
        found = lookup_key(binding.ref, owner.attr, keys[0].display)
        if found is None:
            return None
        binding.used = True
        reader, value = found
        return reader.templates(value, empty_scope(""), depth + 1)


def _method(
    binding: SelfBinding, name: str
) -> tuple[BuilderReader, Function, SelfBinding, ClassRef] | None:
    mro = binding.ref.reader.mro(binding.ref)
    for node in mro or ():
        if isinstance(node, ClassRef):
            fn = method_of(node, name)
            if fn is not None and isinstance(node.reader, BuilderReader):
                return node.reader, fn, binding, node
        elif name in vars(node):
            return None
    return None


def _name(defining: ClassRef | None, fn: Function) -> str:
    return f"{defining.node.name}.{fn.name}" if defining is not None else fn.name


def _builder(ref: ClassRef) -> BuilderReader:
    """The reader of a class's module (every reader the extractor makes is a builder)."""
    reader = ref.reader
    if not isinstance(reader, BuilderReader):
        raise Fail
    return reader
