"""C++ exceptions and status errors as Python users see them.

pybind11 translates the standard exceptions it knows (its documentation's table
"Built-in C++ to Python exception translation"); nanobind keeps the same table; their
own ``py::value_error`` & co. are the Python class of their name. absl-style status
errors (``absl::InvalidArgumentError``, XLA's ``InvalidArgument(fmt, …)``) reach
Python through a binding that picks the class (jaxlib's ``XlaRuntimeError``); what
every such binding prints is the status code, ``: `` and the message.
"""

from __future__ import annotations

__all__ = ["STATUS_CODES", "python_class_of_throw", "status_code_of", "status_constructors"]

#: std:: exception -> the Python class pybind11 raises for it.
STD_EXCEPTIONS = {
    "exception": "RuntimeError",
    "bad_alloc": "MemoryError",
    "domain_error": "ValueError",
    "invalid_argument": "ValueError",
    "length_error": "ValueError",
    "out_of_range": "IndexError",
    "range_error": "ValueError",
    "overflow_error": "OverflowError",
    "runtime_error": "RuntimeError",
    "logic_error": "RuntimeError",
    "underflow_error": "RuntimeError",
}

#: pybind11:: / nanobind:: exception classes -> their Python class.
BINDING_EXCEPTIONS = {
    "value_error": "ValueError",
    "type_error": "TypeError",
    "index_error": "IndexError",
    "key_error": "KeyError",
    "attribute_error": "AttributeError",
    "stop_iteration": "StopIteration",
    "buffer_error": "BufferError",
    "import_error": "ImportError",
    "cast_error": "RuntimeError",
    "reference_cast_error": "RuntimeError",
}
_BINDING_NAMESPACES = ("py", "pybind11", "nb", "nanobind", "pybind11::detail", "nb::detail")

#: Status code constructors -> the code a status prints before its message.
STATUS_CODES = {
    "Cancelled": "CANCELLED",
    "Unknown": "UNKNOWN",
    "InvalidArgument": "INVALID_ARGUMENT",
    "DeadlineExceeded": "DEADLINE_EXCEEDED",
    "NotFound": "NOT_FOUND",
    "AlreadyExists": "ALREADY_EXISTS",
    "PermissionDenied": "PERMISSION_DENIED",
    "ResourceExhausted": "RESOURCE_EXHAUSTED",
    "FailedPrecondition": "FAILED_PRECONDITION",
    "Aborted": "ABORTED",
    "OutOfRange": "OUT_OF_RANGE",
    "Unimplemented": "UNIMPLEMENTED",
    "Internal": "INTERNAL",
    "Unavailable": "UNAVAILABLE",
    "DataLoss": "DATA_LOSS",
    "Unauthenticated": "UNAUTHENTICATED",
}
#: Where XLA-style constructors (``InvalidArgument("…%s…", x)``) live.
_XLA_NAMESPACES = ("", "xla", "tsl::errors", "errors", "tensorflow::errors")


def python_class_of_throw(name: str, binding: bool = False) -> tuple[str | None, str | None]:
    """(Python class, qualified class) for a thrown C++ class, or (None, None) when
    the binding decides at run time (a registered or unknown exception). ``binding``:
    the file is written against pybind11 or nanobind, so their names may go unqualified."""
    namespace, _, short = name.rpartition("::")
    if namespace in ("std", "") and short in STD_EXCEPTIONS and (namespace or short != "exception"):
        cls = STD_EXCEPTIONS[short]
        return cls, f"builtins.{cls}"
    if (
        namespace in _BINDING_NAMESPACES or (binding and not namespace)
    ) and short in BINDING_EXCEPTIONS:
        cls = BINDING_EXCEPTIONS[short]
        return cls, f"builtins.{cls}"
    return None, None


def status_code_of(name: str) -> tuple[str, bool] | None:
    """(status code, message is a format) of a status constructor, or None.

    ``absl::InvalidArgumentError(msg)`` takes a message; XLA's ``InvalidArgument(fmt, …)``
    a printf format."""
    namespace, _, short = name.rpartition("::")
    if namespace == "absl" and short.endswith("Error") and short[:-5] in STATUS_CODES:
        return STATUS_CODES[short[:-5]], False
    if namespace in _XLA_NAMESPACES and short in STATUS_CODES:
        return STATUS_CODES[short], True
    return None


def status_constructors() -> list[str]:
    """Every name :func:`status_code_of` reads as a status constructor."""
    absl = [f"absl::{short}Error" for short in STATUS_CODES]
    xla = [f"{ns}::{short}" if ns else short for ns in _XLA_NAMESPACES for short in STATUS_CODES]
    return [*absl, *xla]
