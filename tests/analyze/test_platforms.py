"""Platform tests in words, from one table (``analyze/platforms.py``)."""

from __future__ import annotations

import pytest

from errdex.analyze.platforms import platform_words


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('sys.platform == "win32"', "on Windows"),
        ("sys.platform != 'win32'", "on platforms other than Windows"),
        ('os.name == "nt"', "on Windows"),
        ("os.name != 'posix'", "on platforms other than POSIX systems (Linux, macOS, the BSDs)"),
        ('sys.platform.startswith("linux")', "on Linux"),
        ("not sys.platform.startswith('java')", "on platforms other than Jython"),
        ("sys.platform.startswith(('freebsd', 'openbsd'))", "on FreeBSD or OpenBSD"),
        ("sys.platform in ('win32', 'cygwin')", "on Windows or Cygwin"),
        ("sys.platform == 'darwin' or sys.platform == 'ios'", "on macOS or iOS"),
        (
            "sys.platform != 'win32' and sys.platform != 'cygwin'",
            "on platforms other than Windows and Cygwin",
        ),
        ("platform.system() == 'Darwin'", "on macOS"),
        ('sys.platform[:4] == "java"', "on Jython"),
        ("sys.platform[:3] != 'win'", "on platforms other than Windows"),
    ],
)
def test_a_platform_test_is_said_as_the_platform(text: str, words: str) -> None:
    assert platform_words(text) == words


@pytest.mark.parametrize(
    "text",
    [
        "sys.platform == 'darwin' and x",  # mixed with another condition: not one test
        "sys.platform == 'plan9'",  # not in the table: nothing guessed
        "sys.platform[:3] == 'java'",  # the slice and the value disagree
        "sys.platform[1:] == 'in32'",
        "x.platform == 'win32'",  # not the sys module
        "sys.platform == other",
        "sys.version_info >= (3, 12)",
    ],
)
def test_anything_else_is_no_platform_test(text: str) -> None:
    assert platform_words(text) is None


def test_module_aliases_and_constants_are_resolved() -> None:
    """``import sys as _sys`` (the stdlib's habit) and ``_WIN = sys.platform == "win32"``."""
    assert platform_words("_sys.platform == 'win32'", {"_sys": "sys"}) == "on Windows"
    assert platform_words("_sys.platform == 'win32'") is None  # `_sys` unknown: not sys
    constants = {"_WIN": "sys.platform == 'win32'"}
    assert platform_words("not _WIN", None, constants) == "on platforms other than Windows"


def test_a_platform_only_module_tests_its_platform() -> None:
    """``if _winapi:`` after ``try: import _winapi`` / ``except ImportError: _winapi =
    None`` (multiprocessing.connection) is a test for Windows."""
    modules = {"_winapi": "_winapi", "fcntl": "fcntl", "json": "json"}
    assert platform_words("_winapi", modules) == "on Windows"
    assert platform_words("_winapi is None", modules) == "on platforms other than Windows"
    assert platform_words("not fcntl", modules) == (
        "on platforms other than POSIX systems (Linux, macOS, the BSDs)"
    )
    assert platform_words("json", modules) is None
    assert platform_words("_winapi") is None  # not imported: any name


SUBPROCESS = """\
import sys

try:
    import msvcrt
except ModuleNotFoundError:
    _mswindows = False
else:
    _mswindows = True


class Popen:
    if _mswindows:
        def _wait(self, timeout):
            raise TimeoutError(timeout)
    else:
        def _wait(self, timeout):
            raise ChildProcessError(timeout)
"""


def test_subprocess_s_flag_and_the_methods_it_picks() -> None:
    """``subprocess._mswindows`` is bound by whether ``msvcrt`` imports; ``Popen`` defines
    its Windows and POSIX methods under ``if _mswindows:``."""
    from errdex.analyze.walk import module_facts

    facts = module_facts(SUBPROCESS, "sp.py", "sp.py", "sp", is_test=False)
    assert facts is not None
    assert facts.platform_names == {"_mswindows": "msvcrt"}
    platforms = {f.line: f.platform for f in facts.functions}
    assert platforms == {13: "on Windows", 16: "on platforms other than Windows"}
