"""A raise the caller's own arguments decide is checked before the call, not caught
(paired blind review, stop 38: ``try-catch`` misleading for ``asyncore.file_wrapper
.getsockopt``'s option check and logging's clashing ``extra`` keys)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from .stdlib_items import one_file_items

WRAPPER = """\
import socket

SCHEMES = {"posix": 1}


class Wrapper:
    def getsockopt(self, level, optname, buflen=None):
        if level == socket.SOL_SOCKET and optname == socket.SO_ERROR and not buflen:
            return 0
        raise NotImplementedError("Only asyncore specific behaviour implemented.")


def _schemes():
    return {"prefix": "nt"}


def preferred(key):
    scheme = _schemes()[key]
    if scheme not in SCHEMES:
        raise RuntimeError(f"{scheme!r} returned by {key!r} is not a valid scheme")
    return scheme


class Frame:
    def enter(self, frame):
        for action in frame.symbols.loads:
            if action != "load":
                raise RuntimeError("unknown load instruction")


_registry = {}


def remove(key, code):
    if _registry.get(key) != code:
        raise ValueError("key %s is not registered with code %s" % (key, code))


def has_feature():
    return False


def create(flag):
    if flag and not has_feature():
        raise ValueError("flag not supported on this platform")"""


def _line(snippet: str) -> int:
    """The line of ``WRAPPER`` holding ``snippet``."""
    return next(i for i, text in enumerate(WRAPPER.splitlines(), 1) if snippet in text)


def test_a_raise_only_the_arguments_decide_is_validated(tmp_path: Path) -> None:
    items = one_file_items(tmp_path, "wrap.py", WRAPPER)
    by_line = {r["lineNumber"]: r for r, _ in items}
    assert by_line[10]["handlingStrategy"] == "validation"
    # a local made from a call with no argument (the platform's schemes) is no argument
    assert by_line[20]["handlingStrategy"] != "validation"
    # the insides of an object passed (``frame.symbols.loads``) are not what was written
    assert by_line[28]["handlingStrategy"] != "validation"
    # a private registry or the system (a module function's answer) decide these as well
    for snippet in ("is not registered", "not supported on this"):
        assert by_line[_line(snippet)]["handlingStrategy"] != "validation", snippet
    # what it says, run: the arguments alone decide
    script = (
        "import socket\nfrom wrap import Wrapper\nw = Wrapper()\n"
        "assert w.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0\n"
        "try:\n    w.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF)\n"
        "except NotImplementedError:\n    pass\nelse:\n    raise AssertionError\n"
    )
    subprocess.run([sys.executable, "-c", script], cwd=tmp_path, check=True)


#: Review rr6: state, files and a filled registry decide these, not the arguments alone.
STATE = """\
import os

REGISTRY = {}
KINDS = ("a", "b")


def register(name, obj):
    REGISTRY[name] = obj


def lookup(name):
    if name not in REGISTRY:
        raise KeyError(name)
    return REGISTRY[name]


def pick(name):
    known = []
    known.extend(os.listdir("."))
    if name not in known:
        raise ValueError(name)
    return name


def scan(path):
    for line in open(path):
        if line.startswith("#!"):
            raise ValueError(path)


def kind(name):
    if name not in KINDS:
        raise ValueError(name)
    return name
"""


def test_a_registry_a_filled_local_or_a_file_is_no_argument(tmp_path: Path) -> None:
    items = one_file_items(tmp_path, "state.py", STATE)
    by_line = {r["lineNumber"]: r for r, _ in items}
    assert by_line[13]["handlingStrategy"] != "validation"  # REGISTRY, filled by register()
    assert by_line[21]["handlingStrategy"] != "validation"  # known.extend(os.listdir(...))
    assert by_line[28]["handlingStrategy"] != "validation"  # open(path): the file decides
    # a tuple bound once and never changed is what the arguments are checked against
    assert by_line[33]["handlingStrategy"] == "validation"
    # what it says, run: the same call fails, then passes once the registry is filled
    script = (
        "import state\ntry:\n    state.lookup('x')\nexcept KeyError:\n    pass\n"
        "else:\n    raise AssertionError\nstate.register('x', 1)\nassert state.lookup('x') == 1"
    )
    subprocess.run([sys.executable, "-c", script], cwd=tmp_path, check=True)
