"""The wrapper that runs one snippet in the child interpreter and writes what happened.

It is copied into the scratch directory and run as a script by the target environment's
interpreter, which need not have errdex installed: it imports only the standard library.
Argument 1 is a JSON configuration file, argument 2 the result file to write.

Before the snippet runs it sets the resource limits (address space, CPU seconds, file
size, no core files) and, unless the network is already cut off by a namespace, makes
every connect, send-to and name lookup fail. The result is JSON, written by this wrapper
rather than parsed from stderr, so a snippet printing anything cannot fake it: the
exception's class (with every class above it), ``str()`` and ``args[0]``, the
traceback's frames (outermost first) and its formatted tail.
"""

from __future__ import annotations

import json
import os
import sys
import time
from typing import Any

#: Frames kept from the traceback (innermost ones).
MAX_FRAMES = 40
#: Lines of the formatted traceback kept as its tail.
TAIL_LINES = 14
MAX_TEXT = 4000
SNIPPET_FILE = "<reproducer>"


def _limits(config: dict[str, Any]) -> None:
    import resource

    memory = int(config.get("memory") or 0)
    if memory:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    cpu = int(config.get("cpu") or 0)
    if cpu:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    fsize = int(config.get("fsize") or 0)
    if fsize:
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


class NetworkDisabled(OSError):
    """Raised by every network call the snippet makes."""


def _no_network() -> None:
    import socket

    def refuse(*args: object, **kwargs: object) -> None:
        raise NetworkDisabled("network access is disabled by errdex verify")

    original_connect = socket.socket.connect
    original_connect_ex = socket.socket.connect_ex

    def connect(self: socket.socket, address: Any) -> None:
        if self.family == getattr(socket, "AF_UNIX", None):
            return original_connect(self, address)
        refuse()

    def connect_ex(self: socket.socket, address: Any) -> int:
        if self.family == getattr(socket, "AF_UNIX", None):
            return original_connect_ex(self, address)
        refuse()
        return 1

    socket.socket.connect = connect  # type: ignore[method-assign,assignment]
    socket.socket.connect_ex = connect_ex  # type: ignore[method-assign,assignment]
    socket.socket.sendto = refuse  # type: ignore[method-assign,assignment]
    socket.getaddrinfo = refuse  # type: ignore[assignment]
    socket.gethostbyname = refuse  # type: ignore[assignment]
    socket.create_connection = refuse  # type: ignore[assignment]


def _class_names(cls: type) -> list[str]:
    out = []
    for klass in cls.__mro__:
        module = getattr(klass, "__module__", None) or ""
        qualname = getattr(klass, "__qualname__", klass.__name__)
        out.append(f"{module}.{qualname}" if module else qualname)
    return out


def _text(value: object) -> str:
    try:
        text = str(value)
    except Exception as exc:  # a broken __str__
        text = f"<unprintable {type(value).__name__}: {type(exc).__name__}>"
    return text[:MAX_TEXT]


def _describe(exc: BaseException) -> dict[str, Any]:
    import traceback

    tb = exc.__traceback__
    if tb is not None and tb.tb_frame.f_code.co_filename == __file__:
        tb = tb.tb_next  # the wrapper's own exec() is no part of the answer
    frames = [
        {"file": f.filename, "line": f.lineno, "function": f.name} for f in traceback.extract_tb(tb)
    ][-MAX_FRAMES:]
    lines = "".join(traceback.format_exception(type(exc), exc, tb)).splitlines()
    first = exc.args[0] if len(exc.args) == 1 and isinstance(exc.args[0], str) else None
    return {
        "status": "raised",
        "errorClass": _class_names(type(exc))[0],
        "classes": _class_names(type(exc)),
        "message": _text(exc),
        "arg": first[:MAX_TEXT] if first is not None else None,
        "frames": frames,
        "tracebackTail": "\n".join(lines[-TAIL_LINES:])[:MAX_TEXT],
    }


def main() -> int:
    with open(sys.argv[1], encoding="utf-8") as f:
        config = json.load(f)
    out_path = sys.argv[2]
    _limits(config)
    if config.get("blockNetwork", True):
        _no_network()
    for path in reversed(config.get("sysPath") or []):
        sys.path.insert(0, path)
    import warnings

    if config.get("warningsAsErrors"):
        warnings.simplefilter("error")
    result: dict[str, Any] = {"status": "ok"}
    started = time.monotonic()
    import linecache

    program = config["program"]
    linecache.cache[SNIPPET_FILE] = (
        len(program),
        None,
        program.splitlines(keepends=True),
        SNIPPET_FILE,
    )
    sys.argv = [SNIPPET_FILE]
    try:
        code = compile(program, SNIPPET_FILE, "exec")
        namespace = {"__name__": "__main__", "__file__": SNIPPET_FILE}
        exec(code, namespace)
        marks = namespace.get("__errdex_marks__")
        if isinstance(marks, list):
            result["marks"] = [str(m) for m in marks][:20]
    except BaseException as exc:
        result = _describe(exc)
    result["seconds"] = round(time.monotonic() - started, 4)
    result["python"] = sys.version.split()[0]
    result["executable"] = sys.executable
    tmp = out_path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(result, f)
    os.replace(tmp, out_path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
