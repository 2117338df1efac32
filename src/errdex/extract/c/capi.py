"""The C API calls that set an error or warn, and what each one's message is.

Each entry says which argument names the exception class and which holds the message,
and how the message is read: as text (``PyErr_SetString``), a ``PyUnicode_FromFormat``
format (``PyErr_Format``), an object (``PyErr_SetObject``: its ``str()``), nothing
(``PyErr_SetNone``), or a message CPython itself writes (``PyErr_NoMemory``,
``PyErr_SetFromErrno``, the argument parsers' messages, rendered from CPython 3.11's
``Python/errors.c`` and ``Python/getargs.c``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal as Lit

from errdex.template import Hole, Literal, MessageTemplate

__all__ = ["CAPI_CALLS", "CallSpec", "errno_template", "fixed"]

Mode = Lit["string", "format", "object", "none", "fixed", "printf"]


@dataclass(frozen=True, slots=True)
class CallSpec:
    """One call: where its class and message are, and how to read the message."""

    mode: Mode
    #: Index of the argument naming the class, or None when the class is fixed.
    exc_arg: int | None = 0
    #: Index of the message argument (the format's, for a format).
    msg_arg: int = 1
    #: The class when the call fixes it (``PyErr_NoMemory``: MemoryError).
    error_class: str | None = None
    #: The message when the call fixes it.
    message: MessageTemplate | None = None
    warn: bool = False
    #: Appended to the message: ``PyErr_SetFromErrnoWithFilename`` adds the file name.
    with_filename: bool = False


def fixed(*parts: str | tuple[str, str]) -> MessageTemplate:
    """A template from literal strings and ``(written, name)`` holes."""
    return MessageTemplate(Literal(p) if isinstance(p, str) else Hole(p[0], p[1]) for p in parts)


def errno_template(with_filename: bool) -> MessageTemplate:
    """``OSError(errno, strerror[, filename])`` prints ``[Errno 2] No such file…: 'x'``."""
    parts: list[str | tuple[str, str]] = [
        "[Errno ",
        ("{errno}", "errno"),
        "] ",
        ("{strerror}", "strerror"),
    ]
    if with_filename:
        parts += [": ", ("{filename!r}", "filename")]
    return fixed(*parts)


_BAD_INTERNAL = fixed(
    ("%s", "__FILE__"), ":", ("%d", "__LINE__"), ": bad argument to internal function"
)

CAPI_CALLS: dict[str, CallSpec] = {
    "PyErr_SetString": CallSpec("string"),
    "_PyErr_SetString": CallSpec("string", 1, 2),
    "PyErr_Format": CallSpec("format"),
    "_PyErr_Format": CallSpec("format", 1, 2),
    "PyErr_SetObject": CallSpec("object"),
    "_PyErr_SetObject": CallSpec("object", 1, 2),
    "PyErr_SetNone": CallSpec("none"),
    "_PyErr_SetNone": CallSpec("none", 1),
    "PyErr_NoMemory": CallSpec("none", None, error_class="MemoryError"),
    "_PyErr_NoMemory": CallSpec("none", None, error_class="MemoryError"),
    "PyErr_BadArgument": CallSpec(
        "fixed",
        None,
        error_class="TypeError",
        message=MessageTemplate.literal("bad argument type for built-in operation"),
    ),
    "PyErr_BadInternalCall": CallSpec(
        "fixed", None, error_class="SystemError", message=_BAD_INTERNAL
    ),
    "_PyErr_BadInternalCall": CallSpec(
        "fixed", None, error_class="SystemError", message=_BAD_INTERNAL
    ),
    "PyErr_SetFromErrno": CallSpec("fixed", message=errno_template(False)),
    "PyErr_SetFromErrnoWithFilename": CallSpec("fixed", message=errno_template(True)),
    "PyErr_SetFromErrnoWithFilenameObject": CallSpec("fixed", message=errno_template(True)),
    "PyErr_SetFromErrnoWithFilenameObjects": CallSpec("fixed", message=errno_template(True)),
    "PyErr_SetImportError": CallSpec("object", None, 0, error_class="ImportError"),
    "PyErr_Warn": CallSpec("string", warn=True),
    "PyErr_WarnEx": CallSpec("string", warn=True),
    "PyErr_WarnFormat": CallSpec("format", 0, 2, warn=True),
    "PyErr_ResourceWarning": CallSpec("format", None, 2, error_class="ResourceWarning", warn=True),
    "PyErr_WarnExplicit": CallSpec("string", warn=True),
    "PyErr_WarnExplicitObject": CallSpec("object", warn=True),
    "PyErr_WarnExplicitFormat": CallSpec("format", 0, 5, warn=True),
    # pybind11's and nanobind's own ways to set a Python error
    "py::set_error": CallSpec("string"),
    "pybind11::set_error": CallSpec("string"),
    "nb::raise": CallSpec("printf", None, 0, error_class="RuntimeError"),
    "nanobind::raise": CallSpec("printf", None, 0, error_class="RuntimeError"),
    "nb::raise_type_error": CallSpec("printf", None, 0, error_class="TypeError"),
    "nanobind::raise_type_error": CallSpec("printf", None, 0, error_class="TypeError"),
    "pybind11_fail": CallSpec("string", None, 0, error_class="RuntimeError"),
    "pybind11::pybind11_fail": CallSpec("string", None, 0, error_class="RuntimeError"),
}

#: ``PyExc_*`` names that are aliases of another class since Python 3.3.
PYEXC_ALIASES = {"IOError": "OSError", "EnvironmentError": "OSError", "WindowsError": "OSError"}
