"""The pytest plugin behind ``errdex harvest``: every exception or warning a test expects.

Loaded into the target's own test run (``python -m pytest -p errdex.analyze.harvest.plugin``)
it wraps the context managers that tests use to expect an error (``pytest.raises``,
``pytest.warns``/``deprecated_call``, ``TestCase.assertRaises``/``assertRaisesRegex``/
``assertWarns``/``assertWarnsRegex``, and what is built on them such as
``numpy.testing.assert_raises``) and, each time one catches what it expected, writes one
JSON line: the class as a traceback prints it, ``str()`` of the exception or warning, the
frames where it was raised (innermost first), the raising frame inside the target, the test
node id, and what the test expected.

It imports only the standard library and pytest, because it runs in the target's
environment, which need not have errdex's dependencies: ``collect`` copies this file
under another name when ``errdex`` itself is not importable there.

Where to write: the ``--errdex-harvest-out`` option or the ``ERRDEX_HARVEST_OUT``
environment variable (a file; lines are appended with one ``write`` each, so pytest-xdist
workers can share it). Which code is the target: ``ERRDEX_HARVEST_ROOTS``, directories
(or files) joined by ``os.pathsep``; without it, the innermost frame outside the standard
library, site-packages and pytest counts as the raising frame.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import sys
import sysconfig
import unittest.case
import warnings
from collections import Counter
from collections.abc import Callable, Iterable
from types import FrameType, TracebackType
from typing import Any

import pytest

__all__ = [
    "ENV_OUT",
    "ENV_ROOTS",
    "FORMAT_VERSION",
    "class_name",
    "frames_of_stack",
    "frames_of_traceback",
    "raising_frame",
]

ENV_OUT = "ERRDEX_HARVEST_OUT"
ENV_ROOTS = "ERRDEX_HARVEST_ROOTS"
#: Bumped when a line's keys change, so a reader can refuse lines it does not know.
FORMAT_VERSION = 1
#: Frames kept per capture (innermost first): enough to see the call into the target.
MAX_FRAMES = 40
#: Longest message written; longer ones are cut and flagged ``truncated``.
MAX_MESSAGE = 20_000

#: Directory names that mark installed third-party code, even inside a target root
#: (a ``.venv`` inside the repository is not the repository's code).
_INSTALLED = frozenset({"site-packages", "dist-packages"})

Frame = tuple[str, int, str]  # absolute filename, line, function name


class _State:
    """What one test process knows: where to write, which code is the target, the test."""

    def __init__(self) -> None:
        self.fd: int | None = None
        self.roots: tuple[str, ...] = ()
        self.test: str | None = None
        self.counts: Counter[str] = Counter()
        self.failed: list[str] = []  # tests that failed or errored: they confirm no link
        self.is_worker = False


_state = _State()


def class_name(cls: type) -> str:
    """``module.qualname`` as a traceback prints it (builtins and ``__main__`` bare)."""
    module = getattr(cls, "__module__", None)
    qualname = getattr(cls, "__qualname__", None) or getattr(cls, "__name__", repr(cls))
    if module in (None, "builtins", "__main__"):
        return str(qualname)
    return f"{module}.{qualname}"


def _message(value: BaseException) -> str:
    try:
        return str(value)
    except Exception as exc:  # a broken __str__ must not break the test run
        return f"<unprintable {type(value).__name__}: {type(exc).__name__}>"


def _absolute(filename: str) -> str:
    """Absolute path for a real file name; pseudo names (``<string>``) unchanged."""
    if filename.startswith("<") or not filename:
        return filename
    return os.path.abspath(filename)


def frames_of_traceback(tb: TracebackType | None) -> list[Frame]:
    """The traceback's frames, innermost first."""
    frames: list[Frame] = []
    while tb is not None:
        code = tb.tb_frame.f_code
        frames.append((_absolute(code.co_filename), tb.tb_lineno, code.co_name))
        tb = tb.tb_next
    frames.reverse()
    return frames


def frames_of_stack(frame: FrameType | None, skip: Iterable[str] = ()) -> list[Frame]:
    """The live stack from ``frame`` outwards (innermost first), without files in ``skip``."""
    skipped = {os.path.abspath(s) for s in skip}
    frames: list[Frame] = []
    while frame is not None:
        filename = _absolute(frame.f_code.co_filename)
        if filename not in skipped:
            frames.append((filename, frame.f_lineno, frame.f_code.co_name))
        frame = frame.f_back
    return frames


