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


def prepare(config: dict[str, Any]) -> None:
    """What holds for every snippet: no network, the extra import roots."""
    if config.get("blockNetwork", True):
        _no_network()
    for path in reversed(config.get("sysPath") or []):
        sys.path.insert(0, path)


def run(config: dict[str, Any], out_path: str) -> None:
    """Run one program under its limits and write what it raised to ``out_path``."""
    _limits(config)
    import linecache
    import signal
    import warnings

    if config.get("warningsAsErrors"):
        warnings.simplefilter("error")
    # Ctrl-C raises KeyboardInterrupt, as in an interpreter started from a terminal: one
    # started in the background (CI, nohup, 'verify &') inherits SIGINT ignored, and a
    # snippet sending itself SIGINT then waited for ever instead of raising
    signal.signal(signal.SIGINT, signal.default_int_handler)
    result: dict[str, Any] = {"status": "ok"}
    started = time.monotonic()
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


def _forked(config_path: str, out_path: str, work: str) -> None:
    """In the forked child: its own session, folder, standard streams, then the run."""
    os.setsid()
    os.chdir(work)
    os.environ["HOME"] = os.environ["TMPDIR"] = work
    null = os.open(os.devnull, os.O_RDWR)
    err = os.open(os.path.join(work, "stderr.txt"), os.O_WRONLY | os.O_CREAT, 0o600)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.dup2(err, 2)
    with open(config_path, encoding="utf-8") as f:
        config = json.load(f)
    run(config, out_path)


def serve(config_path: str) -> int:
    """Fork server: import the named modules once, then fork one child per request.

    A request is one JSON line on stdin (``config``, ``out``, ``work``); the answer is
    ``{"pid": …}`` at once and ``{"done": …}`` when that child has ended.
    """
    with open(config_path, encoding="utf-8") as f:
        config = json.load(f)
    prepare(config)
    import importlib

    for name in config.get("preload") or []:
        try:
            importlib.import_module(name)
        except BaseException:
            continue
    for line in sys.stdin:
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                _forked(request["config"], request["out"], request["work"])
                code = 0
            finally:
                os._exit(code)
        print(json.dumps({"pid": pid}), flush=True)
        _, status = os.waitpid(pid, 0)
        print(json.dumps({"done": pid, "status": status}), flush=True)
    return 0


def main() -> int:
    if sys.argv[1] == "--serve":
        return serve(sys.argv[2])
    with open(sys.argv[1], encoding="utf-8") as f:
        config = json.load(f)
    prepare(config)
    run(config, sys.argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
