"""``python -m errdex``: the ``errdex`` command, and ``python -m errdex run SCRIPT [ARGS]``.

``run`` runs a script as ``python SCRIPT ARGS`` would (``sys.argv``, ``sys.path[0]``,
``__name__ == "__main__"``, the exit status) with :func:`errdex.install` in place, so an
uncaught exception prints its normal traceback and then errdex's block. ``run -m MODULE``
does the same for ``python -m MODULE``.
"""

from __future__ import annotations

import builtins
import os
import runpy
import sys
import types
import zipfile
from importlib.machinery import SourceFileLoader
from types import TracebackType

USAGE = "usage: python -m errdex run SCRIPT [ARGS...] | run -m MODULE [ARGS...]\n"

#: Frames of the runner itself, left out of the traceback so it reads as ``python SCRIPT``'s.
_RUNNER_FILES = {os.path.abspath(__file__), os.path.abspath(runpy.__file__), "<frozen runpy>"}


def _runner(filename: str) -> bool:
    return filename in _RUNNER_FILES or os.path.abspath(filename) in _RUNNER_FILES


def _user_frames(tb: TracebackType | None) -> TracebackType | None:
    """The traceback from the first frame that is not errdex's runner or runpy."""
    while tb is not None and _runner(tb.tb_frame.f_code.co_filename):
        tb = tb.tb_next
    return tb


def _run_script(path: str) -> None:
    """As ``python PATH``: a file runs as a fresh ``__main__`` with its absolute path
    (``__file__``, traceback) while ``sys.argv[0]`` stays as given; a folder or zip with
    a ``__main__.py`` goes through :func:`runpy.run_path`."""
    if not os.path.isfile(path) or zipfile.is_zipfile(path):
        runpy.run_path(path, run_name="__main__")
        return
    full = os.path.abspath(path)
    main = types.ModuleType("__main__")
    main.__file__ = full
    main.__loader__ = SourceFileLoader("__main__", full)
    main.__dict__["__builtins__"] = builtins
    main.__dict__["__cached__"] = None
    with open(full, "rb") as handle:
        source = handle.read()
    sys.modules["__main__"] = main  # kept, as python keeps its own (pickle, multiprocessing)
    exec(compile(source, full, "exec", dont_inherit=True), main.__dict__)


def run(args: list[str]) -> int:
    """Run ``args`` (``SCRIPT ARGS`` or ``-m MODULE ARGS``) with the hook installed; the
    exit status is the script's: 0, its ``sys.exit`` code, or 1 for an uncaught exception."""
    module = args[:1] == ["-m"]
    target = args[1:2] if module else args[:1]
    if not target:
        sys.stderr.write(USAGE)
        return 2
    if not module and not os.path.exists(target[0]):
        path = os.path.abspath(target[0])
        sys.stderr.write(
            f"{sys.executable}: can't open file {path!r}: [Errno 2] No such file or directory\n"
        )
        return 2
    from errdex.integrations.hook import install

    install()
    if module:
        sys.argv = [target[0], *args[2:]]  # runpy sets argv[0] to the module's file
    else:
        sys.argv = [target[0], *args[1:]]
        sys.path[0] = os.path.dirname(os.path.abspath(target[0]))
    try:
        if module:
            runpy.run_module(target[0], run_name="__main__", alter_sys=True)
        else:
            _run_script(target[0])
    except SystemExit:
        raise
    except BaseException as exc:
        if isinstance(exc, KeyboardInterrupt):
            raise
        tb = _user_frames(exc.__traceback__)
        sys.excepthook(type(exc), exc.with_traceback(tb), tb)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["run"]:
        return run(args[1:])
    from errdex.cli import main as cli

    cli.main(args=args, prog_name="errdex")  # click exits with the command's status
    return 0


if __name__ == "__main__":
    sys.exit(main())