@functools.lru_cache(maxsize=1)
def _foreign_prefixes() -> tuple[str, ...]:
    """Directories whose files are never the target's: stdlib, site-packages, pytest."""
    paths = sysconfig.get_paths()
    found = {paths[k] for k in ("stdlib", "platstdlib", "purelib", "platlib") if k in paths}
    found.add(os.path.dirname(os.path.dirname(pytest.__file__)))
    return tuple(os.path.join(_real(p), "") for p in found if p)


def _under(path: str, root: str) -> bool:
    if path == root:
        return True
    prefix = os.path.join(root, "")
    if not path.startswith(prefix):
        return False
    return not _INSTALLED.intersection(path[len(prefix) :].split(os.sep))


@functools.lru_cache(maxsize=4096)
def _real(path: str) -> str:
    return os.path.realpath(path)


def raising_frame(frames: Iterable[Frame], roots: Iterable[str] = ()) -> Frame | None:
    """The innermost frame inside a root; without roots, outside stdlib/site-packages/pytest.

    Paths are compared (and returned) resolved, so a symlinked checkout or virtual
    environment still counts.
    """
    chosen_roots = [_real(r) for r in roots]
    for frame in frames:
        if not os.path.isabs(frame[0]):
            continue  # <string>, <frozen ...>, generated code such as networkx's argmap
        path = _real(frame[0])
        if chosen_roots:
            if any(_under(path, root) for root in chosen_roots):
                return (path, frame[1], frame[2])
        elif not path.startswith(_foreign_prefixes()):
            return (path, frame[1], frame[2])
    return None


def _expected_names(expected: Any) -> list[str]:
    items = expected if isinstance(expected, tuple) else (expected,)
    return [class_name(e) if isinstance(e, type) else repr(e) for e in items if e is not None]


def _pattern_text(match: Any) -> str | None:
    if match is None:
        return None
    return match.pattern if isinstance(match, re.Pattern) else str(match)


def _write(entry: dict[str, Any]) -> None:
    if _state.fd is None:
        return
    # ASCII JSON: lone surrogates in a message stay escaped, and every line is valid UTF-8
    line = json.dumps(entry, default=repr) + "\n"
    with contextlib.suppress(OSError):  # losing one capture beats failing the user's test
        os.write(_state.fd, line.encode("ascii"))


def _capture(
    *,
    kind: str,
    via: str,
    value: BaseException,
    frames: list[Frame],
    expected: Any,
    match: Any,
    reported: Frame | None = None,
) -> None:
    message = _message(value)
    truncated = len(message) > MAX_MESSAGE
    site = raising_frame(frames, _state.roots)
    if site is None and reported is not None:
        site = raising_frame([reported], _state.roots)
    _write(
        {
            "type": "capture",
            "v": FORMAT_VERSION,
            "kind": kind,
            "via": via,
            "errorClass": class_name(type(value)),
            "message": message[:MAX_MESSAGE],
            "truncated": truncated,
            "site": list(site[:2]) if site else None,
            "frames": [list(f) for f in frames[:MAX_FRAMES]],
            "reported": list(reported[:2]) if reported else None,
            "test": _state.test,
            "expected": _expected_names(expected),
            "match": _pattern_text(match),
            "pid": os.getpid(),
        }
    )


# -- exceptions ------------------------------------------------------------------------


