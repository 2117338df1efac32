"""Whether an ``.expect("…")`` receiver is an ``Option``, which prints the message alone
(``Result::expect`` prints ``msg: {error:?}``).

Told from the receiver's own text, without type inference: a call of a method that
returns an ``Option`` in the standard library (``v.get(i)``), or a name bound in the
enclosing function by a parameter or a ``let`` declared ``Option<…>`` or given
``Some(…)``/``None`` (the nearest binding before the call: a later ``let`` shadows).
"""

from __future__ import annotations

from tree_sitter import Node

from .scope import _text

__all__ = ["is_option"]

#: Receivers whose ``.expect`` is ``Option::expect`` (which prints the message alone).
_OPTION_METHODS = frozenset(
    {
        "get",
        "get_mut",
        "first",
        "last",
        "pop",
        "next",
        "next_back",
        "peek",
        "find",
        "position",
        "nth",
        "max",
        "min",
        "strip_prefix",
        "strip_suffix",
        "parent",
        "file_name",
        "extension",
        "to_str",
        "checked_add",
        "checked_sub",
        "checked_mul",
        "checked_div",
        "upgrade",
        "take",
        "last_mut",
        "first_mut",
        "remove_entry",
        "find_map",
        "chars",
    }
)

#: How the standard library's ``Option`` is written in a type.
_OPTION_TYPES = frozenset({"Option", "std::option::Option", "core::option::Option"})


def is_option(receiver: Node | None) -> bool:
    """Whether ``receiver`` (of ``.expect``) is an ``Option`` by its call or its binding."""
    if receiver is None:
        return False
    if receiver.type == "identifier":
        return _bound_to_option(_text(receiver), receiver)
    if receiver.type != "call_expression":
        return False
    function = receiver.child_by_field_name("function")
    if function is None or function.type != "field_expression":
        return False
    return _text(function.child_by_field_name("field")) in _OPTION_METHODS


def _is_option_type(node: Node | None) -> bool:
    """``Option<T>``, ``&Option<T>``, ``&mut std::option::Option<T>``."""
    while node is not None and node.type == "reference_type":
        node = node.child_by_field_name("type")
    if node is None or node.type != "generic_type":
        return False
    return _text(node.child_by_field_name("type")) in _OPTION_TYPES


def _made_as_option(value: Node | None) -> bool:
    """``Some(x)`` or ``None``."""
    if value is None:
        return False
    if value.type == "identifier":
        return _text(value) == "None"
    return value.type == "call_expression" and (
        _text(value.child_by_field_name("function")) == "Some"
    )


def _bound_to_option(name: str, use: Node) -> bool:
    """The nearest binding of ``name`` before ``use``, up to the enclosing function."""
    node = use
    while node.parent is not None:
        parent = node.parent
        if parent.type == "block":
            for child in reversed(parent.named_children):
                if child.start_byte >= node.start_byte or child.type != "let_declaration":
                    continue
                if _text(child.child_by_field_name("pattern")) == name:
                    declared = child.child_by_field_name("type")
                    if declared is not None:
                        return _is_option_type(declared)
                    return _made_as_option(child.child_by_field_name("value"))
        elif parent.type in ("function_item", "closure_expression"):
            parameters = parent.child_by_field_name("parameters")
            for parameter in parameters.named_children if parameters is not None else []:
                if (
                    parameter.type == "parameter"
                    and _text(parameter.child_by_field_name("pattern")) == name
                ):
                    return _is_option_type(parameter.child_by_field_name("type"))
            if parent.type == "function_item":
                return False
        node = parent
    return False
