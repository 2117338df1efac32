"""What a repository exception class's ``__str__`` prints, and what an attrs field holds.

Split from :mod:`.builders`, which runs ``__init__`` chains: once the chain has set the
attributes (``SelfBinding``), ``__str__`` is run over them; a ``__str__`` that branches
on what is not known gives the text of each ``return``.
"""

from __future__ import annotations

import ast
from dataclasses import replace as dc_replace

from errdex.template import Hole, Literal, MessageTemplate

from .attributes import instance_attribute
from .builtin_str import builtin_repr
from .constructed import constructed_texts
from .filled import str_argument
from .frames import Args, Fail, Frame, FrameReader, Function, SelfBinding, Text, empty_scope
from .hierarchy import ClassRef, Node, class_attribute, defines, method_of
from .joined import appended, joined_name, list_joined
from .messages import MAX_ALTERNATIVES, Templates
from .scope import Scope
from .settled import overridden_below
from .subtree import walk, walked

__all__ = ["PrinterReader", "as_given", "left_out", "opaque_given"]


class PrinterReader(FrameReader):
    """Runs ``__str__`` over what ``__init__`` set; reads attrs fields' defaults."""

    #: ``self.prop`` read as the call ``self.prop()`` of its getter, one per read.
    _property_calls: dict[int, ast.Call] | None = None

    def _print(
        self, printer: ClassRef, mro: list[Node], binding: SelfBinding, args: Args, init: bool
    ) -> Templates:
        """What ``str()`` prints by the ``__str__`` that ``printer`` defines. Where that is
        ``object.__str__`` (http.client's IncompleteRead, xmlrpc's Error), ``str()`` is
        ``repr()``: the ``__repr__`` the MRO finds first, the class's own or
        ``BaseException``'s ``Name(args)`` (known only when no ``__init__`` of the
        repository ran: ``args`` are then the constructor's)."""
        if method_of(printer, "__str__") is not None or not _is_object_str(
            class_attribute(printer, "__str__")
        ):
            return self._run_str(printer, binding)
        shown = next((n for n in mro if defines(n, "__repr__")), None)
        if isinstance(shown, ClassRef) and isinstance(shown.reader, PrinterReader):
            return shown.reader._run_str(shown, binding, "__repr__")
        if shown is BaseException and not init:
            return [builtin_repr(binding.ref.node.name, args)]
        raise Fail

    def _run_str(self, printer: ClassRef, binding: SelfBinding, name: str = "__str__") -> Templates:
        """What ``__str__`` (or ``name``) returns, reading the attributes ``__init__`` set."""
        fn = method_of(printer, name)
        alias = class_attribute(printer, name)
        if fn is None and isinstance(alias, ast.Name):
            fn = method_of(printer, alias.id)  # ``__str__ = __repr__``
        if fn is None:
            raise Fail
        binding.in_init = False
        frame = self._frame(fn, Args(), binding, printer, [])
        try:
            returned = _str_of(self._walk_to(fn.body, frame, None))
            found = self.templates(returned, frame.scope) if isinstance(returned, ast.expr) else []
            if any(t.is_opaque and not _given(t, binding) for t in found):
                raise Fail  # a local name the walk could not decide: try every value it takes
        except Fail:
            lines = _joined_lines(fn)
            found = self._every_return(fn, frame) if lines is None else self._join(lines, frame)
        if (
            not found
            or len(found) > MAX_ALTERNATIVES
            or any(t.is_opaque and not _given(t, binding) for t in found)
        ):
            raise Fail
        return found

    def _every_return(self, fn: Function, frame: Frame) -> Templates:
        """A ``__str__`` that branches on what is not known: the text of each ``return``
        (one of them prints), a local name holding any value assigned to it (argparse's
        ``format = '%(message)s'`` or ``'argument %(argument_name)s: %(message)s'``)."""
        held: dict[str, list[ast.expr]] = {}
        plain: set[int] = set()  # the targets of ``name = value``
        for node in walked(fn):
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
            ):
                held.setdefault(node.targets[0].id, []).append(node.value)
                plain.add(id(node.targets[0]))
            elif isinstance(node, ast.comprehension):
                # ``any(m is _unset for m in …)``: the comprehension's own scope, not the
                # function's (jsonschema's ``_Error.__str__``)
                plain.update(id(n) for n in walk(node.target) if isinstance(n, ast.Name))
        for node in walked(fn):
            if (
                isinstance(node, ast.Name)
                and isinstance(node.ctx, ast.Store)
                and id(node) not in plain
            ):
                raise Fail  # bound by a loop, ``with``, augmented assignment…
        if any(len(values) > MAX_ALTERNATIVES for values in held.values()):
            raise Fail
        scope = dc_replace(
            frame.scope, env={**frame.scope.env, **{k: tuple(v) for k, v in held.items()}}
        )
        out: Templates = []
        bare: list[str] = []
        alone: Templates = []  # what the bare returns print
        for node in walked(fn):
            if isinstance(node, ast.Return) and node.value is not None:
                listed = self._joined_list(node.value, fn, scope)
                found = self.templates(node.value, scope) if listed is None else listed
                if _is_self_attribute(node.value) and all(t.is_opaque for t in found):
                    # ``return self.message`` when there is no context: the value alone
                    bare.append(self.expr_text(node.value))
                    alone.extend(t for t in found if t not in alone)
                    continue
                out.extend(t for t in found if t not in out)
        if _only_longer(out, bare) and all(_given(t, frame.binding) for t in alone):
            # every other return is that value followed by more lines (jsonschema's
            # ``_Error``: the message, then "Failed validating …" once the validator set
            # its context): the value the raise passed is the message, the rest more lines
            if frame.binding is not None:
                frame.binding.longer = len(out)
            return alone
        if (
            not out
            or len(out) > MAX_ALTERNATIVES
            or any(t.is_opaque and not _given(t, frame.binding) for t in out)
        ):
            raise Fail
        if bare and frame.binding is not None:
            frame.binding.left_out = bare[0]
        return _without_longer(out, frame.binding)

    def _joined_list(self, value: ast.expr, fn: Function, scope: Scope) -> Templates | None:
        """``return "\\n".join(lines)`` of ``lines = [a, b]`` that only ``lines.append(x)``
        changes (:mod:`.joined`; jinja2's ``TemplateSyntaxError``: the message, then its
        location, then the source line when known): the items joined, each append taken
        or left."""
        joined = list_joined(value, fn)
        if joined is None or len(joined.starts) != 1:
            return None
        (start,) = joined.starts
        ways: list[MessageTemplate] = [MessageTemplate()]
        for i, item in enumerate([*start, *joined.appends]):
            texts = self.templates(item, scope)
            if not texts:
                return None
            glue = MessageTemplate.literal(joined.separator) if i else MessageTemplate()
            taken = [w + glue + t for w in ways for t in texts]
            ways = taken + ways if i >= len(start) else taken
            if len(ways) > MAX_ALTERNATIVES:
                return None
        return ways

    def _join(self, lines: _Lines, frame: Frame) -> Templates:
        """What ``sep.join(lines)`` prints for each way the appends go: an append whose
        condition the known values settle is taken or left, any other both ways
        (PyYAML's ``MarkedYAMLError``: a context, a mark, a problem, a mark, a note)."""
        separator, appends = lines
        ways: list[list[MessageTemplate]] = [[]]
        for test, value in appends:
            decided = True if test is None else self._decide(test, frame)
            shown = _str_of(value)
            if not isinstance(shown, ast.expr):
                raise Fail
            texts = self.templates(shown, frame.scope)
            if not texts:
                raise Fail
            if _tests_not_none(test, value) or _tests_not_none(test, shown):
                # appended only when not None: a None it may hold prints nothing here
                texts = [t for t in texts if t.holes or t.display != "None"]
                if not texts:
                    decided = False
                elif decided is None and not any(t.is_opaque for t in texts):
                    decided = True  # a text with words of its own is a string, not None
            taken = [[*w, t] for w in ways for t in texts] if decided is not False else []
            ways = taken + (ways if decided is not True else [])
            if len(ways) > MAX_ALTERNATIVES:
                raise Fail
        out: Templates = []
        for way in ways:
            joined = MessageTemplate()
            for i, part in enumerate(way):
                joined = joined + MessageTemplate.literal(separator) + part if i else part
            if joined not in out:
                out.append(joined)
        return out

    def _class_name(self, node: ast.Attribute, scope: Scope) -> str | None:
        binding = scope.bound_self
        if node.attr != "__name__" or not isinstance(binding, SelfBinding):
            return None
        owner = node.value
        is_self = isinstance(owner, ast.Attribute) and owner.attr == "__class__"
        if not is_self and isinstance(owner, ast.Call):
            is_self = (
                isinstance(owner.func, ast.Name)
                and owner.func.id == "type"
                and len(owner.args) == 1
            )
            inner = owner.args[0] if is_self else None
        else:
            inner = owner.value if isinstance(owner, ast.Attribute) else None
        if not (is_self and isinstance(inner, ast.Name) and inner.id == "self"):
            return None
        return binding.ref.node.name

    def _several_texts(
        self, call_args: list[ast.expr], frame: Frame
    ) -> tuple[int, Templates] | None:
        """The first positional argument that is a local holding one of several known
        texts (none of them one bare value), with those texts; None when there is none."""
        for i, arg in enumerate(call_args):
            if not isinstance(arg, ast.Name) or arg.id in frame.values:
                continue
            found = self.templates(arg, frame.scope)
            if 1 < len(found) <= MAX_ALTERNATIVES and not any(t.is_opaque for t in found):
                return i, found
        return None

    def _bound_attribute(
        self, node: ast.Attribute, scope: Scope, binding: SelfBinding
    ) -> Templates | None:
        """``self.x`` read once ``__init__`` has run: what the class hierarchy says it
        holds, or what the class's property ``x`` returns over what ``__init__`` set."""
        found = instance_attribute(binding, node.attr)
        fn = binding.ref.reader.methods.get((binding.ref.node.name, node.attr))
        if found is not None or fn is None or not _is_property(fn):
            return found
        found = self._property_text(node, scope)
        if (
            found is not None
            and not binding.exact
            and overridden_below(binding.ref, node.attr, True)
        ):
            return None  # ``self`` may be a subclass of another module defining it again
        return found

    def _property_text(self, node: ast.Attribute, scope: Scope) -> Templates | None:
        """What ``self.x`` of a property returns, read as the call ``self.x()``."""
        if self._property_calls is None:
            self._property_calls = {}
        call = self._property_calls.setdefault(id(node), ast.Call(node, [], []))
        return self._returned_text(call, scope)

    def _unbound_attribute(
        self, node: ast.Attribute, cls: ast.ClassDef, scope: Scope
    ) -> Templates | None:
        """``self.x`` in a method of a class no ``__init__`` chain bound: an attrs field's
        default, or what the class's property ``x`` returns (jinja2's
        ``Undefined._undefined_message``: each of its returns)."""
        found = self._field_default(node, cls)
        fn = self.methods.get((cls.name, node.attr))
        if found is None and fn is None:  # ``Failure("…")``'s ``self.message``
            return constructed_texts(self, ClassRef(self, cls), node.attr)
        if found is not None or fn is None or not _is_property(fn):
            return found
        found = self._property_text(node, scope)
        if found is not None and overridden_below(ClassRef(self, cls), node.attr, True):
            return None  # ``self`` may be a subclass defining it again (``MultiIndex.nlevels``)
        return found

    def _field_default(self, node: ast.Attribute, cls: ast.ClassDef) -> Templates | None:
        """``self.msg`` in a method of an attrs class declaring ``msg = attrib(converter=
        default_if_none("…"))`` (or ``default="…"``): the default text, or what the caller
        gave instead (a hole)."""
        for stmt in cls.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target, value = stmt.targets[0], stmt.value
            elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                target, value = stmt.target, stmt.value
            else:
                continue
            if not (isinstance(target, ast.Name) and target.id == node.attr):
                continue
            if not (isinstance(value, ast.Call) and _callee_name(value) in _FIELD_CALLS):
                return None
            for keyword in value.keywords:
                given = keyword.value
                if (
                    keyword.arg == "converter"
                    and isinstance(given, ast.Call)
                    and _callee_name(given) == "default_if_none"
                    and len(given.args) == 1
                ):
                    given = given.args[0]
                elif keyword.arg != "default":
                    continue
                found = self.templates(given, empty_scope(""))
                if found and not any(t.is_opaque for t in found):
                    return [*found, MessageTemplate.expression(self.expr_text(node))]
            return None
        return None


