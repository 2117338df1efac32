"""Message templates: the texts a message expression can produce, holes where values go.

Literals, f-strings, ``%`` and ``.format`` formatting, concatenation, ``join``,
``dedent`` and names bound earlier in the function (or in an enclosing one) are
followed; anything else becomes one hole showing its source expression.
"""

from __future__ import annotations

import ast
import dataclasses
import textwrap
from collections.abc import Callable, Iterator

from errdex.extract._downgrade import PLACEHOLDER_PREFIX
from errdex.extract.fstring import scan_fstring_fields, split_field
from errdex.extract.percent_class import typed_percent_holes
from errdex.template import Hole, Literal, MessageTemplate

from .dict_keys import INT_KEYED_DICT, int_keyed
from .filled import joined_fill, named
from .folded import call_constant, constant_value, format_filled, fstring_constant, percent_text
from .literals import apply_literals, cleandoc, is_stringish, quoted_repr, transform
from .module import ModuleReader, dotted_name
from .module_globals import settled_global
from .picked import picked_values
from .scope import LAZY, Env, Fixed, LoopTail, Rebind, Scope, Thunk
from .signed import number_repr, signed_number

__all__ = ["MAX_ALTERNATIVES", "MessageBuilder", "Templates"]

#: Alternatives kept for one message before the differing part becomes a hole.
MAX_ALTERNATIVES = 8
#: Functions that return their argument when no translation is installed.
_GETTEXT = frozenset({"gettext.gettext", "gettext.lgettext"})
#: ``ngettext(singular, plural, n)``: untranslated, one of its two texts.
_NGETTEXT = frozenset({"gettext.ngettext", "gettext.lngettext"})
Templates = list[MessageTemplate]


