"""A repository exception class whose base past its own classes cannot be resolved: the
builtin's rendering of the constructor's arguments is not what ``str()`` prints when a
class of the repository on the way defines ``__init__`` or ``__str__``; and a base rebound
only on Jython (``from java.lang import Exception``) is the builtin where Python 3 runs.
Each template is checked against ``str()`` of what the package really raises."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from errdex.extract.python.module import jython_only

from ._fixture import package_on_disk, sites_by_line

SAX_LIKE = """\
import sys
if sys.platform[:4] == "java":
    from java.lang import Exception
del sys


class SAXException(Exception):
    def __init__(self, msg, exception=None):
        self._msg = msg
        self._exception = exception
        Exception.__init__(self, msg)

    def __str__(self):
        return self._msg


class ReaderNotAvailable(SAXException):
    pass
"""

SAX_USER = """\
from .errors import *


def load(driver):
    if not driver:
        raise ReaderNotAvailable("expat not supported", None)
    raise SAXException("just one")
"""

FOREIGN = """\
from foreign.base import HTTPException


class ClientError(HTTPException):
    def __init__(self, error_type, message):
        super().__init__(f'{{"__type": "{error_type}", "message": "{message}"}}')


class Plain(HTTPException):
    pass
"""

FOREIGN_USER = """\
from .errors import ClientError, Plain


def call(token):
    if not token:
        raise ClientError("ValidationException", "Invalid token")
    raise Plain("no init of ours on the way", 2)
"""


def _str_of(module: str, call: str) -> str:
    namespace = vars(importlib.import_module(module))
    with pytest.raises(Exception) as caught:
        eval(call, namespace)
    return str(caught.value)


def test_a_base_rebound_only_on_jython_is_the_builtin(tmp_path: Path) -> None:
    modules = {"errors": SAX_LIKE, "user": SAX_USER}
    with package_on_disk(tmp_path, "saxlike", modules) as root:
        found = sites_by_line(root, "src/saxlike/user.py")
        two, one = found[6], found[7]
        assert two.template.display == "expat not supported"
        assert two.template.match(_str_of("saxlike.user", "load(None)")) is not None
        assert one.template.display == "just one"
        assert one.template.match(_str_of("saxlike.user", "load('x')")) is not None


def test_an_unknown_base_under_our_own_init_leaves_the_message_unknown(tmp_path: Path) -> None:
    """``HTTPException`` of another package may print what it likes (werkzeug prints
    ``400 Bad Request: …``): the constructor's arguments are no template of it."""
    with package_on_disk(tmp_path, "foreignpkg", {"errors": FOREIGN, "user": FOREIGN_USER}) as root:
        found = sites_by_line(root, "src/foreignpkg/user.py")
    own, plain = found[6], found[7]
    assert "Invalid token" not in own.template.display
    assert own.template.match('400 Bad Request: {"message": "Invalid token"}') is not None
    # no class of the repository builds or prints Plain's message: the builtin's rules stay
    assert plain.template.display == "('no init of ours on the way', 2)"


@pytest.mark.parametrize(
    ("test", "only"),
    [
        ('sys.platform[:4] == "java"', True),
        ('sys.platform.startswith("java")', True),
        ('os.name == "java"', True),
        ('sys.platform == "win32"', False),
        ('sys.platform[:3] == "java"', False),
        ('sys.platform != "java"', False),
        ('name == "java"', False),
    ],
)
def test_jython_only_tests(test: str, only: bool) -> None:
    expr = ast.parse(test, mode="eval").body
    assert jython_only(expr) is only