def _wrap_raises_exit(cls: type) -> None:
    """``pytest.raises`` (``RaisesExc`` in pytest ≥ 8.4, ``RaisesContext`` before)."""
    original = cls.__exit__  # type: ignore[attr-defined]
    if getattr(original, "_errdex_wrapped", False):
        return

    @functools.wraps(original)
    def __exit__(
        self: Any,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> Any:
        __tracebackhide__ = True
        suppressed = original(self, exc_type, exc_val, exc_tb)
        if suppressed and exc_val is not None:
            _safely(
                _capture,
                kind="exception",
                via="pytest.raises",
                value=exc_val,
                frames=frames_of_traceback(exc_tb or exc_val.__traceback__),
                expected=getattr(self, "expected_exceptions", None)
                or getattr(self, "expected_exception", None),
                match=getattr(self, "match", None) or getattr(self, "match_expr", None),
            )
        return suppressed

    __exit__._errdex_wrapped = True  # type: ignore[attr-defined]
    cls.__exit__ = __exit__  # type: ignore[attr-defined]


def _wrap_unittest_raises() -> None:
    cls = unittest.case._AssertRaisesContext
    original = cls.__exit__
    if getattr(original, "_errdex_wrapped", False):
        return

    @functools.wraps(original)
    def __exit__(
        self: Any,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        tb: TracebackType | None,
    ) -> Any:
        __tracebackhide__ = True
        suppressed = original(self, exc_type, exc_value, tb)
        if suppressed and exc_value is not None:
            regex = getattr(self, "expected_regex", None)
            _safely(
                _capture,
                kind="exception",
                via="assertRaisesRegex" if regex is not None else "assertRaises",
                value=exc_value,
                frames=frames_of_traceback(tb or exc_value.__traceback__),
                expected=getattr(self, "expected", None),
                match=regex,
            )
        return suppressed

    __exit__._errdex_wrapped = True  # type: ignore[attr-defined]
    cls.__exit__ = __exit__  # type: ignore[method-assign]


# -- warnings --------------------------------------------------------------------------
#
# A WarningMessage's filename/lineno follow ``stacklevel``: they name the caller of the
# function that warned, not the ``warn`` call. So while an expecting context is open,
# the recorder's ``log.append`` is wrapped to take the live stack at the moment the
# warning is recorded: its innermost frame (outside warnings.py) is the ``warn`` call.

_WARNINGS_FILES = tuple(
    f
    for f in (getattr(warnings, "__file__", None), __file__)
    if f  # the warnings module and this plugin are never a warning's site
)


def _hook_log(owner: Any, log: Any) -> None:
    """Record the live stack of every warning appended to ``log`` while ``owner`` is open."""
    if not isinstance(log, list):
        return
    records: list[Any] = log
    if getattr(getattr(warnings, "_showwarnmsg_impl", None), "__self__", None) is not records:
        return  # not the recorder we know (another Python version): fall back to filename
    sites: dict[int, list[Frame]] = {}
    owner._errdex_sites = sites

    def append(message: Any) -> None:
        records.append(message)
        with contextlib.suppress(Exception):
            sites[id(message)] = frames_of_stack(sys._getframe(1), _WARNINGS_FILES)[:MAX_FRAMES]

    warnings._showwarnmsg_impl = append  # type: ignore[attr-defined]


def _capture_warning(owner: Any, record: Any, via: str, expected: Any, match: Any) -> None:
    value = record.message
    if not isinstance(value, BaseException):
        value = record.category(str(value))
    sites: dict[int, list[Frame]] = getattr(owner, "_errdex_sites", {})
    reported: Frame = (_absolute(str(record.filename)), int(record.lineno or 0), "")
    frames = sites.get(id(record)) or [reported]
    _capture(
        kind="warning",
        via=via,
        value=value,
        frames=frames,
        expected=expected,
        match=match,
        reported=reported,
    )


def _warns_matches(checker: Any, record: Any) -> bool:
    matches = getattr(checker, "matches", None)
    if callable(matches):
        return bool(matches(record))
    expected = checker.expected_warning or Warning
    match_expr = getattr(checker, "match_expr", None)
    return issubclass(record.category, expected) and (
        match_expr is None or re.search(match_expr, str(record.message)) is not None
    )


def _wrap_pytest_warns(cls: type) -> None:
    enter = cls.__enter__  # type: ignore[attr-defined]
    exit_ = cls.__exit__  # type: ignore[attr-defined]
    if getattr(exit_, "_errdex_wrapped", False):
        return

    @functools.wraps(enter)
    def __enter__(self: Any) -> Any:
        result = enter(self)
        _safely(_hook_log, self, getattr(self, "_list", None))
        return result

    @functools.wraps(exit_)
    def __exit__(
        self: Any,
        exc_type: type[BaseException] | None,
        exc_val: BaseException | None,
        exc_tb: TracebackType | None,
    ) -> Any:
        __tracebackhide__ = True
        result = exit_(self, exc_type, exc_val, exc_tb)  # raises when nothing matched
        if exc_val is None:
            for record in list(self):
                if _safely(_warns_matches, self, record):
                    _safely(
                        _capture_warning,
                        self,
                        record,
                        "pytest.warns",
                        getattr(self, "expected_warning", None),
                        getattr(self, "match_expr", None),
                    )
        self.__dict__.pop("_errdex_sites", None)
        return result

    __exit__._errdex_wrapped = True  # type: ignore[attr-defined]
    cls.__enter__ = __enter__  # type: ignore[attr-defined]
    cls.__exit__ = __exit__  # type: ignore[attr-defined]


def _wrap_unittest_warns() -> None:
    cls = unittest.case._AssertWarnsContext
    enter = cls.__enter__
    exit_ = cls.__exit__
    if getattr(exit_, "_errdex_wrapped", False):
        return

    @functools.wraps(enter)
    def __enter__(self: Any) -> Any:
        result = enter(self)
        _safely(_hook_log, self, getattr(self, "warnings", None))
        return result

    @functools.wraps(exit_)
    def __exit__(
        self: Any,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        tb: TracebackType | None,
    ) -> Any:
        __tracebackhide__ = True
        result = exit_(self, exc_type, exc_value, tb)  # raises when nothing matched
        caught = getattr(self, "warning", None)
        if exc_type is None and caught is not None:
            for record in getattr(self, "warnings", ()):
                if record.message is caught:
                    regex = getattr(self, "expected_regex", None)
                    _safely(
                        _capture_warning,
                        self,
                        record,
                        "assertWarnsRegex" if regex is not None else "assertWarns",
                        getattr(self, "expected", None),
                        regex,
                    )
                    break
        self.__dict__.pop("_errdex_sites", None)
        return result

    __exit__._errdex_wrapped = True  # type: ignore[attr-defined]
    cls.__enter__ = __enter__  # type: ignore[method-assign]
    cls.__exit__ = __exit__  # type: ignore[method-assign]


def _safely(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run a capture step; a bug here must never change the outcome of the user's test."""
    try:
        return func(*args, **kwargs)
    except Exception:
        return None


def install() -> None:
    """Wrap the expecting context managers (idempotent; classes, so ``from x import`` works)."""
    _wrap_raises_exit(type(pytest.raises(Exception)))
    _wrap_pytest_warns(type(pytest.warns(Warning)))
    _wrap_unittest_raises()
    _wrap_unittest_warns()


# -- pytest hooks ----------------------------------------------------------------------


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("errdex-harvest", "errdex harvest")
    group.addoption(
        "--errdex-harvest-out",
        action="store",
        default=None,
        metavar="FILE",
        help=f"append captured expected exceptions to FILE as JSON lines (or ${ENV_OUT})",
    )


def pytest_configure(config: pytest.Config) -> None:
    out = config.getoption("--errdex-harvest-out", None) or os.environ.get(ENV_OUT)
    if not out:
        return
    roots = os.environ.get(ENV_ROOTS, "")
    _state.roots = tuple(os.path.abspath(r) for r in roots.split(os.pathsep) if r)
    _state.is_worker = hasattr(config, "workerinput")
    _state.fd = os.open(out, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    install()


def pytest_runtest_logstart(nodeid: str, location: tuple[str, int | None, str]) -> None:
    _state.test = nodeid  # called in the process that runs the test (an xdist worker too)


def pytest_runtest_logfinish(nodeid: str, location: tuple[str, int | None, str]) -> None:
    _state.test = None


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if _state.fd is None or _state.is_worker:
        return
    counts = _state.counts
    if report.failed and report.nodeid not in _state.failed:
        _state.failed.append(report.nodeid)
    if report.when == "call":
        if hasattr(report, "wasxfail"):
            counts["xfailed" if report.skipped else "xpassed"] += 1
        else:
            counts[report.outcome] += 1
    elif report.failed:
        counts["errors"] += 1
    elif report.skipped:
        counts["xfailed" if hasattr(report, "wasxfail") else "skipped"] += 1


def pytest_collectreport(report: pytest.CollectReport) -> None:
    """Collection errors and module-level skips (``importorskip``), as pytest counts them."""
    if _state.fd is None or _state.is_worker:
        return
    if report.failed:
        _state.counts["errors"] += 1
    elif report.skipped:
        _state.counts["skipped"] += 1


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _state.fd is None or _state.is_worker:
        return
    _write(
        {
            "type": "summary",
            "v": FORMAT_VERSION,
            "exitstatus": int(exitstatus),
            "collected": int(getattr(session, "testscollected", 0)),
            "counts": dict(_state.counts),
            "failed": _state.failed,
            "pytest": pytest.__version__,
            "python": sys.executable,
        }
    )


def pytest_unconfigure(config: pytest.Config) -> None:
    if _state.fd is not None:
        os.close(_state.fd)
        _state.fd = None
