"""C API calls made from Cython: ``PyErr_Format(TypeError, b"… %.200s …", …)`` and kin.

Cython code sets errors through the C API where a ``raise`` would cost a Python call
(msgpack's packer, lxml); the error then surfaces at that line of the ``.pyx``. The
format is ``PyUnicode_FromFormat``'s: its conversions are read as the ``%``-format
holes they print like (``%R`` as ``%r``, ``%S``/``%U``/``%V`` as ``%s``, ``%zd`` and the
other integer sizes as ``%d``), so a message reads and matches as it is printed.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from errdex.extract.site import SiteKind
from errdex.template import MessageTemplate

__all__ = ["C_API_SETTERS", "c_api_class", "c_api_template"]

#: function -> (site kind, index of the message argument, whether it is a format)
C_API_SETTERS: dict[str, tuple[SiteKind, int, bool]] = {
    "PyErr_SetString": ("set", 1, False),
    "PyErr_Format": ("set", 1, True),
    "PyErr_SetObject": ("set", 1, False),
    "PyErr_WarnEx": ("warn", 1, False),
    "PyErr_WarnFormat": ("warn", 2, True),
}
_CONVERSION = re.compile(
    r"%(?P<flags>[-+ #0]*)(?P<width>\d*)(?:\.(?P<prec>\d+))?(?P<size>z|l{1,2}|j|t)?(?P<conv>[diouxXcsSRAUVp%])"
)
_AS_PYTHON = {
    "R": "r",
    "S": "s",
    "U": "s",
    "V": "s",
    "A": "a",
    "p": "s",
    "u": "d",
    "i": "d",
    "o": "o",
}


def _python_format(fmt: str) -> str:
    def repl(m: re.Match[str]) -> str:
        conv = m.group("conv")
        if conv == "%":
            return "%%"
        prec = f".{m.group('prec')}" if m.group("prec") else ""
        return f"%{m.group('flags')}{m.group('width')}{prec}{_AS_PYTHON.get(conv, conv)}"

    return _CONVERSION.sub(repl, fmt)


def c_api_template(arg: ast.expr, is_format: bool) -> MessageTemplate | None:
    """The message of a C API call's literal argument (``b"…"`` or ``"…"``), else None."""
    if not isinstance(arg, ast.Constant) or not isinstance(arg.value, (bytes, str)):
        return None
    text = arg.value.decode("utf-8", "replace") if isinstance(arg.value, bytes) else arg.value
    return (
        MessageTemplate.from_percent(_python_format(text))
        if is_format
        else (MessageTemplate.literal(text))
    )


def c_api_class(node: ast.expr, qualify: Any) -> tuple[str | None, str | None]:
    """(qualified, shown) of ``PyExc_TypeError`` (the builtin) or a class expression."""
    if isinstance(node, ast.Name) and node.id.startswith("PyExc_"):
        name = node.id.removeprefix("PyExc_")
        return f"builtins.{name}", name
    if isinstance(node, (ast.Name, ast.Attribute)):
        qualified = qualify(node)
        return qualified, qualified.rpartition(".")[2]
    return None, None