#: A ``__str__`` that appends its lines: the separator, and each append's condition
#: (None: always) and value.
_Lines = tuple[str, list[tuple[ast.expr | None, ast.expr]]]


def _joined_lines(fn: Function) -> _Lines | None:
    """``lines = []``, then ``lines.append(x)`` or ``if c: lines.append(x)`` statements,
    then ``return sep.join(lines)``; None for a ``__str__`` of any other shape."""
    body = fn.body
    if len(body) < 3:
        return None
    first, last = body[0], body[-1]
    if not (
        isinstance(first, ast.Assign)
        and len(first.targets) == 1
        and isinstance(first.targets[0], ast.Name)
        and isinstance(first.value, ast.List)
        and not first.value.elts
    ):
        return None
    name = first.targets[0].id
    returned = last.value if isinstance(last, ast.Return) else None
    if returned is None or joined_name(returned) != name:
        return None
    assert isinstance(returned, ast.Call) and isinstance(returned.func, ast.Attribute)
    assert isinstance(returned.func.value, ast.Constant)
    assert isinstance(returned.func.value.value, str)
    appends: list[tuple[ast.expr | None, ast.expr]] = []
    for stmt in body[1:-1]:
        test: ast.expr | None = None
        if isinstance(stmt, ast.If) and not stmt.orelse and len(stmt.body) == 1:
            test, stmt = stmt.test, stmt.body[0]
        value = appended(stmt, name)
        if value is None:
            return None
        appends.append((test, value))
    return returned.func.value.value, appends