class MessageBuilder(ModuleReader):
    """Turns message expressions into templates, looking names up in the scope's bindings."""

    def _env_at(self, scope: Scope, stmt: ast.stmt) -> Env:
        """The bindings reaching ``stmt`` in its function: the statement walk knows them."""
        raise NotImplementedError

    def templates(self, node: ast.expr, scope: Scope, depth: int = 0) -> Templates:
        """The message alternatives an expression can produce (at most MAX_ALTERNATIVES)."""
        out = self._templates(node, scope, depth)
        if len(out) > MAX_ALTERNATIVES:
            return [MessageTemplate.expression(self.expr_text(node))]
        return out or [MessageTemplate.expression(self.expr_text(node))]

    def _templates(self, node: ast.expr, scope: Scope, depth: int) -> Templates:
        if depth > 12:
            return [MessageTemplate.expression(self.expr_text(node))]
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                return [MessageTemplate.literal(node.value)]
            if node.value is Ellipsis:
                return [MessageTemplate.literal("Ellipsis")]
            return [MessageTemplate.literal(str(node.value))]  # str(5) is what prints
        if (number := signed_number(node)) is not None:
            return [MessageTemplate.literal(str(number))]  # ``-1``: a unary minus on ``1``
        if isinstance(node, ast.JoinedStr):
            return self._fstring(node, scope, depth)
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Add) and not (
                _is_number(node.left) or _is_number(node.right)
            ):
                left = self.templates(node.left, scope, depth + 1)
                right = self.templates(node.right, scope, depth + 1)
                return [a + b for a in left for b in right]
            if isinstance(node.op, ast.Mod) and (
                is_stringish(node.left, scope) or self._is_gettext(node.left)
            ):
                formatted = typed_percent_holes(  # ``%s`` of ``type(x)``: ``<class 'int'>``
                    node,
                    [
                        apply_literals(t, MessageTemplate.from_percent)
                        for t in self.templates(node.left, scope, depth + 1)
                    ],
                )
                return [
                    filled
                    for t in formatted
                    for filled in self._fill_percent(t, node.right, scope, depth)
                ]
            return [MessageTemplate.expression(self.expr_text(node))]
        if isinstance(node, ast.Name):
            return self._name(node, scope, depth)
        if isinstance(node, ast.Call):
            return self._call(node, scope, depth)
        if isinstance(node, ast.IfExp):
            return self.templates(node.body, scope, depth + 1) + self.templates(
                node.orelse, scope, depth + 1
            )
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and scope.bound_self:
            # ``error or self.default``: the value is one of the operands
            return [t for v in node.values for t in self.templates(v, scope, depth + 1)]
        if isinstance(node, (ast.Dict, ast.DictComp)):
            # str() of a dict is its repr, in braces: ``{'age': ['Missing data.']}``
            items = MessageTemplate.hole("{…}", "(dict items)")
            return [MessageTemplate.literal("{") + items + MessageTemplate.literal("}")]
        if isinstance(node, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in node.elts):
            # ``assert ok, ("unknown outcome", outcome)``: str() of a tuple is its repr
            return self.tuple_reprs(node.elts, scope, depth + 1)
        if isinstance(node, ast.Subscript):
            picked = picked_values(node, MAX_ALTERNATIVES)
            if picked is not None:  # one of a literal table's values
                return [t for value in picked for t in self.templates(value, scope, depth + 1)]
            found = self._subscript(node, scope, depth)
            if found is not None:
                return found
        if isinstance(node, ast.Attribute):
            held = self._self_attribute(node, scope)
            if held is not None:
                return held
            named = self._class_name(node, scope)
            if named is not None:
                return [MessageTemplate.literal(named)]
        return [MessageTemplate.expression(self.expr_text(node))]

    def _class_name(self, node: ast.Attribute, scope: Scope) -> str | None:
        """``self.__class__.__name__`` (or ``type(self).__name__``) while a chain knows the
        class ``self`` is (builders)."""
        return None

    def tuple_reprs(self, elements: list[ast.expr], scope: Scope, depth: int) -> Templates:
        """Each ``repr()`` the tuple can have: one per text of its first element that has
        several (attrs' ``self.msg``: its default, or what the caller gave)."""
        for i, element in enumerate(elements):
            if isinstance(element, ast.Constant):
                continue
            found = self.templates(element, scope, depth + 1)
            if 1 < len(found) <= MAX_ALTERNATIVES:
                return [self.tuple_repr(elements, scope, depth, {i: t}) for t in found]
        return [self.tuple_repr(elements, scope, depth)]

    def tuple_repr(
        self,
        elements: list[ast.expr],
        scope: Scope,
        depth: int,
        chosen: dict[int, MessageTemplate] | None = None,
    ) -> MessageTemplate:
        """``repr()`` of a tuple of these: strings quoted, other constants as ``repr`` writes
        them, anything else a hole (its repr is not known); ``chosen`` fixes an element's
        text."""
        pieces: list[MessageTemplate] = []
        for i, element in enumerate(elements):
            if (written := number_repr(element)) is not None:  # ``-1`` too, not ``'-1'``
                pieces.append(MessageTemplate.literal(written))
                continue
            if isinstance(element, ast.Tuple) and not any(
                isinstance(e, ast.Starred) for e in element.elts
            ):
                # ``(lnum, 0)`` inside: its own repr, not a quoted string
                pieces.append(self.tuple_repr(element.elts, scope, depth + 1))
                continue
            if isinstance(element, ast.Name) and self._maybe_number(element, scope):
                # ``lnum`` bound to ``0`` somewhere: an int's repr has no quotes
                pieces.append(MessageTemplate.expression(element.id))
                continue
            given = (chosen or {}).get(i)
            found = given if given is not None else self.templates(element, scope, depth + 1)[0]
            pieces.append(found if found.is_opaque else quoted_repr(found))
        trailing = "," if len(pieces) == 1 else ""
        return (
            MessageTemplate.literal("(")
            + MessageTemplate.join(pieces, ", ")
            + MessageTemplate.literal(trailing + ")")
        )

    def _returned_text(self, node: ast.Call, scope: Scope) -> Templates | None:
        """The text a method of the class returns for these arguments (builders)."""
        return None

    def _maybe_number(self, name: ast.Name, scope: Scope) -> bool:
        """Whether a binding of ``name`` the scope knows is a number or arithmetic on one
        (``lnum = 0``, ``lnum += 1``)."""
        bound = scope.env.get(name.id, ()) if scope.env is not LAZY else ()
        return any(_numeric_thunk(t) for t in bound)

    def _self_attribute(self, node: ast.Attribute, scope: Scope) -> Templates | None:
        """``self.message`` set by the ``__init__`` chain being followed (builders)."""
        return None

    def _is_gettext(self, node: ast.expr) -> bool:
        """``_("…")`` with ``_`` imported from gettext: a string, whatever it wraps."""
        return (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and (
                self.imports.get(node.func.id) in _GETTEXT
                or self.imports.get(node.func.id) in _NGETTEXT
            )
        )

    def _subscript(self, node: ast.Subscript, scope: Scope, depth: int) -> Templates | None:
        """``self.messages[key]`` where the class hierarchy says what it holds (builders)."""
        return None

    def _outer_env(self, scope: Scope) -> Iterator[Env]:
        """The bindings enclosing functions had where each nested ``def`` stands."""
        outer = scope.outer
        while outer is not None:
            parent, def_stmt = outer
            yield self._env_at(parent, def_stmt) if parent.env is LAZY else parent.env
            outer = parent.outer

    def _fill_percent(
        self, template: MessageTemplate, values: ast.expr, scope: Scope, depth: int
    ) -> Templates:
        """Put known text into ``%s`` holes: ``'%s: line %d' % (msg, n)`` with ``msg``
        known to be ``"Expecting value"`` reads ``Expecting value: line %d``; a value
        known to be one of a few texts (``e`` set to ``''`` or ``', %i more expected'``)
        gives one template per text. Holes whose value is unknown, or formatted other
        than by ``%s``, stay as written."""
        named = _named_values(values)
        if named is not None:
            return [self._fill_named(template, named, scope, depth)]
        elements = values.elts if isinstance(values, ast.Tuple) else [values]
        positional = [p for p in template.parts if isinstance(p, Hole) and p.name.isdigit()]
        if len(positional) != len(elements) or any(isinstance(e, ast.Starred) for e in elements):
            return [template]
        known: dict[int, Templates] = {}
        for hole, element in zip(positional, elements, strict=True):
            text = percent_text(hole, constant_value(self, element, scope))
            if text is not None:
                # ``'year must be in %d..%d' % (MINYEAR, MAXYEAR)``, module constants
                known[id(hole)] = [MessageTemplate.literal(text)]
                continue
            if hole.text == "%s" and isinstance(
                element, (ast.Name, ast.Constant, ast.JoinedStr, ast.Attribute)
            ):
                value = self.templates(element, scope, depth + 1)
                if value and all(not t.holes or not t.is_opaque for t in value):
                    known[id(hole)] = value
        ways: list[list[Literal | Hole]] = [[]]
        for part in template.parts:
            texts = known.get(id(part))
            if texts is None:
                ways = [[*w, part] for w in ways]
            else:
                ways = [[*w, *t.parts] for w in ways for t in texts]
            if len(ways) > MAX_ALTERNATIVES:
                return [template]
        return [MessageTemplate(w) for w in ways]

    def _attribute_text(self, value: ast.FormattedValue, scope: Scope) -> Templates | None:
        """``f"{self.message} in {self.context!r}"`` in a ``__str__`` whose ``__init__`` set
        both: their texts (one, or each of the ways an ``if`` left it), as ``str`` or
        ``repr`` formats them; None for any other field."""
        if not isinstance(value.value, ast.Attribute) or value.format_spec is not None:
            return None
        if value.conversion not in (-1, ord("s"), ord("r")):
            return None
        held = self._self_attribute(value.value, scope)
        if not held or len(held) > MAX_ALTERNATIVES or any(t.is_opaque for t in held):
            return None
        return [quoted_repr(t) if value.conversion == ord("r") else t for t in held]

    def _fill_named(
        self, template: MessageTemplate, named: dict[str, ast.expr], scope: Scope, depth: int
    ) -> MessageTemplate:
        """``'%(message)s' % dict(message=self.message)``: each ``%(key)s`` hole whose
        value's text is known (one template, not a bare value) takes that text."""
        parts: list[Literal | Hole] = []
        for part in template.parts:
            value = named.get(part.name) if isinstance(part, Hole) else None
            text = None if value is None else percent_text(part, constant_value(self, value, scope))  # type: ignore[arg-type]
            if text is not None:
                parts.append(Literal(text))
                continue
            if value is not None and isinstance(part, Hole) and part.text.endswith("s"):
                found = self.templates(value, scope, depth + 1)
                if len(found) == 1 and not found[0].is_opaque:
                    parts.extend(found[0].parts)
                    continue
            parts.append(part)
        return MessageTemplate(parts)

    def _name(self, node: ast.Name, scope: Scope, depth: int) -> Templates:
        bound = scope.env.get(node.id)
        if bound is None:
            for env in self._outer_env(scope):
                bound = env.get(node.id)
                if bound is not None:
                    break
        if bound is None and scope.env is not self.module_env:
            bound = self.module_env.get(node.id)
            if bound is not None and not (
                all(is_stringish(t, scope) for t in bound if isinstance(t, ast.expr))
                and settled_global(self, node.id, scope)
            ):
                bound = None
        if bound is None:
            return [MessageTemplate.expression(node.id)]
        out: Templates = []
        for thunk in bound:
            if _empty_dict(thunk) and int_keyed(node.id, scope.node):
                out.append(INT_KEYED_DICT)  # ``{}`` filled with ``errors[idx] = ...``
                continue
            # two ways to the same text (``msg`` re-encoded on one way only) are one text
            found = [named(node.id, t) for t in self._thunk(thunk, scope, depth + 1)]
            for t in found:
                if t in out:
                    out[out.index(t)] = joined_fill(out[out.index(t)], t)
                else:
                    out.append(t)
        return out

    def _thunk(self, thunk: Thunk | LoopTail, scope: Scope, depth: int) -> Templates:
        if isinstance(thunk, LoopTail):
            return [MessageTemplate.hole("{…}", f"{thunk.name}…")]
        if isinstance(thunk, Fixed):
            return [thunk.template]
        if isinstance(thunk, Rebind):
            inner = dataclasses.replace(scope, env={**scope.env, thunk.name: thunk.previous})
            return self.templates(thunk.value, inner, depth)
        if isinstance(thunk, tuple):
            base, extra = thunk
            return [
                a + b
                for a in self._thunk(base, scope, depth + 1)
                for b in self._thunk(extra, scope, depth + 1)
            ]
        return self.templates(thunk, scope, depth)

    def _call(self, node: ast.Call, scope: Scope, depth: int) -> Templates:
        func = node.func
        if isinstance(func, ast.Attribute):
            owner = func.value
            if func.attr == "format" and (
                is_stringish(owner, scope)
                or self._is_gettext(owner)
                or (isinstance(owner, ast.Attribute) and self._self_attribute(owner, scope))
            ):
                return [
                    format_filled(self, apply_literals(t, MessageTemplate.from_format), node, scope)
                    for t in self.templates(owner, scope, depth + 1)
                ]
            if func.attr == "join" and is_stringish(owner, scope) and len(node.args) == 1:
                seq = node.args[0]
                separators = self.templates(owner, scope, depth + 1)
                if isinstance(seq, (ast.List, ast.Tuple)) and all(
                    not isinstance(e, ast.Starred) for e in seq.elts
                ):
                    items = [self.templates(e, scope, depth + 1)[0] for e in seq.elts]
                    return [
                        MessageTemplate.join(items, sep.display)
                        if not sep.holes
                        else MessageTemplate.expression(self.expr_text(node))
                        for sep in separators
                    ]
                return [MessageTemplate.expression(self.expr_text(node))]
            recoded = _recoding(node)
            if recoded is not None and isinstance(owner, ast.Call):
                encoded = owner.func
                assert isinstance(encoded, ast.Attribute)
                return [
                    _per_literal(t, recoded)
                    for t in self.templates(encoded.value, scope, depth + 1)
                ]
            if (
                func.attr in ("strip", "rstrip", "lstrip")
                and not node.args
                and is_stringish(owner, scope)
            ):
                return [
                    transform(t, getattr(str, func.attr))
                    for t in self.templates(owner, scope, depth + 1)
                ]
            dotted = dotted_name(func)
            if dotted is not None:
                head, _, rest = dotted.partition(".")
                resolved = self.imports.get(head, head) + (f".{rest}" if rest else "")
                if resolved in ("textwrap.dedent", "inspect.cleandoc") and len(node.args) == 1:
                    fn: Callable[[str], str] = (
                        textwrap.dedent if resolved == "textwrap.dedent" else cleandoc
                    )
                    return [
                        transform(t, fn) for t in self.templates(node.args[0], scope, depth + 1)
                    ]
        dotted = dotted_name(func)
        head, _, rest = (dotted or "").partition(".")
        resolved = self.imports.get(head, head) + (f".{rest}" if rest else "")
        if resolved == "typing.cast" and len(node.args) == 2 and not node.keywords:
            return self.templates(node.args[1], scope, depth + 1)  # ``t.cast(str, x)``: x
        returned = self._returned_text(node, scope)
        if returned is not None:
            return returned
        if isinstance(func, ast.Name):
            shown = call_constant(self, node, scope)  # ``repr(OPTIONAL)``
            if shown is not None:
                return [shown]
            resolved = self.imports.get(func.id, func.id)
            if resolved == "str" and len(node.args) == 1 and not node.keywords:
                # ``str(text)`` of a known text is that text; of anything else, a hole
                inner = self.templates(node.args[0], scope, depth + 1)
                if not any(t.is_opaque for t in inner):
                    return inner
            if resolved in _GETTEXT and len(node.args) == 1 and not node.keywords:
                # untranslated, ``gettext`` returns its argument: the source text is the message
                return self.templates(node.args[0], scope, depth + 1)
            if resolved in _NGETTEXT and len(node.args) == 3 and not node.keywords:
                # untranslated, the singular text when n == 1, else the plural one
                return self.templates(node.args[0], scope, depth + 1) + self.templates(
                    node.args[1], scope, depth + 1
                )
            if resolved in ("textwrap.dedent", "inspect.cleandoc") and len(node.args) == 1:
                fn2: Callable[[str], str] = (
                    textwrap.dedent if resolved == "textwrap.dedent" else cleandoc
                )
                return [transform(t, fn2) for t in self.templates(node.args[0], scope, depth + 1)]
        return [MessageTemplate.expression(self.expr_text(node))]

    def _fstring(self, node: ast.JoinedStr, scope: Scope, depth: int) -> Templates:
        values = node.values
        formatted = [v for v in values if isinstance(v, ast.FormattedValue)]
        placeholders = (
            all(
                isinstance(v.value, ast.Name) and v.value.id.startswith(PLACEHOLDER_PREFIX)
                for v in formatted
            )
            and bool(formatted)
            and bool(self.placeholder_fields)
        )
        raw_fields = None if placeholders else scan_fstring_fields(self.segment(node))
        if raw_fields is not None and len(raw_fields) != len(formatted):
            raw_fields = None
        parts: list[Literal | Hole] = []
        #: Fields with several texts (``self.context`` set two ways): parts index -> texts.
        several: dict[int, Templates] = {}
        k = 0
        for value in values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                parts.append(Literal(value.value))
                continue
            if not isinstance(value, ast.FormattedValue):
                continue
            given = _given_text(value, scope) or fstring_constant(self, value, scope)
            texts = [given] if given is not None else self._attribute_text(value, scope)
            if texts is not None and len(texts) == 1:
                parts.extend(texts[0].parts)
                k += 1
                continue
            if texts is not None and len(several) < 2:
                several[len(parts)] = texts
                parts.append(Literal(""))  # stands in for the texts, filled below
                k += 1
                continue
            if placeholders and isinstance(value.value, ast.Name):
                # the 3.12+ grammar: the downgrade kept each field's raw text aside
                raw = self.placeholder_fields.get(value.value.id, value.value.id)
                fld = split_field(raw)
                parts.append(
                    Hole(
                        "{" + raw + "}",
                        fld.name,
                        fld.expression if fld.debug else "",
                        kind=_spec_kind(value),
                    )
                )
            elif raw_fields is not None:
                fld = raw_fields[k]
                prefix = ""
                if (
                    fld.debug
                    and parts
                    and isinstance(parts[-1], Literal)
                    and parts[-1].text.endswith(fld.expression)
                ):
                    # 3.11 puts the printed ``expr=`` into the literal before the value
                    text = parts[-1].text[: len(parts[-1].text) - len(fld.expression)]
                    parts[-1] = Literal(text)
                    prefix = fld.expression
                parts.append(Hole("{" + fld.raw + "}", fld.name, prefix, kind=_spec_kind(value)))
            else:
                text = self.expr_text(value.value)
                conv = f"!{chr(value.conversion)}" if value.conversion > 0 else ""
                parts.append(Hole("{" + text + conv + "}", text, kind=_spec_kind(value)))
            k += 1
        ways: list[list[Literal | Hole]] = [parts]
        for i in sorted(several, reverse=True):  # from the end: earlier places stay put
            ways = [[*w[:i], *text.parts, *w[i + 1 :]] for w in ways for text in several[i]]
        return [MessageTemplate(w) for w in ways]


