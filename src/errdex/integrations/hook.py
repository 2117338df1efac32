"""``errdex.install()``: after the normal traceback of an uncaught exception, errdex's block.

The hook wraps ``sys.excepthook``, ``threading.excepthook`` and asyncio's default
exception handler: each first does what it did before (so the traceback prints exactly as
without errdex), then prints the short block of :mod:`errdex.integrations.block` for the
live exception. It costs nothing until an exception arrives: this module imports only
what the interpreter has already loaded, threading and asyncio are patched when (and if)
the program imports them, and the matcher is imported only when there is a catalogue to
ask.

The hook never raises: whatever goes wrong inside it is swallowed (one line on stderr
with ``ERRDEX_DEBUG=1``), and the program's output and exit status stay as they were.
``ERRDEX_DISABLE=1`` makes :func:`install` do nothing.
"""

from __future__ import annotations

import _thread
import os
import sys
from importlib.machinery import ModuleSpec, PathFinder
from types import ModuleType, TracebackType

TYPE_CHECKING = False  # not typing's: importing typing alone costs a fast start-up ~5 ms
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from threading import ExceptHookArgs
    from typing import Any, TypeAlias

    ExceptHook: TypeAlias = Callable[
        [type[BaseException], BaseException, TracebackType | None], Any
    ]
    ThreadHook: TypeAlias = Callable[[ExceptHookArgs], Any]

__all__ = ["disabled", "install", "installed", "report", "uninstall"]

_TRUE = {"1", "true", "yes", "on"}


