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
"""


def test_a_raise_only_the_arguments_decide_is_validated(tmp_path: Path) -> None:
    items = one_file_items(tmp_path, "wrap.py", WRAPPER)
    by_line = {r["lineNumber"]: r for r, _ in items}
    assert by_line[10]["handlingStrategy"] == "validation"
    # a local made from a call with no argument (the platform's schemes) is no argument
    assert by_line[20]["handlingStrategy"] != "validation"
    # the insides of an object passed (``frame.symbols.loads``) are not what was written
    assert by_line[28]["handlingStrategy"] != "validation"
    # what it says, run: the arguments alone decide
    script = (
        "import socket\nfrom wrap import Wrapper\nw = Wrapper()\n"
        "assert w.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) == 0\n"
        "try:\n    w.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF)\n"
        "except NotImplementedError:\n    pass\nelse:\n    raise AssertionError\n"
    )
    subprocess.run([sys.executable, "-c", script], cwd=tmp_path, check=True)