def _spec_kind(value: ast.FormattedValue) -> str:
    """``int`` for ``{n:d}``: CPython prints the int's digits (as ``%d`` does); any other
    spec or a conversion prints what errdex does not type."""
    spec = value.format_spec
    if value.conversion != -1 or not isinstance(spec, ast.JoinedStr) or len(spec.values) != 1:
        return ""
    only = spec.values[0]
    return "int" if isinstance(only, ast.Constant) and only.value == "d" else ""


def _empty_dict(thunk: Thunk) -> bool:
    return isinstance(thunk, ast.Dict) and not thunk.keys


def _numeric_thunk(thunk: object) -> bool:
    if isinstance(thunk, tuple):  # ``name += extra``
        return any(_numeric_thunk(t) for t in thunk)
    if isinstance(thunk, Rebind):
        return _numeric_thunk(thunk.value)
    if isinstance(thunk, ast.BinOp):
        return _is_number(thunk.left) or _is_number(thunk.right)
    return isinstance(thunk, ast.expr) and _is_number(thunk)


def _is_number(node: ast.expr) -> bool:
    """A literal int, float or complex, signed or not (``lnum + 1`` is arithmetic, not
    concatenation; ``n = -1`` binds a number, whose repr has no quotes)."""
    return signed_number(node) is not None or (
        isinstance(node, ast.Constant)
        and isinstance(node.value, (int, float, complex))
        and not isinstance(node.value, bool)
    )