def _is_property(fn: Function) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "property" for d in fn.decorator_list)


def _tests_not_none(test: ast.expr | None, value: ast.expr) -> bool:
    """``value is not None`` (or ``… and …`` starting so), of the very expression appended."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        test = test.values[0]
    return (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], ast.IsNot)
        and isinstance(test.comparators[0], ast.Constant)
        and test.comparators[0].value is None
        and ast.dump(test.left) == ast.dump(value)
    )


#: attrs' and dataclasses' field declarations (``attr.ib``, ``attrs.field``…).
_FIELD_CALLS = frozenset({"attrib", "ib", "field"})


def _callee_name(call: ast.Call) -> str | None:
    func = call.func
    return (
        func.id
        if isinstance(func, ast.Name)
        else (func.attr if isinstance(func, ast.Attribute) else None)
    )


def _is_self_attribute(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )


def _is_object_str(node: ast.expr | None) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "__str__"
        and isinstance(node.value, ast.Name)
        and node.value.id == "object"
    )


def _str_of(returned: object) -> object:
    """``return str(self.message)``: ``str()`` of a string is the string (what ``_given``
    lets through is text the caller passed)."""
    argument = str_argument(returned)
    return returned if argument is None else argument


def _given(template: MessageTemplate, binding: SelfBinding | None) -> bool:
    """Whether a one-value text is a parameter the caller filled (``str(self.message)``
    with ``message = name``): then ``str()`` prints what the raise passed, irreducibly."""
    holes = template.holes
    given = (binding.given if binding is not None else None) or {}
    if len(template.parts) != 1 or len(holes) != 1:
        return False
    return holes[0].name in given or template in given.values()  # or read via ``self.args``


def opaque_given(frame: Frame) -> dict[str, MessageTemplate]:
    """The parameters of an ``__init__`` frame the caller filled with one unknown value."""
    values = frame.values.items()
    return {k: v.template for k, v in values if isinstance(v, Text) and v.template.is_opaque}


def as_given(
    template: MessageTemplate, binding: SelfBinding, passed: frozenset[Hole] = frozenset()
) -> MessageTemplate:
    """A parameter printed shows as the raise passes it: ``{template}`` alone, and within
    more text (argparse's ``argument %(argument_name)s: {msg}`` beside ``{msg}``, so the
    two forms ``ArgumentError.__str__`` prints differ only by the prefix). Within more
    text, a hole the raise's own arguments hold (``passed``) is the caller's, whatever it
    is named: jinja2's ``f"Encountered unknown tag {name!r}."`` keeps its ``{name!r}``
    though ``TemplateSyntaxError.__init__`` has a parameter ``name``."""
    given = binding.given or {}
    if len(template.parts) == 1:
        hole = template.holes[0] if template.holes else None
        return given.get(hole.name, template) if hole is not None else template
    if not any(h.name in given and h not in passed for h in template.holes):
        return template
    parts: list[Literal | Hole] = []
    for part in template.parts:
        shown = given.get(part.name) if isinstance(part, Hole) and part not in passed else None
        parts.extend(shown.parts if shown is not None else [part])
    return MessageTemplate(parts)


def _without_longer(found: Templates, binding: SelfBinding | None) -> Templates:
    """The returns of a ``__str__`` less those that are another return followed by more
    lines (jinja2's ``TemplateSyntaxError``: the message alone once jinja2 translated the
    error, as every error the environment raises is, else the message, its location
    and the source line); how many were left out is kept on ``binding``."""
    kept = [t for t in found if not any(o is not t and _extends_by_lines(t, o) for o in found)]
    if binding is not None and kept:
        binding.longer = len(found) - len(kept)
        return kept
    return found


def _only_longer(out: Templates, bare: list[str]) -> bool:
    """Whether each of ``out`` is one of the ``bare`` values (``self.message``) followed by
    a newline and more."""
    values = [MessageTemplate.expression(b) for b in bare]
    return bool(out) and all(any(_extends_by_lines(t, v) for v in values) for t in out)


def _extends_by_lines(longer: MessageTemplate, shorter: MessageTemplate) -> bool:
    """Whether ``longer`` is ``shorter`` then a newline and more."""
    n = len(shorter.parts)
    if not n or len(longer.parts) <= n - 1:
        return False
    last = shorter.parts[-1]
    if isinstance(last, Literal):  # literals merge: the newline is in the same part
        part, start = longer.parts[n - 1], last.text + "\n"
        same = longer.parts[: n - 1] == shorter.parts[:-1]
    else:
        if len(longer.parts) <= n:
            return False
        part, start = longer.parts[n], "\n"
        same = longer.parts[:n] == shorter.parts
    return same and isinstance(part, Literal) and part.text.startswith(start)


def left_out(printer: ClassRef, binding: SelfBinding) -> list[str]:
    """What the reading of ``printer``'s ``__str__`` left out of the templates, in words."""
    name = printer.node.name
    out = []
    if binding.left_out:
        out.append(
            f"left out: `{name}.__str__` returning `{binding.left_out}` alone,"
            " which prints only the wrapped value (when the context is empty)"
        )
    if binding.longer:
        out.append(
            f"left out: {binding.longer} longer form(s) `{name}.__str__` returns, the message"
            " followed by more lines (printed instead when what `__str__` tests says so)"
        )
    return out