def _flag(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in _TRUE


def disabled() -> bool:
    """``ERRDEX_DISABLE`` is set to 1/true/yes/on."""
    return _flag("ERRDEX_DISABLE")


class _State:
    """What :func:`install` replaced, to put back; the options it was given."""

    def __init__(self) -> None:
        self.excepthook: ExceptHook | None = None
        self.threadhook: ThreadHook | None = None
        self.watcher: _Watcher | None = None
        self.db: str | Path | None = None
        self.color: bool | None = None
        self.top = 1


_state: _State | None = None
#: asyncio's own ``BaseEventLoop.default_exception_handler``, once patched.
_asyncio_original: Callable[..., Any] | None = None
_lock = _thread.allocate_lock()


def installed() -> bool:
    return _state is not None


def _use_color(stream: Any, color: bool | None) -> bool:
    if color is not None:
        return color
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    try:
        return bool(stream.isatty())
    except Exception:
        return False


def report(
    exc: BaseException | None,
    *,
    db: str | Path | None = None,
    color: bool | None = None,
    top: int = 1,
    stream: Any = None,
) -> bool:
    """Print the block for ``exc`` on ``stream`` (stderr); True when it printed one.
    Never raises."""
    try:
        if exc is None or isinstance(exc, KeyboardInterrupt | SystemExit) or disabled():
            return False
        from pathlib import Path

        from errdex.integrations.catalogue import default_db, is_server_url

        path: Path | str | None = db if db is not None else default_db()
        if path is None:  # silent, and nothing heavy imported
            return False
        if is_server_url(path):
            from errdex.match.server_index import server_index_path

            path = str(path)
            _prefetch_index(server_index_path(path))
        else:
            path = Path(path)
            if not path.exists():
                return False
            _prefetch_index(path.with_name(path.name + ".matchindex"))
        from errdex.integrations.block import render_text
        from errdex.integrations.live import NoIndexYet, answers_for_exception

        out = stream if stream is not None else sys.stderr
        try:
            answers = answers_for_exception(exc, db=path, top=top, build_index=False)
        except NoIndexYet:
            import shlex

            from errdex.db_url import shown_url  # no password shown

            out.write(_NO_INDEX.format(db=shlex.quote(shown_url(str(path)))))
            out.flush()
            return False
        text = render_text(answers, color=_use_color(out, color))
        if not text:
            return False
        out.write(text)
        out.flush()
        return True
    except BaseException as error:  # the hook must never raise, not even KeyboardInterrupt
        _debug(error)
        return False


def _prefetch_index(directory: Path) -> None:
    """Start reading the catalogue's saved match index (the one beside a file, as
    :func:`errdex.match.api.index_path` names it, or a server's in the cache) in a thread
    while the matcher is imported: the reads and the MAC check release the GIL. Read for
    one answer, its automaton is built only if the message is too long to try its anchors
    one by one. Never raises."""
    try:
        from errdex.match.index_file import prefetch

        prefetch(directory, one_answer=True)
    except Exception as error:
        _debug(error)


#: Said instead of the block while the catalogue has no match index: the hook does not
#: build one (seconds to minutes on a large catalogue, in a program that is failing).
_NO_INDEX = "errdex: {db} is not indexed yet; run `errdex match --db {db} x` once to index it\n"


def _debug(error: BaseException) -> None:
    if not _flag("ERRDEX_DEBUG"):
        return
    try:
        first = str(error).splitlines()[0] if str(error) else ""
        sys.stderr.write(f"errdex: the hook failed: {type(error).__name__}: {first[:200]}\n")
    except BaseException:
        pass


def _options() -> dict[str, Any]:
    state = _state
    if state is None:
        return {}
    return {"db": state.db, "color": state.color, "top": state.top}


def _excepthook(
    exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None
) -> None:
    state = _state
    previous = state.excepthook if state is not None and state.excepthook else sys.__excepthook__
    try:
        previous(exc_type, exc, tb)
    finally:
        report(exc, **_options())


def _threadhook(args: ExceptHookArgs) -> None:
    state = _state
    previous = state.threadhook if state is not None else None
    if previous is None:
        previous = sys.modules["threading"].__excepthook__
    try:
        previous(args)
    finally:
        if args.exc_type is not SystemExit:  # threading prints nothing for it
            report(args.exc_value, **_options())


def _asyncio_handler(loop: Any, context: dict[str, Any]) -> None:
    try:
        if _asyncio_original is not None:
            _asyncio_original(loop, context)
    finally:
        exc = context.get("exception")
        if _state is not None and isinstance(exc, BaseException):
            report(exc, **_options())


def _patch_threading(threading: ModuleType) -> None:
    state = _state
    if state is None or threading.excepthook is _threadhook:
        return
    state.threadhook = threading.excepthook
    threading.excepthook = _threadhook  # type: ignore[attr-defined]


def _patch_asyncio(base_events: ModuleType) -> None:
    """Wrap ``BaseEventLoop.default_exception_handler`` (loops with their own handler
    set keep it: that handler decides what is printed)."""
    global _asyncio_original
    loop_class = getattr(base_events, "BaseEventLoop", None)
    if _state is None or loop_class is None:
        return
    if loop_class.__dict__.get("default_exception_handler") is _asyncio_handler:
        return
    _asyncio_original = loop_class.default_exception_handler
    loop_class.default_exception_handler = _asyncio_handler


#: The modules whose hooks are wrapped, and how; each is patched when it is imported,
#: so that a program that never uses threads or asyncio never pays for importing them.
_PATCHES = {"threading": _patch_threading, "asyncio.base_events": _patch_asyncio}


class _Watcher:
    """A meta-path finder that patches each module of :data:`_PATCHES` once it is
    imported (each is imported once), then leaves ``sys.meta_path``."""

    def __init__(self, names: set[str]) -> None:
        self.pending = names

    def find_spec(
        self, name: str, path: Any = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if name not in self.pending:
            return None
        self.pending.discard(name)
        if not self.pending and self in sys.meta_path:
            sys.meta_path.remove(self)
        spec = PathFinder.find_spec(name, path)
        loader = spec.loader if spec is not None else None
        exec_module = getattr(loader, "exec_module", None)
        if spec is None or loader is None or exec_module is None:
            return None  # the other finders import it, unpatched
        patch = _PATCHES[name]

        def exec_and_patch(module: ModuleType) -> None:
            exec_module(module)
            try:
                patch(module)
            except BaseException as error:
                _debug(error)

        loader.exec_module = exec_and_patch  # type: ignore[method-assign]
        return spec


def install(*, db: str | Path | None = None, color: bool | None = None, top: int = 1) -> bool:
    """Print errdex's block after the traceback of every uncaught exception (main thread,
    other threads, asyncio). ``db`` is the catalogue (default
    :func:`errdex.integrations.catalogue.default_db`, looked up at each exception), ``color``
    forces colour on or off (default: when stderr is a terminal, unless ``NO_COLOR``).
    Returns False, doing nothing, when ``ERRDEX_DISABLE`` is set. Installing twice
    changes only the options."""
    global _state
    if disabled():
        return False
    with _lock:
        if _state is None:
            state = _State()
            state.excepthook = sys.excepthook
            _state = state
            sys.excepthook = _excepthook
            pending = set()
            for name, patch in _PATCHES.items():
                module = sys.modules.get(name)
                if module is not None:
                    patch(module)
                else:
                    pending.add(name)
            if pending:
                state.watcher = _Watcher(pending)
                sys.meta_path.insert(0, state.watcher)
        _state.db, _state.color, _state.top = db, color, top
    return True


def uninstall() -> None:
    """Put back the hooks :func:`install` replaced (where nobody replaced ours since)."""
    global _state
    with _lock:
        state, _state = _state, None
        if state is None:
            return
        if sys.excepthook is _excepthook:
            sys.excepthook = state.excepthook or sys.__excepthook__
        threading = sys.modules.get("threading")
        if threading is not None and threading.excepthook is _threadhook:
            threading.excepthook = state.threadhook or threading.__excepthook__  # type: ignore[attr-defined]
        if state.watcher is not None and state.watcher in sys.meta_path:
            sys.meta_path.remove(state.watcher)
        loop_class = getattr(sys.modules.get("asyncio.base_events"), "BaseEventLoop", None)
        ours = loop_class is not None and (
            loop_class.__dict__.get("default_exception_handler") is _asyncio_handler
        )
        if ours and loop_class is not None and _asyncio_original is not None:
            loop_class.default_exception_handler = _asyncio_original