def _named_values(values: ast.expr) -> dict[str, ast.expr] | None:
    """The keys and values of ``dict(k=v, …)`` or ``{'k': v, …}`` given to ``%``."""
    if isinstance(values, ast.Call) and isinstance(values.func, ast.Name):
        if values.func.id != "dict" or values.args:
            return None
        named = {k.arg: k.value for k in values.keywords if k.arg is not None}
        return named if len(named) == len(values.keywords) else None
    if isinstance(values, ast.Dict) and all(
        isinstance(k, ast.Constant) and isinstance(k.value, str) for k in values.keys
    ):
        return {k.value: v for k, v in zip(values.keys, values.values, strict=True)}  # type: ignore[union-attr]
    return None


def _given_text(value: ast.FormattedValue, scope: Scope) -> MessageTemplate | None:
    """A field naming a parameter a caller's literal filled (``Fixed``): that text, as
    ``str`` or ``repr`` formats it; None for every other field."""
    name = value.value
    if not isinstance(name, ast.Name) or value.format_spec is not None or scope.env is LAZY:
        return None
    bound = scope.env.get(name.id)
    if bound is None or len(bound) != 1 or not isinstance(bound[0], Fixed):
        return None
    template = bound[0].template
    if template.is_opaque or value.conversion not in (-1, ord("s"), ord("r")):
        return None
    return quoted_repr(template) if value.conversion == ord("r") else template


#: Codecs that encode one character at a time, and error handlers that keep it so.
_CHARWISE_CODECS = frozenset({"ascii", "latin-1", "latin1", "utf-8", "utf8"})
_CHARWISE_ERRORS = frozenset({"strict", "backslashreplace", "replace", "ignore"})


def _recoding(node: ast.Call) -> Callable[[str], str] | None:
    """``text.encode('ascii', 'backslashreplace').decode('ascii')`` (re's ``Tokenizer.error``
    on a bytes pattern): the text function it applies, when its arguments are literals of
    codecs that work character by character; None for any other call."""
    func = node.func
    if not (isinstance(func, ast.Attribute) and func.attr == "decode" and not node.keywords):
        return None
    owner = func.value
    if not (
        isinstance(owner, ast.Call)
        and isinstance(owner.func, ast.Attribute)
        and owner.func.attr == "encode"
        and not owner.keywords
    ):
        return None
    encode = [
        a.value for a in owner.args if isinstance(a, ast.Constant) and isinstance(a.value, str)
    ]
    decode = [
        a.value for a in node.args if isinstance(a, ast.Constant) and isinstance(a.value, str)
    ]
    if len(encode) != len(owner.args) or len(decode) != len(node.args):
        return None
    codecs = [*encode[:1], *decode[:1]] or ["utf-8"]
    errors = [*encode[1:2], *decode[1:2]]
    if len(encode) > 2 or len(decode) > 2:
        return None
    if not set(codecs) <= _CHARWISE_CODECS or not set(errors) <= _CHARWISE_ERRORS:
        return None
    return lambda text: text.encode(*encode).decode(*decode)


def _per_literal(template: MessageTemplate, fn: Callable[[str], str]) -> MessageTemplate:
    """``fn`` applied to each literal part (it works per character, so holes stay put);
    the template unchanged when ``fn`` fails on a part (the call would raise)."""
    try:
        parts = [Literal(fn(p.text)) if isinstance(p, Literal) else p for p in template.parts]
    except (UnicodeError, LookupError):
        return template
    return MessageTemplate(parts)
